"""The Bonnie and Clyde table, driven by clicks as a family would play it (cards picked on screen)."""

from __future__ import annotations

from contextlib import contextmanager

import pytest

from tests.desktop.conftest import long_only
from PySide6.QtCore import QPoint, Qt
from PySide6.QtGui import QFontInfo
from PySide6.QtWidgets import QAbstractButton, QLabel

from desktop.drawn import set_less_motion
from desktop.tables.bonnie_clyde import BonnieClydeTable
from tests.desktop.driver import visible_texts
from tests.desktop.in_sight import click_in_sight, why_not_in_sight
from tests.desktop.test_fit import fits

#: Bob is written first: he deals the first hand, and Ann, on his left, starts
PLAYERS = [("Bob", 9), ("Ann", 11)]
B, C = "bonnie-clyde.outlaw.bonnie-parker", "bonnie-clyde.outlaw.clyde-barrow"


def E(n: int, letter: str) -> str:
    return f"bonnie-clyde.evidence.location-{n}-{letter}"


def choose_game(t, game: str = "bonnie-clyde") -> None:
    t.choose_game(game)


def painted(t, name: str) -> list[str]:
    """The words painted on a drawn widget (a player's place at the table), one per piece of text."""
    return [drawn.text.replace("\n", " ") for drawn in t.find(name).drawn_texts()]


def laid_cards(t, player: str) -> list[tuple[str, bool]]:
    """The cards drawn in front of ``player``: the words on each, and whether it lies sideways."""
    _, cards, _ = t.find(f"bc:player:{player}").layout_parts()
    return [(words, sideways) for _, _, sideways, words in cards]


def car_stands_at(t, number: int) -> bool:
    """The car is drawn on the road at location ``number`` (the middle of the car on that sign's column)."""
    route = t.find("bc:route")
    sign = route.stops[number].geometry()
    return sign.left() <= route.car_rect().center().x() <= sign.right() and route.drive is None


@pytest.fixture
def game(table):
    choose_game(table)
    table.new_game(PLAYERS)
    assert isinstance(table.window.table.table, BonnieClydeTable)
    return table


def pick_cards(t, cards: list[str]) -> None:
    """The shell's list read on the shared screen: select the Evidence cards laid face up, then send."""
    assert t.window.stack.currentWidget() is t.window.flip_page
    t.window.entry.chooser("cards").clear()
    t.choose_cards("cards", cards)
    t.click("entry:submit")


def open_demo(t, qtbot, *, camera: bool = True):
    """A demo game on the simulated table (the demo fills in the players), its camera running."""
    choose_game(t)
    t.click("start:demo")
    t.click("new:start")
    t.click("setup:done")
    c = t.window.controller
    assert c.demo
    if camera:
        panel = t.window.camera_panel
        qtbot.waitUntil(lambda: panel.image.pixmap() is not None and not panel.image.pixmap().isNull(),
                        timeout=10_000)
    return c


def deal_by_picking(t, c) -> None:
    """The demo's deal, the first card of the FBI Files picked from the list."""
    t.click("action:deal")
    t.choose("card", c.true_card_at("files"))
    t.click("entry:submit")


def deal_and_draw(t) -> None:
    """Bob deals, Joplin (4) starts the FBI Files, Ann draws from the Case File."""
    t.click("action:deal")
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    t.click("action:draw")


def look(t, place: str, card: str) -> None:
    """The look under a location: the highlighted tile, then the privacy gate."""
    t.click(f"slot:{place}")
    assert t.window.stack.currentWidget() is t.window.gate
    t.click("gate:reveal")
    t.choose("card", card)
    t.click("entry:submit")


def shut_out_hand_by_clicks(t) -> None:
    """Bob deals; Ann captures Bonnie and Clyde with sideways melds, melds Joplin and goes out."""
    t.click("action:deal")
    t.choose("card", "bonnie-clyde.hinton.ted-hinton-15")
    t.click("entry:submit")
    assert t.text("turn") == "Ann's turn"
    assert "FBI Files" in " ".join(t.find("slot:files").text().split())
    t.click("action:draw")
    t.click("action:meld")
    pick_cards(t, [E(1, "a"), E(1, "b"), E(1, "c")])
    assert t.legal_slots() == {"board/1"}
    look(t, "board/1", B)
    assert any("captured her" in line for line in t.log())
    assert "car is on Sherman, Texas (2)" in t.text("bc:car") and car_stands_at(t, 2)
    assert "(empty)" in t.find("slot:board/1").text()           # Bonnie was taken from under Kaufman
    t.click("action:meld")
    pick_cards(t, [E(2, "a"), E(2, "b"), E(2, "c")])
    look(t, "board/2", C)
    t.click("action:meld")
    pick_cards(t, [E(3, "a"), E(3, "b"), E(3, "c"), E(3, "d")])
    look(t, "board/3", E(7, "f"))
    t.click("action:leave")
    # A meld that is not three cards of one location is refused in words and changes nothing.
    t.click("action:discard")
    t.choose("card", E(9, "a"))
    t.click("entry:submit")


