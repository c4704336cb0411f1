"""Where in the USA is Carmen Sandiego at the table, driven by clicks as a family would play it.

A whole game: pieces placed, questions read and marked (right, wrong, a back-up agent's pass,
a choice tapped), private looks behind the privacy gate, an accusation whose cards are flipped
for everyone, then the Catch Carmen finale against the countdown (a fake clock). Also: the
countdown running out, the simulated camera reading the cards, and the fit on a laptop screen.
"""

from __future__ import annotations

import pytest
from PySide6.QtCore import Qt
from PySide6.QtGui import QColor, QFont, QFontMetrics
from PySide6.QtWidgets import QAbstractButton, QListWidget

from desktop.drawn import set_less_motion
from desktop.drawn.text import app_family, font
from desktop.tables.carmen_usa import CarmenUsaTable, MapDataError, load_map
from tests.desktop.driver import visible_texts
from tests.desktop.in_sight import click_in_sight
from tests.desktop.test_fit import fits

PLAYERS = [("Ann", 7), ("Bob", 9), ("Cy", 11)]
# Landmark -> card in its box (the rest of the deal does not matter here).
DEAL = {"denali": "warrant.orange-warrant", "liberty-bell": "loot.orange-loot", "arches": "crook.orange-crook",
        "mount-rainier": "warrant.purple-warrant", "carlsbad-caverns": "crook.purple-crook"}


def choose_game(t, game: str = "carmen-usa") -> None:
    t.choose_game(game)


def deal_boxes(t) -> None:
    """The physical deal chosen by the test: DEAL, then the other cards in deck order."""
    state = t.session.state
    rules = t.session.rules
    wanted = {state.boxes[lm]: f"carmen-usa.{card}" for lm, card in DEAL.items()}
    spare = [c.id for c in rules.clues if c.id not in wanted.values()]
    others = [state.boxes[lm] for lm in rules.board.ids if state.boxes[lm] not in wanted]
    t.truth.update(wanted)
    t.truth.update(zip(others, spare))
    capitals = sorted(state.table.tokens_where(kind="capital"))
    t.truth.update(zip(capitals, sorted(c.id for c in state.deck.of_kind("capital"))))
    if t.window.controller.simulator is not None:
        from engine.sim import Truth
        t.window.controller.simulator.truth = Truth(dict(t.truth))


@pytest.fixture
def game(table):
    choose_game(table)
    table.new_game(PLAYERS)
    assert isinstance(table.window.table.table, CarmenUsaTable)
    deal_boxes(table)
    return table


def press(t, name: str, text: str | None = None) -> None:
    """Click the button ``name`` (of several options of one action, ``name:2``..., the one whose text
    contains ``text``), where a person would: whole in sight, or behind "More actions…"."""
    def named(b) -> bool:
        return ((b.objectName() == name or b.objectName().startswith(name + ":"))
                and (text is None or text in " ".join(b.text().split())))

    buttons = [b for b in t.window.findChildren(QAbstractButton) if b.isVisible() and named(b)]
    if not buttons and any(named(b) for b in t.window.table._behind):
        click_in_sight(t.find("action:more"))
        buttons = [b for b in t.window.table.more_panel.buttons if named(b)]
    assert buttons, f"no visible button {name!r} with {text!r}"
    assert buttons[0].isEnabled()
    click_in_sight(buttons[0])


def ask(t) -> str:
    press(t, "action:ask")
    question = t.session.rules.bank.question(t.session.state.question)
    card = t.find("usa:question")
    assert card.isVisible() and " ".join(card.drawn_texts()[1].text.split()) == question.text
    return question.text


def look(t, landmark: str) -> None:
    t.click(f"slot:{landmark}")
    assert t.window.stack.currentWidget() is t.window.gate
    t.click("gate:reveal")
    t.choose("card", t.card_at(f"box/{landmark}"))
    t.click("entry:submit")


def move(t, landmark: str) -> None:
    press(t, "action:move")
    assert landmark in t.legal_slots() or landmark == "none"
    if landmark == "none":
        t.click("choose:none")
    else:
        t.click(f"slot:{landmark}")


