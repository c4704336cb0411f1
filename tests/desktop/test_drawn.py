"""Issue 23: the shared drawing toolkit (desktop/drawn): colours told apart with red-green colour
blindness, cards crisp at 2x, clickable and reachable by keyboard, movements one at a time and
in order, and "less motion" drawing the end state at once."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtWidgets import QApplication, QHBoxLayout, QWidget

from desktop import style
from desktop.drawn import CardLook, DrawnCard, MotionQueue, Step, set_less_motion
from desktop.drawn import palette
from desktop.drawn.text import LEAST_PX, KEY_PX
from tests.desktop.density import detail_only_at_2x


@pytest.mark.parametrize("sight", ["normal", *palette.SIGHTS])
def test_player_colours_stay_apart_with_red_green_colour_blindness(sight):
    """Each player's colour (name, pieces, dice) is told apart from every other at a glance."""
    diff, a, b = palette.closest_pair(palette.PLAYER_COLOURS, sight)
    assert diff >= palette.LEAST_DIFFERENCE, f"{a} and {b} look alike ({diff:.1f}) with {sight}"
    assert len(set(palette.PLAYER_COLOURS)) >= 6            # the most players a game on the shelf takes


@pytest.mark.parametrize("sight", ["normal", *palette.SIGHTS])
def test_card_type_colours_stay_apart_and_from_the_marks(sight):
    """Card backs differ from each other, and from the glow of a legal place and the chosen mark."""
    kinds = list(style.KIND_COLOURS)
    diff, a, b = palette.closest_pair(kinds, sight)
    assert diff >= palette.LEAST_DIFFERENCE, f"{a} and {b} look alike ({diff:.1f}) with {sight}"
    for mark in (style.HIGHLIGHT, style.CHOSEN):
        nearest = min(palette.difference(palette.simulate(mark, sight), palette.simulate(k, sight)) for k in kinds)
        assert nearest >= 10, f"{mark} looks like a card type's colour with {sight}"
    assert len(set(style.KIND_SYMBOLS)) == len(style.KIND_SYMBOLS)    # a symbol each: colour is never the only cue


def test_the_simulation_changes_red_and_green_but_not_grey():
    """The check can fail: red and green, far apart to most eyes, come close with deuteranopia."""
    red, green = "#D55E00", "#3C9A00"
    assert palette.difference(red, green) > 60
    assert palette.difference(palette.simulate(red, "deuteranopia"), palette.simulate(green, "deuteranopia")) < 25
    assert palette.simulate("#808080", "deuteranopia") in {"#7F7F7F", "#808080", "#818181"}


def _card_row(qtbot, looks):
    host = QWidget()
    row = QHBoxLayout(host)
    cards = []
    for i, (look, legal) in enumerate(looks):
        card = DrawnCard(f"spot/{i}")
        card.set_look(look, legal=legal)
        row.addWidget(card)
        cards.append(card)
    qtbot.addWidget(host)
    host.resize(560, 170)
    host.show()
    qtbot.waitExposed(host)
    return host, cards


LOOKS = [(CardLook("Top", "Loot", "\u25C6", style.ORANGE), True),
         (CardLook("Bottom", "Henchman", "\u25B2", style.PURPLE), False),
         (CardLook("Center", "Location", "\u25CF", style.SKY_BLUE, name="Statue of Liberty's Torch",
                   notes=("(seen by all)",)), True)]


def test_cards_are_painted_with_their_words_no_smaller_than_the_least_size(qtbot):
    host, cards = _card_row(qtbot, LOOKS)
    for card in cards:
        texts = card.drawn_texts()
        assert texts and all(t.fits and t.px >= LEAST_PX for t in texts), texts
        key = [t for t in texts if t.key]
        assert key and (not card.legal or key[0].px >= KEY_PX), "a legal card's place words are large"
    face = [t.text for t in cards[2].drawn_texts()]
    assert "Location" in face and any("Statue" in t for t in face)            # the type in the band, the name
    assert cards[2].text().startswith("Statue of Liberty's Torch")
    assert cards[0].text().split("\n") == ["\u25C6 Loot", "Top"]


FLIPPED_NAMES = ["Cairo", "Statue of Liberty's Torch", "A Secret Remedy for Montezuma's Revenge"]
CARD_SIZES = [(120, 90), (168, 104), (220, 150)]      # a narrow face, the Carmen table's at 1366, a roomy one