def test_a_hand_by_clicks_ending_in_a_shut_out(game):
    """Setup and the Deal, a sideways meld capturing Bonnie, then Clyde, a meld left alone, going out:
    the hand is scored line by line and Bob is shut out (Scoring)."""
    t = game
    shut_out_hand_by_clicks(t)
    log = " ".join(t.log())
    assert "Ann: 10 sideways Evidence x 4 = 40" in log and "Bob: shut out" in log
    assert "Eastham" not in log                  # Ann's private look stays hers
    assert t.session.state.scores.totals() == {"Ann": 64, "Bob": 0}
    assert any("Total: 64" in words for words in painted(t, "bc:player:Ann"))
    assert any("Total: 0" in words for words in painted(t, "bc:player:Bob"))
    # Ann's melds lie in front of her: Kaufman's three cards sideways (the car was there), ...
    assert "Kaufman, Texas x3 sideways" in t.find("bc:player:Ann").text()
    assert laid_cards(t, "Ann").count(("1", True)) == 3
    assert laid_cards(t, "Ann").count(("3", True)) == 4 and laid_cards(t, "Bob") == []
    # ... and the outlaws she captured, by name.
    assert {"Bonnie Parker", "Clyde Barrow"} <= set(painted(t, "bc:player:Ann"))


@contextmanager
def motion_on():
    """The start screen's "Less motion" off for the block (the tests run with it on)."""
    set_less_motion(False)
    try:
        yield
    finally:
        set_less_motion(True)


def until_still(qtbot, table, timeout: int = 3000) -> None:
    """Waits until every movement on the table has played to its end."""
    qtbot.waitUntil(lambda: not table.motion.busy, timeout=timeout)


def meld_where_the_car_stands(t) -> None:
    """Bob deals, Ann draws and melds the Location the Crime Spree car is on (Kaufman, 1): the
    look under it is next, and the car moves on after it."""
    t.click("action:deal")
    t.choose("card", "bonnie-clyde.hinton.ted-hinton-15")
    t.click("entry:submit")
    t.click("action:draw")
    t.click("action:meld")
    pick_cards(t, [E(1, "a"), E(1, "b"), E(1, "c")])


def test_the_car_is_seen_driving_to_the_next_location(game, qtbot):
    """Play, a meld of the Location the Crime Spree Car is on, step 2: after the look, the car moves
    up 1 Location. Back at the table after the private look, the family sees it drive along the road
    from Kaufman (1) to Sherman (2) (one movement) and stop where the engine says it is."""
    t = game
    table = t.window.table.table
    route = t.find("bc:route")
    meld_where_the_car_stands(t)
    assert car_stands_at(t, 1)
    started: list[str] = []
    table.motion.step_started.connect(started.append)
    with motion_on():
        look(t, "board/1", B)
        # Bonnie, captured, flies from under Kaufman to Ann's row first; then the car drives.
        assert t.session.state.car == 2 and started == ["capture"] and table.motion.busy
        assert car_stands_at(t, 1)
        one, two = (route.stops[n].geometry().center().x() for n in (1, 2))
        qtbot.waitUntil(lambda: route.drive is not None and 0 < route.drive[2] < 1, timeout=3000)
        assert started == ["capture", "car"]
        assert route.drive[:2] == (1, 2) and one < route.car_rect().center().x() < two      # on its way
        until_still(qtbot, table)
        assert table.motion.played[-2:] == ["capture", "car"] and car_stands_at(t, 2)


def test_with_less_motion_the_car_is_at_once_where_it_goes(game):
    """The start screen's "Less motion": the car is drawn on its new location at once, nothing plays."""
    t = game
    table = t.window.table.table
    meld_where_the_car_stands(t)
    look(t, "board/1", B)
    assert t.session.state.car == 2 and not table.motion.busy and car_stands_at(t, 2)
    assert table.motion.played == ["draw", "meld", "capture", "car"]     # landed at once, not skipped
    assert laid_cards(t, "Ann") == [("1", True)] * 3 + [("", False)]     # the meld and Bonnie, drawn at once
    assert not table.flights.flights


def sent_in_flight(t, qtbot, action: str, cards: list[str]) -> list:
    """With motion on: ``action`` (a meld or a layoff) of ``cards`` is sent; returns the flights'
    rectangles seen on their way (the row keeps its old cards until they land)."""
    table = t.window.table.table
    t.click(f"action:{action}")
    pick_cards(t, cards)
    assert table.motion.busy
    qtbot.waitUntil(lambda: bool(table.flights.flights), timeout=2000)
    return [rect for _, rect in table.flights.flights.values()]