def flip(t, place_click: str, place: str) -> None:
    t.click(f"slot:{place_click}")
    assert t.window.stack.currentWidget() is t.window.flip_page
    t.choose("card", t.card_at(place))
    t.click("entry:submit")


def tile(t, name: str) -> str:
    return " ".join(t.find(name).text().split())


class FakeClock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def to_the_finale(t) -> None:
    """Pieces, a look at a Warrant, a back-up's pass and a tapped choice, a look at a Loot, an accusation."""
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    assert tile(t, "slot:big-bend") == "Big Bend \u25CF Ann"
    # Cy (on Ann's right) reads to Ann; Ann answers right without the choices: up to 5 spaces.
    question = ask(t)
    assert question and t.text("turn") == "Ann's turn"
    press(t, "action:answer", "Right answer")
    assert "up to 5 spaces" in t.prompt
    move(t, "denali")
    look(t, "denali")                               # the orange Warrant: face up for everyone
    to_the_finale_after_denali(t)


def to_the_finale_after_denali(t) -> None:
    """From Ann's look at the orange Warrant at Denali on: a back-up's pass, a tapped choice, the Loot, the accusation."""
    assert "Orange Warrant" in tile(t, "slot:denali")
    # Ann reads to Bob; Bob answers wrong; Cy is the back-up and passes; Bob reads Cy a new question.
    ask(t)
    press(t, "action:answer", "Wrong answer")
    assert t.text("turn") == "Bob's turn \u2014 Cy to act"
    press(t, "action:pass")
    ask(t)
    press(t, "action:choices")                        # Cy hears the choices and taps the right one
    q = t.session.rules.bank.question(t.session.state.question)
    # Reading and Answering Questions: "the reader reads the three choices below the question".
    shown = [" ".join(b.text().split()) for b in t.window.findChildren(QAbstractButton)
             if b.objectName().startswith("usa:choice") and b.isVisible()]
    assert shown == [f"{letter}: {option}" for letter, option in zip("ABC", q.options)] and len(shown) == 3
    press(t, f"usa:choice{q.options.index(q.answer)}")
    assert "up to 3 spaces" in t.prompt
    move(t, "liberty-bell")
    look(t, "liberty-bell")                         # the orange Loot, face up
    # Cy reads to Ann; right answer; Ann accuses from Denali instead of moving.
    ask(t)
    press(t, "action:answer", "Right answer")
    press(t, "action:accuse")
    t.click("slot:liberty-bell")                    # the orange Loot lies face up: known, never asked for again
    assert t.window.stack.currentWidget() is t.window.table
    assert "It matches" in t.banner
    flip(t, "arches", "box/arches")                 # the orange Crook, shown to everyone
    assert "true accusation" in " ".join(t.log())


def start_the_clock(t):
    """Play on to Catching Carmen, draw the capitals and start the countdown on a fake clock:
    the table and its clock."""
    to_the_finale(t)
    table = t.window.table.table
    clock = FakeClock()
    table.countdown.time_source = clock
    for _ in range(3):
        press(t, "action:draw_capitals")
    press(t, "action:start_clock")                  # Cy, the oldest
    return table, clock


def check_token(t, right: bool = True) -> None:
    """The check after "All placed!": a token turned over where it lies (its capital read on the flip
    page), its capital shown on the rack, then the state it lies on tapped on the drawn map."""
    token = sorted(t.legal_slots())[0]
    assert "/capital/" in token
    t.click(f"slot:{token}")
    assert t.window.stack.currentWidget() is t.window.flip_page
    card = t.card_at(token)
    t.choose("card", card)
    t.click("entry:submit")
    capital = t.session.rules.card_name(card)
    assert t.window.stack.currentWidget() is t.window.table
    assert capital in t.find(f"slot:{token}").accessibleName()          # the token's capital shown
    assert capital in t.prompt and sorted(t.legal_slots()) == sorted(t.session.rules.state_names)
    state = t.session.rules.state_of[card]
    t.click(f"slot:{state if right else ('AK' if state != 'AK' else 'HI')}")


