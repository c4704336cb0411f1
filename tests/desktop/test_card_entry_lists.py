"""Issue 28, items 3, 4 and 5: card lists a family can use, a simulated table that plays every rule,
and no card asked for twice. Clicks where a person clicks (tests/desktop/in_sight.py).

- A list has one line per distinct card ("Ted Hinton \u00d715"), only the cards that can be there now,
  in the order a person counts ("Case 2" before "Case 10"), and a box to type in to find one; any
  copy of a card is accepted where the copies are one card; the camera still reads the very copy.
- The simulated table shows each player their hand behind the privacy gate, shows the camera the
  card the question asks for (the Ted Hinton of a hand, an Agent for a mission), and keeps working
  after a wrong pick.
- A card lying face up that everyone saw is filled in, never asked for again.
"""

from __future__ import annotations

from PySide6.QtCore import Qt

from desktop.widgets import natural_key
from engine.errors import RuleViolation
from engine.knowledge import EVERYONE
from engine.table import Place
from tests.desktop.driver import open_demo_table, visible_texts
from tests.desktop.in_sight import click_in_sight

BC_PLAYERS = [("Bob", 9), ("Ann", 11)]      # Bob, written first, deals the first hand


def E(n: int, letter: str) -> str:
    return f"bonnie-clyde.evidence.location-{n}-{letter}"


def lines(t, field: str) -> list[str]:
    """The lines a person sees in the list ``field`` (those the find box has not hidden)."""
    lst = t.find(f"choose:{field}")
    return [lst.item(i).text() for i in range(lst.count()) if not lst.item(i).isHidden()]


def play_until(window, wanted, moves: int = 4000) -> bool:
    """The simulated players play on until ``wanted()`` holds (a refused move is skipped)."""
    c = window.controller
    for _ in range(moves):
        if wanted():
            window.show_table()
            return True
        if c.session.outcome is not None:
            return False
        try:
            c.apply(c.simulator.random_action(c.session))
        except RuleViolation:
            continue
    return False


def camera_shows_at_once(window) -> list[list[str]]:
    """The simulated camera reads at once what the app holds up to it (the vision pipeline itself is
    tested in test_camera.py): returns the cards held up, each time."""
    held: list[list[str]] = []

    def hold_up(cards, seconds: float = 2.0) -> None:
        held.append(list(cards))
        for card in cards:
            window._card_seen(card)
    window.camera_panel.simulated.hold_up = hold_up
    return held


def bonnie_clyde_discard(t) -> None:
    """Bob deals (Alma turned up on the FBI Files), Ann draws, then Ann discards: the list of her hand."""
    t.choose_game("bonnie-clyde")
    t.new_game(BC_PLAYERS)
    t.click("action:deal")
    t.choose("card", E(4, "a"))
    t.click("entry:submit")
    t.click("action:draw")
    click_in_sight(t.find("action:discard"))
    assert t.window.stack.currentWidget() is t.window.flip_page


# --- item 3: card entry ----------------------------------------------------------------------------
def test_a_hand_is_one_line_per_distinct_card_and_never_bonnie_or_clyde(table):
    """Fifteen identical Ted Hinton cards are one line, "Ted Hinton \u00d715"; six Joplin cards one line;
    Bonnie and Clyde never lie in a hand, so they are not offered; the Alma face up on the FBI Files
    cannot be in Ann's hand (five Alma left); the lines in alphabetical order."""
    t = table
    bonnie_clyde_discard(t)
    shown = lines(t, "card")
    assert len(shown) == len(set(shown)) == 11, shown          # ten locations and Ted Hinton
    assert "Ted Hinton \u00d715" in shown and "Joplin, Missouri \u00d76" in shown
    assert "Alma, Arkansas \u00d75" in shown
    assert not [line for line in shown if line.startswith(("Bonnie", "Clyde"))]
    assert shown == sorted(shown, key=natural_key)