def test_a_meld_and_a_layoff_are_seen_flying_from_the_hand_to_the_row(game, qtbot):
    """Play, Evidence Cards: a meld (three cards of one location) and a layoff (one more card of a
    location melded) are laid face up in front of the player. With motion on, each card flies
    from the player's hand (their count) to its place in their row, one movement at a time, and
    the row shows the new cards only when they land, where the engine says they lie."""
    t = game
    table = t.window.table.table
    strip = t.find("bc:player:Ann")
    deal_and_draw(t)
    with motion_on():
        flying = sent_in_flight(t, qtbot, "meld", [E(1, "a"), E(1, "b"), E(1, "c")])
        assert len(flying) == 3 and laid_cards(t, "Ann") == []          # still in the air
        hand = strip.hand_rect(strip.card_size()).translated(strip.mapTo(table, QPoint(0, 0)).toPointF())
        ends = [r.translated(strip.mapTo(table, QPoint(0, 0)).toPointF()) for r in strip.landing_rects((1, True))]
        until_still(qtbot, table)
        assert table.motion.played == ["draw", "meld"] and not table.flights.flights     # the draw: from the Case File
        assert laid_cards(t, "Ann") == [("1", True)] * 3                # sideways: the car is on Kaufman
        assert all(hand.center().x() < end.center().x() for end in ends)   # they flew rightwards, to the row
        look(t, "board/1", B)
        until_still(qtbot, table, timeout=4000)
        assert table.motion.played == ["draw", "meld", "capture", "car"]
        # A layoff on Kaufman: one card, added to the meld when it lands.
        sent_in_flight(t, qtbot, "layoff", [E(1, "d")])
        assert ("1", False) not in laid_cards(t, "Ann")
        until_still(qtbot, table)
        assert table.motion.played[-1] == "layoff"
        # It lies normally (the car has driven on to Sherman), beside the sideways meld.
        placed = [c.place for c in t.window.controller.shared_view().cards if c.place.startswith("Ann/")]
        assert laid_cards(t, "Ann").count(("1", True)) == placed.count("Ann/sideways/1") == 3
        assert laid_cards(t, "Ann").count(("1", False)) == placed.count("Ann/played/1") == 1


def test_with_less_motion_a_meld_is_drawn_at_once(game):
    """The start screen's "Less motion": the meld is in front of the player at once, nothing flies."""
    t = game
    table = t.window.table.table
    deal_and_draw(t)
    t.click("action:meld")
    pick_cards(t, [E(1, "a"), E(1, "b"), E(1, "c")])
    assert not table.motion.busy and not table.flights.flights
    assert table.motion.played == ["draw", "meld"] and laid_cards(t, "Ann") == [("1", True)] * 3


def test_the_family_picks_who_deals_the_next_hand(game):
    """Scoring: "Begin each new hand with a new Setup"; Setup and the Deal, step 4: the dealer is
    chosen at random. After a hand the deal offers every player, the one on the last dealer's left
    first as a suggestion; the family picks another and play starts on that dealer's left."""
    t = game
    shut_out_hand_by_clicks(t)
    assert t.session.state.phase == "deal"
    t.click("action:deal")
    names = [b.objectName() for b in t.window.findChildren(QAbstractButton)
             if b.objectName().startswith("choose:") and b.isVisible()]
    assert names == ["choose:Ann", "choose:Bob"]
    assert t.find("choose:Ann").text() == "Ann (on Bob's left)" and t.find("choose:Bob").text() == "Bob"
    t.click("choose:Bob")                       # Bob deals again: the table chose him
    t.choose("card", E(5, "a"))
    t.click("entry:submit")
    assert t.session.state.hand_no == 2 and t.session.state.dealer == "Bob"
    assert t.text("turn") == "Ann's turn"
    assert any(line.startswith("Hand 2: Bob deals.") for line in t.log())


def test_a_refused_meld_is_explained_and_changes_nothing(game):
    """Play, Evidence Cards: a meld is three or more cards of the same location."""
    t = game
    t.click("action:deal")
    t.choose("card", "bonnie-clyde.hinton.ted-hinton-15")
    t.click("entry:submit")
    t.click("action:draw")
    before = t.session.view(None)
    t.click("action:meld")
    pick_cards(t, [E(1, "a"), E(2, "b"), E(3, "c")])
    assert t.session.view(None) == before
    assert t.text("entry-error").startswith("All the cards must show the same location.")
    assert t.visible("choose:cards")             # the cards stay on screen to pick again
    t.click("entry:cancel")
    assert t.window.stack.currentWidget() is t.window.table
    # Two cards are not a meld: the entry says so before anything is sent.
    t.click("action:meld")
    pick_cards(t, [E(1, "a"), E(1, "b")])
    assert t.text("entry-error") == "Choose 3 or more Evidence cards (now 2)."
    assert t.session.view(None) == before


def test_hinton_panel_can_be_cancelled(game):
    """Play, Ted Hinton: choosing what he does can be put off; nothing is played."""
    t = game
    deal_and_draw(t)
    before = t.session.view(None)
    t.click("action:hinton")
    assert t.visible("bc:use:draw") and t.visible("bc:player:Ann")   # the scores stay in sight (issue 29, 8)
    t.click("bc:cancel")
    assert not t.visible("bc:use:draw") and t.visible("bc:player:Ann")
    assert t.session.view(None) == before


@pytest.mark.parametrize("vertical", [False, True])
def test_every_screen_fits_a_laptop(table, vertical):
    """docs/desktop.md: the table fits 1280x680 and cuts no text, with four players."""
    t = table
    size = (1280, 680)
    t.window.resize(*size)
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(4)
    for i, name in enumerate(("Ann", "Bob", "Cyd", "Dee")):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(9 + i)
    t.click("new:start")
    fits(t, size, "setup", vertical=vertical)
    t.click("setup:done")
    fits(t, size, "table before the deal", vertical=vertical)
    t.click("action:deal")
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    t.click("action:draw")
    t.click("action:meld")
    fits(t, size, "the meld's cards", vertical=vertical)
    t.click("entry:cancel")
    t.click("action:hinton")
    fits(t, size, "what Ted Hinton does", vertical=vertical)