def test_a_whole_game_by_clicks_to_carmen_caught(game):
    """Catching Carmen: the clock times the real tokens being placed (nothing to type meanwhile); the
    big "All placed!" stops it; then every token is checked at the family's pace: Carmen is caught."""
    t = game
    table, clock = start_the_clock(t)
    assert t.text("usa:countdown") == "Time left: 35 s"
    offered = {b.objectName() for b in t.window.findChildren(QAbstractButton)
               if b.isVisible() and b.objectName().startswith("action:")}
    assert offered <= {"action:all_placed", "action:more"}, offered
    assert not t.legal_slots()                                  # no token, no state to choose on the clock
    big = t.find("usa:all-placed")
    assert big.isVisible() and big.height() >= 48 and big.font().pixelSize() >= 24
    clock.now += 20
    table.countdown.update_clock()
    click_in_sight(big)
    assert not table.countdown.running and t.session.state.phase == "finale_check"
    clock.now += 100                                            # no hurry now
    table.countdown.update_clock()
    assert t.session.outcome is None
    holder = t.session.prompt().player
    assert table.finale.names[holder].accessibleName() == f"{holder} \u25C0 playing now"
    checked = 0
    while t.session.outcome is None:
        check_token(t)
        checked += 1
    assert checked == 9
    assert "caught Carmen" in t.session.outcome.reason
    assert t.session.outcome.winners == ("Ann",)


def test_a_token_on_the_wrong_state_at_the_check_lets_carmen_escape(game):
    """Catching Carmen: "correctly place all the tokens": a token found on another state's place at the
    check is marked (a cross on that state) and, once all are checked, Carmen escapes."""
    t = game
    table, _ = start_the_clock(t)
    click_in_sight(t.find("usa:all-placed"))
    check_token(t, right=False)
    assert t.session.outcome is None and "\u2718" in t.find("slot:AK").text()
    while t.session.outcome is None:
        check_token(t)
    assert "escaped" in t.session.outcome.reason


def test_the_countdown_running_out_lets_carmen_escape(game):
    """Catching Carmen: time runs out before every token is placed: Carmen escapes."""
    t = game
    table, clock = start_the_clock(t)
    clock.now += 36
    table.countdown.update_clock()
    assert t.session.outcome is not None and "escaped" in t.session.outcome.reason


def test_nothing_opens_over_the_running_clock(game):
    """The countdown is raced: a click on "What happened" (or How to play, a journal, Phones…) opens no
    window over it nor takes it out of sight, but says why; a window left open when the clock starts is closed (before: "The game is over" appeared
    inside a log window left open over the finale)."""
    t = game
    to_the_finale(t)
    for _ in range(3):
        press(t, "action:draw_capitals")
    t.window.table.show_full_log()
    assert t.window.table.log_dialog.isVisible()
    table = t.window.table.table
    table.countdown.time_source = FakeClock()
    press(t, "action:start_clock")
    assert table.countdown.running and not t.window.table.log_dialog.isVisible()
    click_in_sight(t.window.table.recent)
    assert not t.window.table.log_dialog.isVisible() and "timer" in t.banner
    click_in_sight(t.find("howto"))
    assert t.window.table.how_to_play is None or not t.window.table.how_to_play.isVisible()
    for name in ("journal:Ann", "phones"):                     # nothing takes the countdown out of sight either
        click_in_sight(t.find(name))
        assert t.window.stack.currentWidget() is t.window.table and table.countdown.isVisible()
    click_in_sight(t.find("usa:all-placed"))
    click_in_sight(t.window.table.recent)
    assert t.window.table.log_dialog.isVisible()                     # the clock has stopped: the log opens


def agents_at(t, landmark: str) -> list[str]:
    """The agents whose pieces are drawn on a landmark's tile now (not the ones still on their way)."""
    tile = t.window.table.table.tiles[landmark]
    return [agent for agent, _ in tile.pieces if agent not in tile.arriving]