def test_typing_finds_a_card_and_enter_picks_it(table, qtbot):
    """Type-to-find: "hint" leaves the Ted Hinton line alone; Enter picks it; the card is discarded."""
    t = table
    bonnie_clyde_discard(t)
    find = t.find("find:card")
    click_in_sight(find)
    qtbot.keyClicks(find, "hint")
    assert lines(t, "card") == ["Ted Hinton \u00d715"]
    qtbot.keyClick(find, Qt.Key_Return)
    click_in_sight(t.find("entry:submit"))
    assert t.window.stack.currentWidget() is t.window.table
    assert "Ann discarded Ted Hinton." in t.log()


def test_the_camera_still_tells_copies_apart(table):
    """A card the camera reads is recorded as that very copy (its tag): Alma's copy d, not another."""
    t = table
    bonnie_clyde_discard(t)
    t.window._card_seen(E(5, "d"))
    assert t.window.stack.currentWidget() is t.window.table        # read: sent without a press
    state = t.session.state
    top = state.table.top(Place.parse("files", state.players))
    assert state.knowledge[EVERYONE].card_at(top) == E(5, "d")


def test_cards_are_listed_as_a_person_counts(table, gumshoe_home):
    """Case cards "Case 1, Case 2 ... Case 10", not "1, 10, 11 ... 2": in the deal's display choices
    (Sudds & Malone) and in the list of hunch cards drawn."""
    from tests.desktop.tables.test_sudds_malone import bob_takes_ff09, press
    t = table
    t.choose_game("sudds-malone")
    t.new_game([("Ann", 11), ("Bob", 9)])
    press(t, "action:deal")
    press(t, "sm:deal:display0")                  # the display's first card touched: the card list
    cases = [line for line in lines(t, "card") if line.startswith("Case ")]
    assert cases[:11] == [f"Case {n}" for n in range(1, 12)], cases[:12]
    t.click("entry:cancel")
    t.window.leave_game()
    bob_takes_ff09(t, gumshoe_home, 'tabs = "ABC"\ncost = "bullet:1"')
    press(t, "action:hunch")
    press(t, "sm:hunch:ff-09")
    press(t, "sm:send")
    t.click("gate:reveal")
    shown = lines(t, "drawn")
    assert shown == sorted(shown, key=natural_key) and shown != sorted(shown)


def test_any_copy_of_the_card_in_the_simulated_hand_is_accepted(table):
    """Demo: Ann plays Ted Hinton. The one line "Ted Hinton \u00d7n" stands for whichever copy she really
    holds: picked and sent, it is accepted (never "not the card lying there"), and the copy recorded
    is one that really was in her hand."""
    t = table
    window = t.window
    c = open_demo_table(window, t.qtbot, "bonnie-clyde", ["Ann", "Bob"]).window.controller
    rules = c.session.rules

    def hinton_in_hand() -> bool:
        p = c.session.prompt().player
        return (c.session.prompt().option("hinton") is not None and c.session.state.table.count(Place("casefile"))
                and any(rules.kind_of(x) == "hinton" for x in c.true_cards_in(f"{p}/hand")))
    assert play_until(window, hinton_in_hand)
    player = c.session.prompt().player
    held = {x for x in c.true_cards_in(f"{player}/hand") if rules.kind_of(x) == "hinton"}
    t.click("action:hinton")
    click_in_sight(t.find("bc:use:draw"))
    shown = lines(t, "card")
    assert shown == [f"Ted Hinton \u00d7{len(rules.candidates(c.session.state, f'{player}/hand', None, {'type': 'hinton'}))}"]
    t.choose("card", sorted(held)[-1])
    click_in_sight(t.find("entry:submit"))
    assert window.stack.currentWidget() is window.table, visible_texts(window)
    assert any(line.startswith(f"{player} played Ted Hinton and drew") for line in t.log())
    played = next(e for e in reversed(c.session.log) if e.type == "hinton")
    assert played.data["card"] in held


