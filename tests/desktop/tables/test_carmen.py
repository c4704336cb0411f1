"""Issue 23: the Carmen Sandiego card game's table drawn like the game: each gumshoe's columns
of face-down cards by their name, the center cards, the piles, the die with the face rolled; a
roll, a swap and a draw are seen moving and end where the engine says; with "less motion" the
end state is drawn at once. Issue 29: the cards of a failed warrant go back face down (their
names on a label), two gumshoes' center cards lie side by side with their piles, each card whole."""

from __future__ import annotations

import pytest
from PySide6.QtCore import QRectF

from desktop.drawn import DrawnCard, DrawnDie, set_less_motion
from desktop.tables.carmen import CarmenTable

from tests.desktop.test_game_flow import DEAL, PLAYERS


@pytest.fixture
def game(table):
    table.new_game(PLAYERS)
    table.deal(DEAL)
    return table


@pytest.fixture
def motion(game):
    """Motion on, as a family has it by default (the start screen's switch off)."""
    game.click("leave")
    game.find("start:less-motion").setChecked(False)
    game.click("start:resume")
    assert isinstance(game.window.table.table, CarmenTable)
    yield game
    set_less_motion(True)


def board(t) -> CarmenTable:
    return t.window.table.table


def agrees_with_the_engine(t) -> None:
    """Every card on the table shows what the shared view says lies there, none is held."""
    view = t.window.controller.shared_view()
    by_place = {c.place: c for c in view.cards}
    for place, card in board(t).slot_buttons.items():
        truth = by_place.get(place)
        assert not card.held, place
        assert card.look.present == (truth is not None), place
        # A face-down card everyone saw shows its back, its name on a label (``seen``).
        shown = card.look.name if truth is None or truth.face_up else card.look.seen or None
        assert shown == (truth.name if truth else None), place


def test_each_gumshoe_has_columns_under_their_name_in_their_colour(game):
    t = game
    table = board(t)
    for seat, (player, _) in enumerate(PLAYERS):
        name = t.find(f"name:{player}")
        assert name.colour == table.names[player].colour
        top, bottom = t.find(f"slot:{player}/loot/top"), t.find(f"slot:{player}/loot/bottom")
        # A column goes down: the bottom card lies under the top one, each whole (issue 29).
        assert top.geometry().bottom() < bottom.y() and top.x() == bottom.x()
        assert top.exposed is None and bottom.exposed is None
        assert [d.text for d in top.drawn_texts()][0] == "Top"
    assert t.text("name:Julie") == "Julie \u25C0 playing now"
    assert isinstance(t.find("die"), DrawnDie) and t.find("pile:loot").look.caption.isdigit()


def test_a_roll_tumbles_the_die_and_lands_on_the_face_rolled(motion):
    t = motion
    die = t.find("die")
    t.roll("location")
    assert board(t).motion.busy and die.rolling, "the roll is seen"
    t.qtbot.waitUntil(lambda: not board(t).motion.busy, timeout=3000)
    assert not die.rolling and die.face() == (None, "\u25CF", "Location")
    assert board(t).motion.queue.played == ["roll"]


def test_a_swap_moves_both_cards_at_once_and_ends_where_the_engine_says(motion):
    t = motion
    t.warrant("Julie/loot/top", "Julie/location/top")              # no match: Amberley may swap
    t.qtbot.waitUntil(lambda: not board(t).motion.busy, timeout=3000)
    before = len(board(t).motion.queue.played)
    t.click("slot:Amberley/loot/bottom")
    table = board(t)
    mine, centre = t.find("slot:Amberley/loot/bottom"), t.find("slot:center/loot")
    assert table.motion.busy and mine.held and centre.held        # both places wait for their card
    t.qtbot.waitUntil(lambda: len(table.motion.layer.flights) == 2, timeout=1000)   # crossing together
    t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=3000)
    assert table.motion.queue.played[before:] == ["swap"]
    assert not table.motion.layer.flights
    agrees_with_the_engine(t)


def test_the_piles_refill_the_columns_one_card_at_a_time_in_order(motion):
    t = motion
    t.warrant("Julie/loot/top", "Mark/location/top")                # a match: three cards go out
    t.flip_henchman("Julie/henchman/top")
    t.click("action:decline_swap")
    t.roll("henchman")
    t.peek("Julie/henchman/bottom")
    t.qtbot.waitUntil(lambda: not board(t).motion.busy, timeout=5000)
    before = len(board(t).motion.queue.played)
    t.end_turn()                                                    # the empty places are refilled
    table = board(t)
    assert table.motion.busy
    started = []
    table.motion.queue.step_started.connect(started.append)
    t.qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
    draws = table.motion.queue.played[before:]
    assert draws.count("draw") == 3 and started == draws[1:], draws
    agrees_with_the_engine(t)


def test_with_less_motion_the_end_state_is_drawn_at_once(game):
    t = game
    t.warrant("Julie/loot/top", "Julie/location/top")
    t.click("slot:Amberley/loot/bottom")
    table = board(t)
    assert not table.motion.busy and not table.motion.layer.flights
    assert table.motion.queue.played[-1] == "swap"
    agrees_with_the_engine(t)
    assert all(not c.held for c in t.window.findChildren(DrawnCard))
    t.roll("loot")                                                  # Amberley's turn
    assert not table.motion.busy and t.find("die").face() == (None, "\u25C6", "Loot")
    assert table.motion.queue.played[-1] == "roll"