def test_a_piece_is_seen_moving_to_the_landmark_reached(game, qtbot):
    """Correct Answers/Movement: after a right answer the agent moves their piece. The family sees
    it travel from Big Bend to Carlsbad Caverns (one movement), and it ends on the landmark the
    engine says, no longer on the one it left."""
    t = game
    table = t.window.table.table
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    ask(t)
    press(t, "action:answer", "Right answer")
    started: list[str] = []
    table.motion.step_started.connect(started.append)
    set_less_motion(False)
    try:
        move(t, "carlsbad-caverns")
        assert t.session.state.pieces["Ann"] == "carlsbad-caverns" and started == ["piece"] and table.motion.busy
        assert agents_at(t, "big-bend") == [] and agents_at(t, "carlsbad-caverns") == []      # on its way
        qtbot.waitUntil(lambda: bool(table.map.flights.flights), timeout=2000)
        qtbot.waitUntil(lambda: not table.motion.busy, timeout=3000)
        assert table.motion.played[-1:] == ["piece"] and not table.map.flights.flights
        assert agents_at(t, "carlsbad-caverns") == ["Ann"] and agents_at(t, "big-bend") == []
    finally:
        set_less_motion(True)


def test_with_less_motion_a_piece_is_at_once_where_it_goes(game):
    """The start screen's "Less motion": the piece is drawn on the landmark reached at once."""
    t = game
    table = t.window.table.table
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    assert agents_at(t, "big-bend") == ["Ann"] and agents_at(t, "mammoth-cave") == ["Cy"]
    assert table.motion.played == ["piece"] * 3            # each piece put down: landed at once
    ask(t)
    press(t, "action:answer", "Right answer")
    move(t, "carlsbad-caverns")
    assert not table.motion.busy and table.motion.played == ["piece"] * 4
    assert agents_at(t, "carlsbad-caverns") == ["Ann"] and agents_at(t, "big-bend") == []


def test_the_map_is_played_by_keyboard_too(game):
    """Set Up, step 4: each agent puts a piece on a vacant landmark, here with the arrow keys and
    Enter: Right goes to the landmark east on the map, Enter puts the piece there."""
    t = game
    rainier = t.find("slot:mount-rainier")
    rainier.setFocus()
    t.qtbot.waitUntil(rainier.hasFocus)
    t.qtbot.keyClick(rainier, Qt.Key_Right)
    faithful = t.find("slot:old-faithful")
    assert faithful.hasFocus()
    t.qtbot.keyClick(faithful, Qt.Key_Return)
    assert t.session.state.pieces["Ann"] == "old-faithful" and agents_at(t, "old-faithful") == ["Ann"]
    assert not t.find("slot:old-faithful").legal               # no longer vacant: Bob may not choose it


def test_the_map_is_laid_out_like_the_country(table):
    """Landmarks, Landmark Boxes (Rulebook, Set Up): each box lies close to its landmark. On the
    drawn map each landmark's tile is within a tile or so of where the landmark lies on the outline
    of the country (Alaska and Hawaii apart, in their boxes); every landmark has a tile of its own."""
    from engine.games.carmen_usa.data import load_board
    board = load_board()
    layout = load_map(board.ids)
    for lm in board.landmarks:
        if lm.id in layout.insets:
            continue
        x, y = layout.project(lm.lon, lm.lat)
        column, row = layout.tiles[lm.id]
        assert abs(column + 0.5 - x) <= 1.6 and abs(row + 0.5 - y) <= 1.3, f"{lm.name} is drawn far from where it lies"
    assert len(set(layout.tiles.values())) == len(board.ids)