def test_long_options_fit_the_action_column_whole_at_24_px(table):
    """docs/desktop.md: with melds on two locations the options 'Lay off on a meld (...)', 'Meld three
    or more...' and 'Note cards of my hand...' are shown whole at 24 px on a 1280x680 laptop with four
    players: the column finds them room (its buttons get less padding, it widens if it must, the
    last ones go behind "More actions…") rather than cutting a line, shrinking the type or scrolling."""
    t = table
    size = (1280, 680)
    t.window.resize(*size)
    choose_game(t)
    t.new_game([("Ann", 9), ("Bob", 10), ("Cyd", 11), ("Dee", 12)])
    t.click("action:deal")
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    t.click("action:draw")
    for number, under in ((1, E(7, "a")), (2, E(7, "b"))):
        t.click("action:meld")
        pick_cards(t, [E(number, "a"), E(number, "b"), E(number, "c")])
        look(t, f"board/{number}", under)
        t.click("action:leave")
    fits(t, size, "five options, two of them long")
    screen = t.window.table
    column = [b for b in screen.findChildren(QAbstractButton) if b.objectName().startswith("action:") and b.isVisible()]
    if t.visible("action:more"):          # the last ones wait behind "More actions…" (issue 28)
        click_in_sight(t.find("action:more"))
        column += [b for b in screen.more_panel.buttons if b.isVisible()]
    assert all(why_not_in_sight(b) == "" for b in column)
    shown = {b.objectName(): " ".join(b.text().split()) for b in column}
    assert shown["action:layoff"] == "Lay off on a meld (Kaufman, Texas, Sherman, Texas)"
    assert shown["action:meld"] == "Meld three or more Evidence of one location"
    assert shown["action:note_hand"] == "Note cards of my hand in my journal (privately)"
    assert all(QFontInfo(b.font()).pixelSize() >= 24 for b in column)


def test_ted_hinton_look_by_clicks(game):
    """Play, Ted Hinton: look under any location (behind the privacy gate) and leave the card. The
    location is chosen on the board: after "Look under a location" the locations he may look under
    glow, and the players' lines stay in sight (issue 29, 8: no drop-down, nothing cut)."""
    t = game
    deal_and_draw(t)
    t.click("action:hinton")
    assert all(t.visible(f"bc:player:{p}") for p in t.session.players)
    t.click("bc:use:look")
    assert "click the location Ted Hinton looks under" in t.text("bc:panel-title")
    assert t.legal_slots() >= {"board/10"}
    click_in_sight(t.find("slot:board/10"))
    t.choose("card", "bonnie-clyde.hinton.ted-hinton-03")
    t.click("entry:submit")
    look(t, "board/10", C)
    t.click("action:leave")
    log = " ".join(t.log())
    assert "Ann played Ted Hinton to look at the card under Gibson, Louisiana (10)." in log
    assert "Clyde Barrow" not in log
    # A privacy walk of the shared screen: no visible word anywhere names what Ann saw.
    assert t.window.stack.currentWidget() is t.window.table
    shown = [w.text() for cls in (QLabel, QAbstractButton) for w in t.window.findChildren(cls) if w.isVisible()]
    shown += t.log() + [t.find("slot:board/10").accessibleName()] + visible_texts(t.window)
    assert shown and not [text for text in shown if "Clyde Barrow" in text]
    assert t.session.journal("Ann", "full").where(C) == "Under Gibson, Louisiana (10)"
    assert t.session.journal("Bob", "full").where(C) == "Unknown"