def open_setup(t, players) -> None:
    """The new-game form filled in and started: the setup screen with its picture of the deal."""
    t.start_new_game(players, assist_index=None)
    assert t.window.stack.currentWidget() is t.window.setup


@pytest.mark.parametrize("size", [(1280, 680), (1366, 728), (1920, 1040)], ids=lambda s: f"{s[0]}")
def test_the_picture_of_the_deal_reads_from_across_the_room(table, size):
    """The setup screen's picture of the deal names each card's place and type at 15 px or more
    (it used to draw 11 pt words and scale the whole picture down to about 12 px)."""
    from tests.desktop.test_type_size import small_type
    t = table
    t.window.resize(*size)
    open_setup(t, PLAYERS + [("Dee", 6)])
    t.qtbot.wait(20)
    diagram = t.find("deal-diagram")
    words = [d.text for d in diagram.drawn_texts()]
    assert {"Top", "Bottom", "Henchman", "Center of the table (face down)", "4 cards"} <= set(words)
    assert [p for p in small_type(t.window.setup) if "deal-diagram" in p or "DealDiagram" in p] == []
    # Every card's words at one size, each inside its card.
    _, cards = diagram.items()
    card_px = {d.px for d in diagram.drawn_texts() if d.text in ("Top", "Bottom", "Loot", "Location", "Henchman")}
    assert len(card_px) == 1 and min(card_px) >= 15
    assert all(any(rect.contains(QRectF(d.rect)) for rect, *_ in cards)
               for d in diagram.drawn_texts() if d.text in ("Top", "Bottom"))


@pytest.mark.parametrize("players", [2, 4])
def test_the_center_cards_of_two_or_four_gumshoes_lie_side_by_side_with_their_piles(table, players):
    """Issue 29: beside two (or four) gumshoes the center's column shows each center card whole,
    its draw pile beside it (the three used to be drawn stacked over each other), under one
    heading, "Center of the table": no label says "Center" alone beside the gumshoes' Center row."""
    from PySide6.QtWidgets import QLabel

    t = table
    t.window.resize(1366, 728)
    t.new_game([("Ann", 9), ("Ben", 7), ("Cleo", 11), ("Dev", 13)][:players])
    t.qtbot.wait(20)
    centre = [t.find(f"slot:center/{k}") for k in ("loot", "location", "henchman")]
    rects = [c.geometry() for c in centre]
    assert rects[0].bottom() < rects[1].top() and rects[1].bottom() < rects[2].top(), rects
    assert all(c.exposed is None for c in centre)
    for kind, card in zip(("loot", "location", "henchman"), centre):
        pile = t.find(f"pile:{kind}")
        assert pile.x() >= card.geometry().right() and card.y() <= pile.geometry().center().y() <= card.geometry().bottom()
        assert [d.text for d in card.drawn_texts()][0] == t.window.controller.kind_name(kind)
        assert all(d.fits for d in card.drawn_texts()), card.drawn_texts()
    labels = [w.text() for w in board(t).findChildren(QLabel) if w.isVisible()]
    assert "Center of the table" in labels and "Center" not in labels


def test_a_failed_warrants_cards_go_back_face_down_with_their_names_on_a_label(game):
    """Issue 29: "The cards go back face down": the two cards are drawn face down again (their
    backs, in their type's colour), each with the name everyone saw on a light label in type a
    family reads across the table (their face used to stay drawn, its name in 15 px narrow type)."""
    from PySide6.QtGui import QColor

    from desktop.drawn.paint import FACE

    t = game
    t.window.resize(1366, 728)
    t.warrant("Julie/loot/top", "Julie/location/top")       # Gandhi's Glasses and London: no match
    t.qtbot.wait(20)
    for place, name in (("Julie/loot/top", "Gandhi's Glasses"), ("Julie/location/top", "London")):
        card = t.find(f"slot:{place}")
        words = {" ".join(d.text.split()): d.px for d in card.drawn_texts()}
        assert words.get(name, 0) >= 18 and words.get("Top", 0) >= 20, words
        # Off its name's label the card is its back (the type's colour), not a face's warm white.
        image = card.grab().toImage()
        rect = card.card_rect().toAlignedRect().adjusted(6, 6, -6, -6)
        plates = getattr(card.layout(), "plates", [])
        points = [(x, y) for x in range(rect.left(), rect.right(), 3) for y in range(rect.top(), rect.bottom(), 3)
                  if not any(plate.adjusted(-2, -2, 2, 2).contains(x, y) for plate in plates)]
        white = sum(1 for x, y in points if _near(QColor(image.pixel(x, y)), QColor(FACE)))
        assert white < 0.05 * len(points), f"{place}: {white} of {len(points)} points face-white"
        assert card.look.name is None and card.look.seen == name


def _near(a, b) -> bool:
    return abs(a.red() - b.red()) + abs(a.green() - b.green()) + abs(a.blue() - b.blue()) < 30