def test_a_map_file_with_two_landmarks_on_one_tile_is_refused(tmp_path):
    """The map is data: a broken file is refused in words that name it, not drawn wrong."""
    from engine.games.carmen_usa.data import load_board
    from engine.paths import assets_dir
    ids = load_board().ids
    text = (assets_dir() / "boards" / "carmen-usa-map.toml").read_text(encoding="utf-8")
    broken = tmp_path / "map.toml"
    broken.write_text(text.replace("denali = [0, 3]", "denali = [0, 0]"), encoding="utf-8")
    with pytest.raises(MapDataError, match="denali and mount-rainier lie on the same tile|same tile"):
        load_map(ids, broken)
    broken.write_text(text.replace("denali = [0, 3]\n", ""), encoding="utf-8")
    with pytest.raises(MapDataError, match="missing: denali"):
        load_map(ids, broken)
    colours = ("red", "orange", "yellow", "green", "blue", "purple", "pink", "brown")
    assert set(load_map(ids, colours=colours).colours) == set(colours)
    broken.write_text(text.replace('pink = "#F06EAA"\n', ""), encoding="utf-8")
    with pytest.raises(MapDataError, match=r"\[colours\].*missing: pink"):
        load_map(ids, broken, colours=colours)
    broken.write_text(text.replace('brown = "#8B5A2B"', 'brown = "brownish"'), encoding="utf-8")
    with pytest.raises(MapDataError, match="not a colour: brown"):
        load_map(ids, broken, colours=colours)


def test_a_private_look_stays_private_on_the_shared_screen(game):
    """Clue Cards: a Crook goes back face down; only its finder's journal names it."""
    t = game
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    ask(t)
    press(t, "action:answer", "Right answer")
    move(t, "carlsbad-caverns")
    look(t, "carlsbad-caverns")
    shared = " ".join(t.log()) + tile(t, "slot:carlsbad-caverns")
    assert "Patty Larceny" not in shared and tile(t, "slot:carlsbad-caverns") == "Carlsbad Caverns \u25CF Ann"
    assert t.session.journal("Ann").where("carmen-usa.crook.purple-crook") == "Carlsbad Caverns"


@pytest.mark.parametrize("size", [(1280, 680), (1366, 728)])
def test_the_table_fits_a_laptop(table, size):
    """docs/desktop.md: the table fits 1280x680 and cuts no text (board, question with choices, finale)."""
    t = table
    t.window.resize(*size)
    choose_game(t)
    t.new_game([("Annabelle", 7), ("Bartholomew", 9), ("Cyd", 11), ("Dee", 12)])
    deal_boxes(t)
    for lm in ("big-bend", "everglades", "mammoth-cave", "arches"):
        t.click(f"slot:{lm}")
    fits(t, size, "the board")
    ask(t)
    press(t, "action:choices")
    fits(t, size, "a question with its choices")


def test_cards_read_by_the_simulated_camera_and_the_journal_behind_the_gate(table, qtbot):
    """A demo game on the simulated table: a private look and a flipped card are read through the
    real vision pipeline; the agent's journal (behind the privacy gate) lists every box."""
    t = table
    choose_game(t)
    t.click("start:demo")
    t.click("new:start")                         # the demo fills in the agents
    t.click("setup:done")
    assert t.window.controller.demo
    deal_boxes(t)
    panel = t.window.camera_panel
    qtbot.waitUntil(lambda: panel.image.pixmap() is not None and not panel.image.pixmap().isNull(), timeout=10_000)
    order = t.session.state.order
    for lm in ("big-bend", "everglades", "mammoth-cave", "acadia", "alcatraz", "arches")[:len(order)]:
        t.click(f"slot:{lm}")
    first = t.session.state.answerer
    ask(t)
    press(t, "action:answer", "Right answer")
    move(t, "carlsbad-caverns")
    t.click("slot:carlsbad-caverns")             # a private look: behind the gate
    t.click("gate:reveal")
    t.click("entry:camera")
    qtbot.waitUntil(lambda: t.window.stack.currentWidget() is t.window.table, timeout=15_000)
    assert t.session.journal(first).where("carmen-usa.crook.purple-crook") == "Carlsbad Caverns"
    assert "Patty Larceny" not in " ".join(t.log())
    # The journal, behind the gate: the game's own table of the 24 boxes.
    t.click(f"journal:{first}")
    t.click("gate:reveal")
    boxes = t.find("journal:boxes")
    rows = {boxes.item(r, 0).text(): boxes.item(r, 1).text() for r in range(boxes.rowCount())}
    assert len(rows) == 24 and rows["Carlsbad Caverns"] == "Purple Crook: Patty Larceny"