def test_face_up_cards_read_by_the_simulated_camera(table, qtbot):
    """A demo game on the simulated table: the first card of the FBI Files and every discard are read
    through the real vision pipeline (synthetic frames, detector, tracker), and each journal follows;
    the look under the car's location after a meld is read by the camera behind the privacy gate."""
    t = table
    c = open_demo(t, qtbot)
    panel = t.window.camera_panel
    seen: list[str] = []
    panel.card_seen.connect(seen.append)

    def by_camera() -> None:
        before = len(seen)
        t.click("entry:camera")
        qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table and len(seen) > before,
                        timeout=15_000)

    t.click("action:deal")
    first = c.true_card_at("files")
    by_camera()
    assert seen[-1] == first and t.session.journal(t.session.players[0]).where(first) == "FBI Files"
    for _ in range(4):                            # two turns each: draw, discard the card shown
        player = t.session.current
        t.click("action:draw")
        t.click("action:discard")
        card = c.true_card_at(f"{player}/hand")
        by_camera()
        assert seen[-1] == card
        assert t.session.journal(t.session.current).where(card) == "FBI Files"
        assert any(line == f"{player} discarded {c.deck.name_of(card)}." for line in t.log())
    assert t.session.state.moves == 1 + 4 * 2
    # Turns go on until a player's simulated hand holds a meld; the meld is laid face up in front of
    # the camera (the shell's list read), then the look under its location is read privately.
    rules = t.session.rules
    for _ in range(40):
        player = t.session.current
        t.click("action:draw")
        hand = c.true_cards_in(f"{player}/hand")
        groups: dict[int, list[str]] = {}
        for card in hand:
            if rules.kind_of(card) == "evidence":
                groups.setdefault(rules.location_of[card], []).append(card)
        meld = next((cards[:3] for cards in groups.values() if len(cards) >= 3), None)
        if meld and len(hand) > 3:
            break
        t.click("action:discard")
        by_camera()
    else:
        pytest.fail("no simulated hand held a meld in 40 turns")
    number = rules.location_of[meld[0]]
    under = c.true_card_at(f"board/{number}")
    car_there = t.session.state.car == number        # the meld moves the car on
    t.click("action:meld")
    chooser = t.window.entry.chooser("cards")
    t.click("entry:camera")
    qtbot.waitUntil(lambda: len(chooser.cards()) == 3, timeout=15_000)
    assert sorted(chooser.cards()) == sorted(meld) and sorted(seen[-3:]) == sorted(meld)
    t.click("entry:submit")
    assert t.window.stack.currentWidget() is t.window.table
    assert all(t.session.journal(p).where(card) != "Unknown" for p in t.session.players for card in meld)
    t.click(f"slot:board/{number}")
    t.click("gate:reveal")
    by_camera()
    assert seen[-1] == under
    assert t.session.journal(player).where(under) != "Unknown"
    other = next(p for p in t.session.players if p != player)
    captured = under in (B, C) and car_there
    assert (t.session.journal(other).where(under) != "Unknown") == captured


def test_a_wrong_meld_pick_on_the_simulated_table_is_refused(table, qtbot):
    """Demo mode: the simulated hand is known, so a meld of cards that are not in it is a slip:
    refused in words, nothing changes (docs/desktop.md, card entry)."""
    t = table
    c = open_demo(t, qtbot, camera=False)
    deal_by_picking(t, c)
    player = t.session.current
    t.click("action:draw")
    hand = set(c.true_cards_in(f"{player}/hand"))
    absent = next(n for n in range(1, 11) if not {E(n, x) for x in "abc"} & hand)
    before = t.session.view(None)
    t.click("action:meld")
    pick_cards(t, [E(absent, x) for x in "abc"])
    assert f"that card is not in {player}'s hand on the simulated table" in t.text("entry-error")
    assert t.session.view(None) == before


def test_noting_a_hand_is_a_private_list_read_by_the_camera(table, qtbot):
    """What the app knows: a player may note their own hand in their journal (it counts in their
    odds). Behind the privacy gate, the camera reads the cards one after another; only that
    player's journal learns them and the shared screen names none."""
    t = table
    c = open_demo(t, qtbot)
    deal_by_picking(t, c)
    player = t.session.current
    hand = c.true_cards_in(f"{player}/hand")
    t.click("action:note_hand")
    assert t.window.stack.currentWidget() is t.window.gate
    t.click("gate:reveal")
    chooser = t.window.entry.chooser("cards")
    t.click("entry:camera")
    qtbot.waitUntil(lambda: len(chooser.cards()) == len(hand), timeout=20_000)
    assert sorted(chooser.cards()) == sorted(hand)
    t.click("entry:submit")
    qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table, timeout=5_000)
    other = next(p for p in t.session.players if p != player)
    assert all(t.session.journal(player).where(card) != "Unknown" for card in hand)
    assert all(t.session.journal(other).where(card) == "Unknown" for card in hand)
    # The shared view (all the shared screen draws) and the log name no card of the hand.
    assert all(v.name is None for v in t.session.view(None).cards if v.place == f"{player}/hand")
    public_log = t.log()
    assert not [line for line in public_log if any(c.deck.name_of(card) in line for card in hand)
                and "FBI Files" not in line and "turned up" not in line]