# --- item 4: the simulated table plays every rule ------------------------------------------------------
def test_each_player_sees_their_simulated_hand_behind_the_gate(table):
    """Demo: Ann's journal, behind the privacy gate, says what Ann really holds; Bob's, Bob's; the
    shared screen never names them."""
    t = table
    window = t.window
    c = open_demo_table(window, t.qtbot, "bonnie-clyde", ["Ann", "Bob"]).window.controller
    assert play_until(window, lambda: c.session.state.hand_no >= 1 and c.session.state.phase == "draw")
    from desktop.private import hand_words
    for player in ("Ann", "Bob"):
        names = [c.deck.name_of(x) for x in c.true_cards_in(f"{player}/hand")]
        assert names
        click_in_sight(t.find(f"journal:{player}"))
        click_in_sight(t.find("gate:reveal"))
        held = t.find("journal:simulated-hand")
        assert held.text() == hand_words(names)
        assert not why_hidden(held)
        click_in_sight(t.find("journal:hide"))
        assert window.stack.currentWidget() is window.table
        assert hand_words(names) not in visible_texts(window)


def why_hidden(widget) -> str:
    from tests.desktop.in_sight import why_not_in_sight
    return why_not_in_sight(widget)


def test_the_simulated_camera_reads_the_ted_hinton_of_the_hand(table, qtbot):
    """Demo, through the real camera pipeline: asked for the Ted Hinton a player plays, "Show it to the
    simulated camera" holds up a Ted Hinton of the hand, not the hand's top card; it is played."""
    t = table
    window = t.window
    c = open_demo_table(window, qtbot, "bonnie-clyde", ["Ann", "Bob"]).window.controller
    rules = c.session.rules

    def hinton_not_on_top() -> bool:
        p = c.session.prompt().player
        hand = c.true_cards_in(f"{p}/hand")
        return (c.session.prompt().option("hinton") is not None and c.session.state.table.count(Place("casefile"))
                and any(rules.kind_of(x) == "hinton" for x in hand) and rules.kind_of(hand[-1]) != "hinton")
    assert play_until(window, hinton_not_on_top)
    player = c.session.prompt().player
    panel = window.camera_panel
    qtbot.waitUntil(lambda: panel.image.pixmap() is not None and not panel.image.pixmap().isNull(), timeout=15_000)
    t.click("action:hinton")
    click_in_sight(t.find("bc:use:draw"))
    click_in_sight(t.find("entry:camera"))
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.table, timeout=20_000)
    assert any(line.startswith(f"{player} played Ted Hinton and drew") for line in t.log())


def test_the_simulated_camera_shows_an_agent_and_a_location_for_a_mission(table):
    """Demo, The 39 Clues: a mission's Agent and Location both from the hand. The simulated camera holds
    up an Agent for the Agent and a Location for the Location (not the hand's top card twice)."""
    t = table
    window = t.window
    c = open_demo_table(window, t.qtbot, "39-clues", ["Ann", "Bob"]).window.controller
    info = c.session.rules.info

    def both_in_hand() -> bool:
        prompt = c.session.prompt()
        if prompt.player is None or prompt.option("mission") is None:
            return False
        kinds = [info(c.session.state, x)["type"] for x in c.true_cards_in(f"{prompt.player}/hand")]
        return "agent" in kinds and "location" in kinds and kinds[-1] != "agent"
    assert play_until(window, both_in_hand)
    player = c.session.prompt().player
    held = camera_shows_at_once(window)
    window.table.start_option(c.session.prompt().option("mission"))
    t.click(f"choose:{player}/hand")
    t.click(f"choose:{player}/hand")
    assert [line for line in lines(t, "agent") if "Agent" not in line] == []     # only Agents are offered
    click_in_sight(t.find("entry:camera"))
    assert [[info(c.session.state, x)["type"] for x in cards] for cards in held] == [["agent", "location"]]
    assert window.stack.currentWidget() is window.table, visible_texts(window)
    assert any(f"{player} sent " in line for line in t.log())