def test_the_question_is_shown_once_on_its_card(game):
    """The question read is on the large question card; the prompt and the message say who reads
    it to whom and who answers, without repeating it (it was shown four times at once)."""
    t = game
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    spoken = []
    t.window.table.speaker = type("Speaker", (), {"say": staticmethod(spoken.append), "stop": staticmethod(lambda: None)})()
    text = ask(t)
    assert text not in t.prompt and "Ann" in t.prompt and "Cy" in t.prompt
    assert text not in t.banner and t.banner == "Cy reads Ann a red question."
    header = t.find("usa:question").drawn_texts()[0].text
    assert header == "Red question: Cy reads to Ann"
    assert spoken[-1] == text                       # read aloud once, when the card is drawn
    press(t, "action:choices")
    assert text not in t.prompt and "(choose one)" in t.prompt
    assert spoken.count(text) == 1


@pytest.mark.parametrize("size", [(1280, 680), (1366, 728)], ids=lambda s: f"{s[0]}")
def test_long_names_on_the_question_card_are_wrapped_or_shortened_never_cut(table, size):
    """Two 24-letter names in the card's band: on two lines or shortened with "\u2026", never cut."""
    t = table
    choose_game(t)
    t.window.resize(*size)
    long_names = [("Bartholomew Montgomery-J", 7), ("MARGARET WOLLSTONECRAFT", 9)]
    t.new_game(long_names)
    deal_boxes(t)
    for lm in ("big-bend", "everglades"):
        t.click(f"slot:{lm}")
    ask(t)
    t.qtbot.wait(20)
    card = t.find("usa:question")
    header, question = card.drawn_texts()
    assert header.fits and question.fits and header.px >= 15
    metrics_ok = [QFontMetrics(font(header.px, True, QFont(header.family or app_family()))).horizontalAdvance(line)
                  <= header.rect.width() for line in header.text.split("\n")]
    assert all(metrics_ok), header
    words = " ".join(header.text.split())
    assert words == t.find("usa:question").header or words.endswith("\u2026")
    assert header.rect.bottom() < question.rect.top()


def test_leaving_while_the_clock_runs_stops_it(game, qtbot):
    """A family goes back to the start screen during the Catch Carmen countdown: the game's file is
    closed, so the clock must stop with the table. Before, it ran on and, when it ran out, sent
    "time up" to the closed game (StoreError: the game file has been closed)."""
    t = game
    table, clock = start_the_clock(t)
    assert table.countdown.timer.isActive()
    session = t.session
    moves = len(session.undo_history())
    t.window.leave_game()
    assert t.window.table.table is None and t.window.table.controller is None
    clock.now += 36
    table.countdown.update_clock()          # the clock's last tick, before the old table is gone
    assert session.outcome is None and len(session.undo_history()) == moves
    qtbot.wait(50)
    from shiboken6 import isValid
    assert not isValid(table), "the closed game's table (and its clock) lives on"


def shown(t, words: str) -> bool:
    return any(words in " ".join(text.split()) for text in visible_texts(t.window))