def test_a_whole_hand_read_by_the_simulated_camera(table, qtbot):
    """A demo hand from the deal to the scoring in which every face-up card (the first of the FBI
    Files, melds, discards) and every private look is read by the simulated camera through the real
    vision pipeline: nothing is picked from a list. The hand ends by going out or when the Case File
    runs out (Ending a Hand), and its scoring is on the table."""
    t = table
    c = open_demo(t, qtbot)
    rules = t.session.rules
    panel = t.window.camera_panel
    seen: list[str] = []
    panel.card_seen.connect(seen.append)

    def by_camera(until) -> None:
        before = len(seen)
        t.click("entry:camera")
        qtbot.waitUntil(lambda: len(seen) > before and until(), timeout=15_000)

    def on_table() -> bool:
        return t.window.stack.currentWidget() is t.window.table

    t.click("action:deal")
    by_camera(on_table)
    reads = melds = 0
    for _ in range(400):
        state = t.session.state
        if state.hand_no > 1 or state.phase == "deal" or t.session.outcome is not None:
            break
        names = {o.action for o in t.session.prompt().options}
        player = t.session.current
        if "look" in names:
            t.click(f"slot:board/{state.pending['location']}")
            t.click("gate:reveal")
            by_camera(on_table)
        elif {"take", "leave"} <= names:
            before = t.session.state.moves
            t.click("action:leave")
            if t.session.state.moves == before:          # Bonnie or Clyde under the car: taken
                t.click("action:take")
        elif "move_car" in names:
            t.click("action:move_car")
            t.click("choose:up" if state.car < 10 else "choose:down")
        elif "take_file" in names:
            t.click("action:take_file")
            t.click("gate:reveal")
            by_camera(on_table)
        elif "draw" in names:
            t.click("action:draw")
        elif "take_discard" in names:
            t.click("action:take_discard")
            if not on_table():
                by_camera(on_table)
        else:                                             # play: a meld if the hand holds one, then discard
            hand = c.true_cards_in(f"{player}/hand")
            groups: dict[int, list[str]] = {}
            for card in hand:
                if rules.kind_of(card) == "evidence":
                    groups.setdefault(rules.location_of[card], []).append(card)
            if len(hand) > 3 and any(len(g) >= 3 for g in groups.values()):
                t.click("action:meld")
                chooser = t.window.entry.chooser("cards")
                t.click("entry:camera")
                qtbot.waitUntil(lambda: len(chooser.cards()) == 3, timeout=15_000)
                t.click("entry:submit")
                melds += 1
                continue
            t.click("action:discard")
            by_camera(lambda: t.session.state.moves > state.moves)
        reads += 1
    assert t.session.state.hand_no == 1 and t.session.state.phase == "deal" or t.session.outcome is not None
    assert melds >= 1
    log = " ".join(t.log())
    assert "Hand 1 is over" in log and "Total: " in log
    assert sum(t.session.state.scores.totals().values()) > 0
    assert reads > 20                                     # a whole hand, not a few turns


def test_a_meld_picks_alike_cards_from_one_line_counted(game):
    """Six identical Kaufman cards are one line, "Kaufman, Texas \u00d76": each click on it takes one more
    (the line says how many), "Take the last card back" takes one back, and a click on a line whose
    cards are all chosen takes them all back."""
    from desktop.card_entry import COPIES
    from tests.desktop.in_sight import click_in_sight

    t = game
    deal_and_draw(t)
    t.click("action:meld")
    lst = t.find("choose:cards")
    kaufman = [lst.item(r) for r in range(lst.count()) if E(1, "a") in lst.item(r).data(COPIES)]
    assert len(kaufman) == 1 and kaufman[0].text() == "Kaufman, Texas \u00d76"
    assert sum(1 for r in range(lst.count()) if lst.item(r).text().startswith("Kaufman")) == 1
    for _ in range(3):
        t.choose("cards", E(1, "a"))
    chooser = t.window.entry.chooser("cards")
    assert len(chooser.cards()) == 3 and {t.name(c) for c in chooser.cards()} == {"Kaufman, Texas"}
    assert kaufman[0].text() == "\u2714 Kaufman, Texas \u00d76 \u2014 3 chosen"
    assert t.text("status:cards").startswith("3 of 3 or more chosen: Kaufman, Texas \u00d73")
    click_in_sight(t.find("undo:cards"))
    assert len(chooser.cards()) == 2 and kaufman[0].text().endswith("2 chosen")
    for _ in range(4):
        t.choose("cards", E(1, "a"))
    assert len(chooser.cards()) == 6 and kaufman[0].text().endswith("6 chosen")
    t.choose("cards", E(1, "a"))                   # all six chosen: a click takes them back
    assert chooser.cards() == [] and kaufman[0].text() == "Kaufman, Texas \u00d76"


def journal_cells(t) -> dict[str, list[list[str]]]:
    """The open journal's tables by name: the header, then each row, as a person reads them."""
    from PySide6.QtWidgets import QTableWidget, QWidget
    journal = t.window.findChild(QWidget, "journal")
    tables = {}
    for table in journal.findChildren(QTableWidget):
        if table.isVisible():
            rows = [[table.horizontalHeaderItem(c).text() for c in range(table.columnCount())]]
            rows += [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]
            tables[table.objectName()] = rows
    return tables


def test_the_journal_is_a_notebook_of_locations_in_the_game_s_words(game):
    """Issue 29, 7: the Evidence Journal reads as a detective's notebook: a row per location of the
    road with where its six Evidence cards are (alike cards counted, never the tags' ids such as
    "location-1-b") and what lies under it; then Bonnie, Clyde and the Ted Hinton cards counted.
    Setup and the Deal: the first card of the FBI Files is seen by everyone; Play: the look."""
    t = game
    meld_where_the_car_stands(t)
    look(t, "board/1", B)
    t.click("journal:Ann")
    t.click("gate:reveal")
    tables = journal_cells(t)
    locations, others = tables["journal:locations"], tables["journal:others"]
    assert locations[0] == ["Location", "Its Evidence cards", "Under it"]
    assert locations[1] == ["1 Kaufman, Texas", "Ann's table, sideways \u00d73; 3 not seen yet",
                            "Bonnie Parker (you saw it on turn 1), captured by Ann."]
    assert [row[0] for row in locations[1:]] == [f"{n} {t.session.rules.board.name(n)}" for n in range(1, 11)]
    assert locations[2][1:] == ["6 not seen yet", "Unseen."]
    assert others[1:] == [["Bonnie Parker", "Ann's table (captured)"], ["Clyde Barrow", "Unknown"],
                          ["Ted Hinton", "FBI Files"], ["Ted Hinton \u00d714", "Unknown"]]
    ids = {card.split(".", 2)[-1] for card in t.session.rules.deck.cards}
    words = " ".join(cell for rows in tables.values() for row in rows for cell in row)
    assert ids and not [i for i in ids if i in words]
    assert "Tag" not in words