@pytest.mark.parametrize("size", CARD_SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("name", FLIPPED_NAMES)
def test_a_face_up_cards_name_is_its_largest_words(qtbot, name, size):
    """A flipped card is read by its name from across the table: where it lies ("Bottom") and its
    notes get smaller first, so the name is never smaller than they are; on a legal card where it
    lies is the choice's words and keeps 24 px."""
    from PySide6.QtCore import QRect

    from desktop.drawn.paint import layout_card

    look = CardLook("Bottom", "Location", "\u25CF", style.SKY_BLUE, name=name, notes=("(seen by all)",))
    for legal in (False, True):
        texts = [d for d, _, _ in layout_card(QRect(0, 0, *size), look, legal=legal).texts]
        assert all(d.fits and d.px >= LEAST_PX for d in texts), texts
        shown = [d for d in texts if " ".join(d.text.split()) == name]
        caption = [d for d in texts if d.text == "Bottom"]
        notes = [d for d in texts if d.text == "(seen by all)"]
        if legal:
            assert caption and caption[0].px >= KEY_PX, texts
        elif shown:
            assert all(shown[0].px >= other.px for other in caption + notes), texts
        if not legal and size >= CARD_SIZES[1]:          # the Carmen table's cards show every name
            assert shown, f"{name!r} left out of a {size} card: {texts}"
    # Room for every row at its largest: the name is still the face's biggest words.
    roomy = [d for d, _, _ in layout_card(QRect(0, 0, 300, 220), look).texts]
    assert max(roomy, key=lambda d: d.px).text.split() == name.split(), roomy


def test_a_card_is_crisp_at_twice_the_pixel_density(qtbot):
    """Drawn on the device pixels: at 2x the card has detail a 1x picture scaled up has not."""
    host, cards = _card_row(qtbot, LOOKS[:1])
    assert detail_only_at_2x(cards[0]) > 500, "the 2x picture is only the 1x one blown up"


def test_cards_are_reached_with_tab_and_arrows_and_enter_picks_only_a_legal_one(qtbot):
    host, (top, bottom, centre) = _card_row(qtbot, LOOKS)
    picked = []
    for card in (top, bottom, centre):
        card.picked.connect(picked.append)
    top.setFocus()
    qtbot.waitUntil(top.hasFocus)
    qtbot.keyClick(top, Qt.Key_Right)
    assert QApplication.focusWidget() is bottom
    qtbot.keyClick(bottom, Qt.Key_Return)               # not legal: nothing
    assert picked == []
    qtbot.keyClick(bottom, Qt.Key_Tab)
    assert QApplication.focusWidget() is centre
    qtbot.keyClick(centre, Qt.Key_Enter)
    qtbot.keyClick(centre, Qt.Key_Left)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Left)
    qtbot.keyClick(QApplication.focusWidget(), Qt.Key_Space)
    assert picked == ["spot/2", "spot/0"]
    qtbot.mouseClick(top, Qt.LeftButton, pos=QPoint(top.width() // 2, top.height() // 2))
    assert picked[-1] == "spot/0"


def test_motion_plays_one_step_at_a_time_in_order(qtbot):
    set_less_motion(False)
    try:
        queue = MotionQueue()
        seen: list[tuple[str, float]] = []
        held: list[str] = []

        def step(name: str) -> Step:
            return Step(progress=lambda t, n=name: seen.append((n, t)), hold=lambda n=name: held.append(n),
                        land=lambda n=name: seen.append((n, -1.0)), what=name)

        queue.play([step("swap"), step("draw")])
        assert held == ["swap", "draw"] and queue.busy
        qtbot.waitUntil(lambda: not queue.busy, timeout=3000)
        assert queue.played == ["swap", "draw"]
        order = [n for n, _ in seen]
        assert order.index(("draw")) > max(i for i, n in enumerate(order) if n == "swap"), "one at a time"
        assert ("swap", -1.0) in seen and ("draw", -1.0) in seen
        assert any(0 < t < 1 for n, t in seen if n == "swap"), "the step was seen on its way"
    finally:
        set_less_motion(True)


def test_less_motion_lands_every_step_at_once(qtbot):
    set_less_motion(True)
    queue = MotionQueue()
    seen = []
    queue.play([Step(progress=seen.append, what="roll")])
    assert not queue.busy and queue.played == ["roll"] and seen == [1.0]


def test_a_movement_draws_the_card_on_its_way_and_holds_its_place(qtbot):
    from desktop.drawn import FlightLayer, flight_step
    set_less_motion(False)
    try:
        host, (a, b, _) = _card_row(qtbot, LOOKS)
        layer = FlightLayer(host)
        queue = MotionQueue()
        step = flight_step(layer, [(b.paint_at, QRectF(a.geometry()), QRectF(b.geometry()))], what="swap",
                           hold=b.hold, land=b.release)
        queue.play([step])
        assert b.held and b.drawn_texts() == []
        qtbot.waitUntil(lambda: bool(layer.flights), timeout=1000)
        qtbot.waitUntil(lambda: not queue.busy, timeout=3000)
        assert not b.held and not layer.flights and b.drawn_texts()
    finally:
        set_less_motion(True)