def test_the_reader_alone_sees_the_answer_before_judging_it(game, qtbot):
    """Correct Answers/Movement: "Correct answers are shown in bold" on the card, for the reader: the
    laptop shows the question only, and a reader-only reveal ("Only Cy looks: show the answer") shows
    the answer on the card, hidden again by itself a moment later, or at once by "Hide it"
    and by the judgement. Before: the answer appeared only after the reader pressed "Right answer"."""
    t = game
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    ask(t)
    answer = t.session.rules.bank.question(t.session.state.question).answer
    card = t.window.table.table.map.card
    assert not shown(t, answer)
    reveal = t.find("usa:reveal-answer")
    assert " ".join(reveal.text().split()) == "Only Cy looks: show the answer"
    click_in_sight(reveal)
    assert shown(t, f"Answer (only Cy): {answer}")
    drawn = card.drawn_texts()[-1]
    assert drawn.fits and drawn.px >= 24 and card.rect().contains(drawn.rect)
    click_in_sight(t.find("usa:reveal-answer"))                # "Hide it"
    assert not shown(t, answer)
    card.hide_timer.setInterval(30)
    click_in_sight(t.find("usa:reveal-answer"))
    assert shown(t, answer)
    qtbot.waitUntil(lambda: not shown(t, answer), timeout=2000)  # hidden again by itself
    click_in_sight(t.find("usa:reveal-answer"))
    press(t, "action:answer", "Wrong answer")                   # judged: everyone hears it now
    assert not card.revealed
    ask_again = t.session.state.phase == "backup"
    assert ask_again and " ".join(t.find("usa:reveal-answer").text().split()) == "Only Cy looks: show the answer"


def test_every_clue_card_face_up_is_drawn_in_its_own_colour_and_named_in_words(game):
    """Clue Cards: "the orange Warrant Card, the orange Loot Card, and the Orange Crook Card": a game of
    matching colours. All 24 cards face up at once: each tile's band is the card's own colour (the
    map file's [colours], from the card's colour, not its name), and its colour and type are written
    under the landmark at 15 px or more. Before: Pink and Brown Warrants had orange bands, Pink Loot a
    light-blue one, and the colour word was about 12 px."""
    t = game
    rules, state = t.session.rules, t.session.state
    for lm, card in zip(rules.board.ids, rules.clues):
        state.reveal(state.boxes[lm], card.id)
    t.window.table.refresh()
    table = t.window.table.table
    shades = table.layout_map.colours
    assert len(set(shades[c] for c in rules.colours)) == 8
    for lm, card in zip(rules.board.ids, rules.clues):
        tile = table.tiles[lm]
        colour = rules.colour_of[card.id]
        assert tile.colour == shades[colour], (lm, card.id)
        words = f"{colour.capitalize()} {card.kind.capitalize()}"
        status = tile.drawn_texts()[1]
        assert " ".join(status.text.split()) == words and status.px >= 15 and status.fits, status
        image = tile.grab().toImage()
        box = tile.card_rect()
        band = QColor(image.pixel(int(box.right() - 12), int(box.top() + 6)))
        want = QColor(shades[colour])
        assert max(abs(band.red() - want.red()), abs(band.green() - want.green()),
                   abs(band.blue() - want.blue())) <= 12, (lm, band.name(), want.name())


def test_the_look_lists_only_clue_cards_and_no_token_count_before_anyone_has_tokens(game):
    """Clue Cards: the card in a Landmark Box is a Clue Card: the private look's list offers the 24 Clue
    Cards (not the 50 Capital Tokens), also behind "Show every card". Catching Carmen: no count of
    tokens left to place or check shows before anyone has taken tokens."""
    from tests.desktop.driver import line_cards
    t = game
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    ask(t)
    press(t, "action:answer", "Right answer")
    move(t, "denali")
    t.click("slot:denali")
    t.click("gate:reveal")
    kinds = t.session.rules.deck.kinds

    def listed() -> set[str]:
        lst = t.find("choose:card", QListWidget)
        return {t.session.rules.kind_of(card) for i in range(lst.count()) for card in line_cards(lst.item(i))}

    lst = t.find("choose:card", QListWidget)
    assert lst.count() == 24 and listed() == {"warrant", "loot", "crook"}, (lst.count(), listed(), list(kinds))
    if t.visible("every:card"):
        t.click("every:card")
        assert listed() == {"warrant", "loot", "crook"}
    t.choose("card", t.card_at("box/denali"))
    t.click("entry:submit")
    to_the_finale_after_denali(t)
    assert t.session.state.phase == "finale_draw"
    assert not t.window.table.table.finale.others.text() and "Tokens still" not in " ".join(visible_texts(t.window))