@pytest.mark.parametrize("players, per, casefile", [(PLAYERS, 10, 46),
                                                    ([("Ann", 9), ("Bob", 10), ("Cyd", 11), ("Dee", 12)], 8, 34)])
def test_the_setup_is_a_picture_of_the_deal_and_the_table_does_not_ask_who_deals(table, players, per, casefile):
    """Setup and the Deal, steps 1-5 (issue 29, 8): the setup screen draws the board with a card under
    each of the ten locations and the car on Kaufman, Texas, each player's hand with the number of
    cards to deal (10, 9, 8 for 2, 3, 4 players), the Case File and the FBI Files; it says who deals
    (the player written first: docs/rules/bonnie-clyde.md), and the table then deals with that dealer
    without asking "who deals" again. Every word of the picture is 15 px or more on a laptop."""
    from tests.desktop.test_type_size import small_type
    t = table
    t.window.resize(1280, 680)
    choose_game(t)
    t.start_new_game(players)
    dealer, left = players[0][0], players[1][0]
    assert f"{dealer} deals the first hand." in t.text("setup:text")
    picture = t.find("bc:setup")
    assert len(picture.road.stops) == 10 and all(stop.present for stop in picture.road.stops.values())
    assert picture.road.car == 1
    fans = [fan.text() for fan in picture.fans]
    assert fans[0] == f"{left}: {per} cards, dealt first" and f"{dealer}: {per} cards, deals" in fans
    assert len(fans) == len(players)
    words = t.text("bc:setup:words")
    assert f"{dealer} shuffles the rest and deals {per} cards to each player" in words
    assert f"The other {casefile} are the Case File." in words and "Take 8 cards at random" in words
    assert f"{casefile} cards" in t.find("bc:setup:casefile").text()
    fits(t, (1280, 680), "the setup picture")
    assert small_type(t.window.setup) == []
    t.click("setup:done")
    t.click("action:deal")
    assert t.window.stack.currentWidget() is t.window.flip_page           # no "Pick who deals"
    assert not [b for b in t.window.findChildren(QAbstractButton)
                if b.objectName() in {f"choose:{p}" for p, _ in players} and b.isVisible()]
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    assert t.session.state.dealer == dealer and t.text("turn") == f"{left}'s turn"
    assert any(line.startswith(f"Hand 1: {dealer} deals.") for line in t.log())


def test_a_layoff_is_seen_moving_frame_by_frame_and_lands_where_the_row_draws_it(game, qtbot):
    """Play, Evidence Cards (issue 29, 8): a layoff's card is laid face up in front of the player. With
    motion on, frame after frame the card is drawn at a new place on its way from the hand's count
    towards the row, and it lands on the very rectangle where the row then draws it; the meld before
    it did the same (its three cards end on the meld's three rectangles)."""
    t = game
    table = t.window.table.table
    strip = t.find("bc:player:Ann")
    origin = strip.mapTo(table, QPoint(0, 0)).toPointF()
    deal_and_draw(t)

    def frames(action: str, cards: list[str]) -> list[list]:
        """The flights' rectangles, one list a frame, from the first frame to the landing."""
        seen: list[list] = []
        t.click(f"action:{action}")
        pick_cards(t, cards)
        while table.motion.busy:
            rects = [rect for _, rect in table.flights.flights.values()]
            if rects and (not seen or rects != seen[-1]):
                seen.append(rects)
            qtbot.wait(10)
        return seen

    with motion_on():
        meld = frames("meld", [E(1, "a"), E(1, "b"), E(1, "c")])
        assert len(meld) >= 5 and all(len(rects) == 3 for rects in meld)
        ends = [r.translated(origin) for r in strip.landing_rects((1, True))]
        drawn = [rect.translated(origin) for rect, *_ in strip.layout_parts()[1]]
        assert drawn == ends                                     # the row draws them where they landed
        assert all(abs(a.center().x() - b.center().x()) < 6 and abs(a.center().y() - b.center().y()) < 30
                   for a, b in zip(meld[-1], ends))              # the last frame: at (or over) their place
        look(t, "board/1", B)
        qtbot.waitUntil(lambda: not table.motion.busy, timeout=5000)
        layoff = frames("layoff", [E(1, "d")])
    xs = [rects[0].center().x() for rects in layoff]
    assert len(layoff) >= 5 and len(set(xs)) >= 5                # seen at five places at least, ...
    assert all(b >= a for a, b in zip(xs, xs[1:]))               # ... each further on its way to the row
    landed = strip.landing_rects((1, False))[-1].translated(origin)
    assert abs(xs[-1] - landed.center().x()) < abs(xs[0] - landed.center().x()) / 4
    assert laid_cards(t, "Ann").count(("1", False)) == 1
    assert [rect.translated(origin) for rect, _, side, words in strip.layout_parts()[1]
            if words == "1" and not side] == [landed]