def test_after_a_wrong_pick_the_simulated_camera_still_reads_the_card(table):
    """Demo, Carmen: a wrong pick is refused in words and the list is open again; "Show it to the
    simulated camera" then reads the true card and notes it."""
    t = table
    window = t.window
    c = open_demo_table(window, t.qtbot, "carmen-cards", ["Ann", "Bob"]).window.controller
    camera_shows_at_once(window)
    player = c.session.prompt().player
    t.roll("loot")
    place = f"{player}/loot/top"
    t.click(f"slot:{place}")
    click_in_sight(t.find("gate:reveal"))
    truth = c.true_card_at(place)
    wrong = next(x.id for x in c.deck.of_kind("loot") if x.id != truth and t.line("card", x.id) is not None)
    t.choose("card", wrong)
    click_in_sight(t.find("entry:submit"))
    assert "not the card lying there" in t.text("entry-error")
    click_in_sight(t.find("entry:camera"))
    assert c.session.journal(player).where(truth) == f"{player} / Top"
    assert window.stack.currentWidget() is not window.gate or not window.gate.revealed


# --- item 5: never asked again --------------------------------------------------------------------------
def test_a_table_card_read_once_is_never_asked_for_again(table):
    """The 39 Clues: the Lighthouse on Ann's Table 1 lies face up and was read. A mission with an Agent
    from the hand and that Location asks for the Agent only (the heading says the Location is already
    face up); a Founder added from a table stack is not asked for at all."""
    from tests.desktop.tables.test_clues39 import card, read
    t = table
    t.choose_game("39-clues")
    t.new_game([("Ann", 11), ("Bob", 9)])
    for player, numbers in (("Ann", (9, 2, 18, 22)), ("Bob", (4, 11, 13, 20))):
        for spot, number in zip("1234", numbers):
            read(t, f"{player}/table/{spot}", number, player)
    t.click("action:mission")
    t.click("choose:Ann/hand")
    t.click("slot:Ann/table/1")
    assert t.visible("choose:agent") and not t.visible("choose:location")
    assert "Demo Lighthouse, already face up" in " ".join(visible_texts(t.window))
    t.choose("agent", card("Ann", 1))
    click_in_sight(t.find("entry:submit"))
    assert "Ann sent Demo Agent Rook to Demo Lighthouse (mission 1)." in t.log()
    t.click("action:add")
    t.click("slot:Ann/table/4")
    assert t.window.stack.currentWidget() is t.window.table          # sent at once: nothing to read
    assert any(line.startswith("Ann added Demo") for line in t.log())


def test_the_sudds_deal_shows_the_simulated_table_s_cards_to_its_camera(table):
    """Demo, Sudds & Malone's deal: touching the Conspiracy or a display card offers "Show it to the
    simulated camera", which reads the card the simulated table dealt there; the deal panel then names
    it, and "Deal on the simulated table" agrees with what the camera was shown."""
    from tests.desktop.tables.test_sudds_malone import press
    t = table
    window = t.window
    c = open_demo_table(window, t.qtbot, "sudds-malone", ["Ann", "Bob"]).window.controller
    held = camera_shows_at_once(window)
    press(t, "action:deal")
    sim = window.table.table.sel["sim"]
    press(t, "sm:deal:display0")
    t.click("entry:camera")
    assert held[-1] == [sim["display"][0]]          # read: the table's panel is back at once
    assert window.table.table.sel["display"][0] == sim["display"][0]
    t.click("slot:conspiracy/1")
    t.click("entry:camera")
    assert held[-1] == [sim["conspiracy"]]
    assert window.table.table.sel["conspiracy"] == sim["conspiracy"]
    assert c.deck.name_of(sim["conspiracy"]) in " ".join(visible_texts(window))