def test_time_ran_out_is_a_secondary_button_that_asks_before_carmen_escapes(game):
    """Catching Carmen (timer runs out: Carmen escapes). "All placed!" is the one main action while the clock
    runs; "Time ran out" (before: a blue main button beside it, one slip ended the game) is a small
    secondary button that asks "Did the time really run out? Carmen escapes." first (docs/rules/carmen-usa.md)."""
    t = game
    table, clock = start_the_clock(t)
    primary = {b.objectName() for b in t.window.findChildren(QAbstractButton)
               if b.isVisible() and b.property("role") == "primary"}
    assert primary == {"action:all_placed", "usa:all-placed"}, primary
    time_up = t.find("usa:time-up")
    assert time_up.isVisible() and time_up.height() < t.find("usa:all-placed").height()
    click_in_sight(time_up)
    assert t.session.outcome is None and table.countdown.running       # nothing ended by one slip
    assert t.text("usa:time-up-question") == "Did the time really run out? Carmen escapes."
    assert not time_up.isVisible()
    click_in_sight(t.find("usa:time-up-no"))
    assert t.session.outcome is None and not table.finale.confirm.isVisible() and time_up.isVisible()
    click_in_sight(time_up)
    click_in_sight(t.find("usa:time-up-yes"))
    assert t.session.outcome is not None and "escaped" in t.session.outcome.reason
    assert not time_up.isVisible() and not table.finale.confirm.isVisible()


def test_the_turn_line_says_everyone_places_and_checks_the_tokens(game):
    """Catching Carmen: all the agents place their tokens at once while the clock runs (before: the turn
    line said "Ann's turn"), and the tokens are checked one agent's at a time."""
    t = game
    table, _ = start_the_clock(t)
    assert t.text("turn") == "Everyone: place your tokens"
    click_in_sight(t.find("usa:all-placed"))
    holder = t.session.prompt().player
    assert t.text("turn") == f"Everyone checks the tokens: {holder}'s now"
    check_token(t)
    assert t.text("turn") == f"Everyone checks the tokens: {t.session.prompt().player}'s now"


def test_the_move_prompt_asks_for_the_move_on_the_board_and_claims_no_reach(game):
    """Movement: the app does not count the printed board's spaces, so every landmark glows after a right
    answer; the words ask for the move on the real board and a touch on the landmark reached, and
    nothing says the glowing ones are in reach."""
    t = game
    for lm in ("big-bend", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    ask(t)
    press(t, "action:answer", "Right answer")
    assert t.prompt == ("Ann, move up to 5 spaces on the board (move off Big Bend), then press \"I moved\" "
                        "and touch the landmark you reached.")
    press(t, "action:move", "I moved")
    assert len(t.legal_slots()) == 23
    assert t.prompt == ("I moved.\nPick the landmark you reached (they all glow: the app does not count spaces), "
                        "or No landmark.")
    words = " ".join(visible_texts(t.window)).lower()
    assert "in reach" not in words and "can reach" not in words and "within" not in words
    t.click("slot:denali")
    assert t.session.state.pieces["Ann"] == "denali"


def test_one_name_for_one_place_on_the_tile_in_the_prompt_and_the_log(game):
    """A landmark is called by the words its tile shows, in the prompts and the log too (before: the tile
    said "Acadia", the prompt and the log "Acadia National Park"; docs/rules/carmen-usa.md)."""
    t = game
    table = t.window.table.table
    rules = t.session.rules
    assert {lm: tile.words for lm, tile in table.tiles.items()} == rules.landmark_name
    assert table.tiles["acadia"].drawn_texts()[0].text.replace("\n", " ") == "Acadia"
    for lm in ("acadia", "everglades", "mammoth-cave"):
        t.click(f"slot:{lm}")
    assert "Ann put a piece on Acadia." in t.log()
    ask(t)
    press(t, "action:answer", "Right answer")
    assert "(move off Acadia)" in t.prompt