@pytest.mark.parametrize("size", [(1280, 680), pytest.param((1366, 728), marks=long_only)])
def test_no_word_under_15_px_over_a_whole_demo_game(window, qtbot, size):
    """A whole demo game on a 1366x768 laptop (less its taskbar), and on the least screen the app
    fits (1280x680), with four players, the table looked at after every move: nothing a family reads
    (the road's signs, the card faces and the names on the melds, the captured outlaws' names, the
    players' rows, the piles, the prompt, the actions) is under 15 px, and the prompt, the current
    player and the choices (a location's sign that can be clicked) are 24 px or more."""
    from tests.desktop.driver import open_demo_table, play_on
    from tests.desktop.test_type_size import small_type
    window.resize(*size)
    open_demo_table(window, qtbot, "bonnie-clyde", ["Ann", "Bob", "Cyd", "Bartholomew Montgomery-J"])
    qtbot.wait(50)
    problems = [f"before the deal: {p}" for p in small_type(window.table)]
    moves = 0
    for moves in play_on(window, 5000):
        qtbot.wait(1)
        problems += [f"move {moves} ({window.controller.session.done[-1].type}): {p}"
                     for p in small_type(window.table)]
    assert window.controller.session.outcome is not None and moves > 100
    assert problems == [], problems[:10]


def test_the_new_game_form_says_the_player_written_first_deals(table):
    """Setup and the Deal, step 4: the dealer is chosen at random at the table; the family writes that
    player first, as the new-game form says (docs/rules/bonnie-clyde.md), not "the youngest goes first"."""
    t = table
    choose_game(t)
    t.click("start:new")
    t.find("new:count").setValue(3)
    for i, (name, age) in enumerate((("Cyd", 12), ("Ann", 9), ("Bob", 10))):
        t.find(f"new:name{i}").setText(name)
        t.find(f"new:age{i}").setValue(age)
    assert t.text("new:first") == "Cyd deals the first hand (write the dealer first); the player on their left starts."


def test_a_first_meld_flies_to_a_row_that_no_longer_says_it_is_empty_and_lands_with_its_name(game, qtbot):
    """Play, Evidence Cards: a player's first meld, seen flying to their row (motion on). While the
    cards are on their way, the row no longer says "nothing on the table yet" under them; once they
    land, the meld's top card names its location (the rulebook's cards show it), not just its number."""
    t = game
    table = t.window.table.table
    deal_and_draw(t)
    assert "nothing on the table yet" in painted(t, "bc:player:Ann")
    with motion_on():
        sent_in_flight(t, qtbot, "meld", [E(1, "a"), E(1, "b"), E(1, "c")])
        assert laid_cards(t, "Ann") == []                                # still in the air, ...
        assert "nothing on the table yet" not in painted(t, "bc:player:Ann")   # ... and no words under them
        until_still(qtbot, table)
    words = painted(t, "bc:player:Ann")
    assert "Kaufman, Texas" in words and "nothing on the table yet" not in words
    assert "nothing on the table yet" in painted(t, "bc:player:Bob")


def test_each_pile_has_one_name_the_rulebook_s(game):
    """Setup and the Deal: "Case File (draw pile)" and "FBI Files (discard pile)": each pile shows its
    one name, not a second word for it on a band ("Discards", "Draw pile")."""
    t = game
    deal_and_draw(t)
    for slot, name, other in (("slot:casefile", "Case File", "Draw pile"), ("slot:files", "FBI Files", "Discards")):
        words = " ".join(t.find(slot).text().split())
        assert name in words and other not in words, words


def board_rects(t) -> dict[str, tuple]:
    """Where the road, each location's sign and each player's row are in the window."""
    table = t.window.table.table
    widgets = {"road": table.route, **{f"sign {n}": s for n, s in table.route.stops.items()},
               **{f"row {p}": s for p, s in table.players.items()}}
    out = {}
    for name, w in widgets.items():
        at = w.mapTo(t.window, QPoint(0, 0))
        out[name] = (at.x(), at.y(), w.width(), w.height())
    return out


@pytest.mark.parametrize("size, players", [((1366, 728), PLAYERS),
                                           ((1280, 680), [("Bob", 9), ("Ann", 11), ("Cyd", 10), ("Dee", 12)])])
def test_the_road_and_the_rows_keep_their_place_when_ted_hinton_s_panel_opens(table, size, players):
    """Play, Ted Hinton: his panel opens (and closes) where the line under the road was; the road, its
    signs and the players' rows keep their place and size, so nothing a family looks at jumps."""
    t = table
    t.window.resize(*size)
    choose_game(t)
    t.new_game(players)
    t.click("action:deal")
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    t.click("action:draw")
    before = board_rects(t)
    t.click("action:hinton")
    assert t.visible("bc:use:draw")
    assert board_rects(t) == before
    t.click("bc:use:look")                           # the signs he may look under glow: still in place
    assert board_rects(t) == before
    t.click("bc:cancel")
    assert not t.visible("bc:use:draw") and board_rects(t) == before
