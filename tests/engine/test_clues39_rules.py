"""The 39 Clues: Double-Cross, rule by rule (each test names the rulebook section it checks).

A small made-up library: every player owns one copy of each card, so card number ``k`` is
``n<k>`` for the first player, ``n<k>-c2`` for the second, and so on. One-sided cards (1-19)
can be "played from the hand" whenever they are not on the table; two-sided cards (20-39) are
read off the table or the top of the two-sided deck.
"""

from __future__ import annotations

import pytest

from engine.errors import BadInput, RuleViolation
from engine.games.clues39 import library as lib
from engine.session import Session

PLAYERS = ("Ann", "Bob", "Cyd", "Dee")

CARDS = [
    # number, name, type, colour, points, sides
    (1, "Red Agent A", "agent", "red", 0, 1),
    (2, "Blue Agent", "agent", "blue", 0, 1),
    (3, "Black Agent", "agent", "black", 0, 1),
    (4, "Paris", "location", "yellow", 0, 1),
    (5, "Rome", "location", "blue", 0, 1),
    (6, "Yellow Secret", "secret", "yellow", 3, 1),
    (7, "Black Secret", "secret", "black", 1, 1),
    (8, "Yellow Founder", "founder", "yellow", 1, 1),
    (9, "Money", "money", None, 0, 1),
    (10, "Prestige", "prestige", None, 0, 1),
    (11, "Replicator", "replicator", None, 0, 1),
    (12, "Red Agent B", "agent", "red", 0, 1),
    (13, "Blue Secret", "secret", "blue", 2, 1),
    (14, "Red Location", "location", "red", 0, 1),
    (15, "Yellow Agent", "agent", "yellow", 0, 1),
    (16, "Big Black Founder", "founder", "black", 20, 1),
    (17, "Blue Location", "location", "blue", 0, 1),
    (18, "Yellow Location", "location", "yellow", 0, 1),
    (19, "Black Founder 19", "founder", "black", 19, 1),
    (20, "Green Agent", "agent", "green", 0, 2),
    (21, "Oslo", "location", "red", 0, 2),
    (22, "Red Secret", "secret", "red", 4, 2),
    (23, "Red Founder", "founder", "red", 5, 2),
    (24, "Paris", "location", "red", 0, 2),          # the same Location as 4, printed red
    (25, "Blue Agent 2", "agent", "blue", 0, 2),
    (26, "Prestige 2", "prestige", None, 0, 2),
    (27, "Yellow Secret 2", "secret", "yellow", 2, 2),
    (28, "Money 2", "money", None, 0, 2),
    (29, "Green Secret", "secret", "green", 1, 2),
]


def library(copies: int = 4) -> lib.Library:
    out = lib.Library("Test cards")
    for number, name, kind, colour, points, sides in CARDS:
        out = lib.register(out, number, name, kind, colour, points=points, sides=sides, copies=copies)
    return out


def cid(player: str, number: int, players: tuple[str, ...] = PLAYERS) -> str:
    k = players.index(player) + 1
    return f"39-clues.card.n{number}" + ("" if k == 1 else f"-c{k}")


class Table:
    """A session plus shorthand for cards: ``t.c("Ann", 4)`` is Ann's Paris."""

    def __init__(self, n: int = 2, table: dict[str, list[int]] | None = None, lib_: lib.Library | None = None,
                 picks: dict | None = None) -> None:
        self.players = PLAYERS[:n]
        library_ = lib_ or library()
        check = lib.build_decks(library_, picks) if picks else lib.split_by_owner(library_, self.players)
        self.s = Session.new("39-clues", self.players, check.options())
        table = table or {p: [20 + i, 21 + i, 22 + i, 23 + i] for i, p in enumerate(self.players)}
        for p in self.players:
            for spot, number in zip("1234", table[p]):
                self.s.apply({"type": "reveal", "player": p, "place": f"{p}/table/{spot}", "card": self.c(p, number)})

    def c(self, player: str, number: int) -> str:
        return cid(player, number, self.players)

    def do(self, **action) -> list:
        return self.s.apply(action)

    def texts(self, **action) -> list[str]:
        return [e.text for e in self.s.apply(action)]

    @property
    def state(self):
        return self.s.state

    def end(self, player: str | None = None) -> None:
        self.do(type="end_turn", player=player or self.s.current)

    def deal_turn(self, player: str, numbers: list[int]) -> None:
        """A DEAL turn: deal, read the four new table cards (two-sided numbers), end."""
        self.do(type="deal", player=player)
        dealt = self.s.prompt().option("reveal").targets["place"] if self.s.prompt().option("reveal") else ()
        for spot, number in zip("1234"[:len(dealt)], numbers):
            self.do(type="reveal", player=player, place=f"{player}/table/{spot}", card=self.c(player, number))
        self.end(player)

    def mission(self, player: str, agent: int, location: int, **extra) -> str:
        self.do(type="mission", player=player, agent=self.c(player, agent), location=self.c(player, location), **extra)
        return f"{player}/mission/{self.state.next_mission[player] - 1}"


def refused(t: Table, section: str, match: str = "", **action) -> RuleViolation:
    before = t.s.view(None)
    with pytest.raises(RuleViolation) as info:
        t.s.apply(action)
    assert info.value.section == section, info.value
    if match:
        assert match in info.value.message, info.value.message
    assert t.s.view(None) == before      # a refused action changes nothing
    return info.value


# --- Set Up / Starting ---------------------------------------------------------------------
def test_set_up_four_table_cards_four_hand_cards_decks_left_and_right():
    """Set Up: four two-sided cards dealt face up between the decks, four one-sided cards in the hand."""
    s = Session.new("39-clues", ["Ann", "Bob"], lib.split_by_owner(library(), ["Ann", "Bob"]).options())
    t = s.state.table
    from engine.table import Place
    for p in ("Ann", "Bob"):
        assert t.count(Place("hand", p)) == 4
        assert [t.count(Place("table", p, s_)) for s_ in "1234"] == [1, 1, 1, 1]
        assert t.count(Place("deck", p, "one")) == 19 - 4
        assert t.count(Place("deck", p, "two")) == 10 - 4
        assert all(t.face_up(tok) for tok in t.at(Place("deck", p, "two")))
        assert not any(t.face_up(tok) for tok in t.at(Place("deck", p, "one")))
    assert "Bob shuffled Ann's two decks" in s.public_log()[0]


def test_starting_lowest_numbered_table_card_goes_first():
    """Starting: the lowest numbered card on the table starts."""
    t = Table(2, {"Ann": [25, 26, 27, 28], "Bob": [29, 24, 23, 22]})
    assert t.s.current == "Bob"
    assert "Bob has the lowest numbered card on the table (22)" in t.s.public_log()[-2]


def test_starting_tie_goes_to_the_next_lowest_numbered_card():
    """Starting: in a tie (both own card 20) the next lowest decides."""
    t = Table(2, {"Ann": [20, 27, 28, 29], "Bob": [20, 22, 28, 29]})
    assert t.s.current == "Bob"
    t = Table(2, {"Ann": [20, 21, 28, 29], "Bob": [20, 22, 23, 24]})
    assert t.s.current == "Ann"


def test_set_up_reading_refuses_one_sided_cards_and_cards_already_on_the_table():
    """Set Up: the table is dealt from the two-sided deck; each card lies in one place."""
    s = Session.new("39-clues", ["Ann", "Bob"], lib.split_by_owner(library(), ["Ann", "Bob"]).options())
    with pytest.raises(RuleViolation, match="one-sided card"):
        s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/1", "card": cid("Ann", 1)})
    s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/1", "card": cid("Ann", 20)})
    with pytest.raises(RuleViolation, match="already at"):
        s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/2", "card": cid("Ann", 20)})
    with pytest.raises(RuleViolation, match="belongs to Bob"):
        s.apply({"type": "reveal", "player": "Ann", "place": "Ann/table/2", "card": cid("Bob", 21)})
    with pytest.raises(RuleViolation, match="First show the four cards"):
        s.apply({"type": "deal", "player": "Ann"})


def test_set_up_refuses_bad_player_counts_names_and_decks():
    """Your Mission: two to four players; each deck needs four cards to set up (Set Up)."""
    opts = lib.split_by_owner(library(), ["Ann", "Bob"]).options()
    with pytest.raises(RuleViolation, match="2 to 4"):
        Session.new("39-clues", ["Ann"], opts)
    with pytest.raises(BadInput, match="cannot be a player's name"):
        Session.new("39-clues", ["Ann", "hand"], opts)
    small = lib.Library("Small")
    for n in range(1, 8):
        small = lib.register(small, n, f"S{n}", "secret", "red", points=1, sides=1 + (n > 4))
    with pytest.raises(RuleViolation, match="3 two-sided cards"):
        Session.new("39-clues", ["Ann", "Bob"], {"decks": {"Ann": [e.to_card(e.id) for e in small.entries],
                                                           "Bob": []}})


# --- Deal / Play -----------------------------------------------------------------------------
def test_deal_puts_one_card_on_each_spot_and_then_no_play():
    """Deal: four two-sided cards, one onto each stack; after dealing you cannot play (never both)."""
    t = Table()
    assert t.s.current == "Ann"
    t.do(type="deal", player="Ann")
    assert t.s.prompt().option("reveal").targets["place"] == ("Ann/table/1", "Ann/table/2", "Ann/table/3",
                                                              "Ann/table/4")
    refused(t, "Deal", "Show the cards you dealt", type="end_turn", player="Ann")
    for spot, n in zip("1234", (24, 25, 26, 27)):
        t.do(type="reveal", player="Ann", place=f"Ann/table/{spot}", card=t.c("Ann", n))
    refused(t, "Play", "cannot also play", type="mission", player="Ann", agent=t.c("Ann", 1),
            location=t.c("Ann", 4))
    from engine.table import Place
    assert t.state.table.count(Place("table", "Ann", "1")) == 2
    t.do(type="discard", player="Ann", card=t.c("Ann", 6))
    t.do(type="discard", player="Ann", card=t.c("Ann", 7))
    refused(t, "Deal", "one or two", type="discard", player="Ann", card=t.c("Ann", 8))
    texts = t.texts(type="end_turn", player="Ann")
    assert "Ann drew 2 cards from the one-sided deck." in texts
    assert t.state.table.count(Place("hand", "Ann")) == 4
    assert t.s.journal("Bob").where(t.c("Ann", 6)) == "Ann / Discard pile"


def test_play_then_deal_is_refused_and_a_turn_needs_a_play_or_a_deal():
    """Play: a player must choose to play or to deal, and cannot do both in one turn."""
    t = Table()
    refused(t, "Play", "Deal or play first", type="end_turn", player="Ann")
    t.mission("Ann", 1, 4)
    refused(t, "Deal", "never both", type="deal", player="Ann")
    refused(t, "Starting", "Ann's turn", type="end_turn", player="Bob")
    t.end("Ann")
    assert t.s.current == "Bob"


def test_end_of_turn_draws_back_to_four_hand_cards():
    """Cards available for play: used hand cards are replaced at the end of the turn."""
    from engine.table import Place
    t = Table()
    t.mission("Ann", 1, 4)
    assert t.state.table.count(Place("hand", "Ann")) == 2
    t.end()
    assert t.state.table.count(Place("hand", "Ann")) == 4


def test_the_hand_is_four_cards_so_a_turn_plays_at_most_four_from_it():
    """Cards Available for Play: "The four cards in your hand" - a fifth one-sided card from the hand
    in the same turn is refused (the hand is refilled only at the end of the turn)."""
    from engine.table import Place
    t = Table()
    m = t.mission("Ann", 15, 4)                           # yellow Agent to yellow Paris: two hand cards
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 6))
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 8))
    assert t.state.table.count(Place("hand", "Ann")) == 0
    refused(t, "Cards Available for Play", "no cards in your hand", type="add", player="Ann", mission=m,
            card=t.c("Ann", 7))
    t.end("Ann")
    assert t.state.table.count(Place("hand", "Ann")) == 4


@pytest.mark.parametrize("n", [3, 4])
def test_with_three_or_four_players_the_next_player_shuffles_your_decks(n):
    """Set Up, step 2: "Let your opponent shuffle both of your decks" - with 3 or 4 players (our
    reading) the next player clockwise shuffles them, the last player's by the first."""
    from engine.table import Place
    s = Session.new("39-clues", list(PLAYERS[:n]), lib.split_by_owner(library(), PLAYERS[:n]).options())
    log = [line for line in s.public_log() if "shuffled" in line]
    expected = [f"{PLAYERS[(i + 1) % n]} shuffled {p}'s two decks." for i, p in enumerate(PLAYERS[:n])]
    assert len(log) == n and all(line.startswith(e) for line, e in zip(log, expected)), log
    for p in PLAYERS[:n]:
        assert s.state.table.count(Place("hand", p)) == 4
        assert [s.state.table.count(Place("table", p, spot)) for spot in "1234"] == [1, 1, 1, 1]


# --- Creating a Mission Stack ---------------------------------------------------------------
def test_mission_needs_an_agent_and_a_location():
    """Creating a Mission Stack: an Agent, then a Location on it."""
    t = Table()
    refused(t, "Creating a Mission Stack", "starts with an Agent", type="mission", player="Ann",
            agent=t.c("Ann", 4), location=t.c("Ann", 5))
    refused(t, "Creating a Mission Stack", "sent to a Location", type="mission", player="Ann",
            agent=t.c("Ann", 1), location=t.c("Ann", 6))
    m = t.mission("Ann", 1, 4)
    assert m == "Ann/mission/1"
    assert t.s.journal("Bob").where(t.c("Ann", 4)) == "Ann / Mission 1"


def test_secrets_and_founders_must_match_the_location_colour_or_be_black():
    """Creating a Mission Stack, step 3: same colour as the Location, or black."""
    t = Table()
    m = t.mission("Ann", 1, 4)                       # yellow Paris
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 6))     # yellow secret
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 7))     # black secret
    refused(t, "Creating a Mission Stack", "add yellow or black", type="add", player="Ann", mission=m,
            card=t.c("Ann", 13))
    refused(t, "Creating a Mission Stack", "Only Secrets and Founders", type="add", player="Ann", mission=m,
            card=t.c("Ann", 9))
    assert t.s.rules.points(t.state, t.state.missions[m]) == 4


def test_cards_added_this_turn_cannot_be_retrieved_until_the_next_turn():
    """Two Important Rules on Mission Stacks: no retrieving what was added this turn."""
    t = Table()
    m = t.mission("Ann", 1, 4)
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 6))
    refused(t, "Two Important Rules on Mission Stacks", "next turn", type="retrieve", player="Ann", mission=m,
            card=t.c("Ann", 12))
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 8))
    refused(t, "Two Important Rules on Mission Stacks", type="retrieve", player="Ann", mission=m,
            card=t.c("Ann", 12))


def test_retrieve_with_an_agent_or_location_of_the_starting_agents_colour_scores_the_stack():
    """Creating a Mission Stack, step 4: retrieve with the starting Agent's colour; all cards to the discard."""
    t = Table()
    m = t.mission("Ann", 1, 4)                       # red Agent, yellow Paris
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 6))
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 8))
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    refused(t, "Creating a Mission Stack", "red like the Agent", type="retrieve", player="Ann", mission=m,
            card=t.c("Ann", 2))
    refused(t, "Creating a Mission Stack", "red like the Agent", type="retrieve", player="Ann", mission=m,
            card=t.c("Ann", 18))                   # a yellow Location: the Location's colour does not count
    texts = t.texts(type="retrieve", player="Ann", mission=m, card=t.c("Ann", 14))     # red Location
    assert "Ann retrieved mission 1 with Red Location: 4 points (score 4)." in texts
    assert t.state.scores["Ann"] == 4 and m not in t.state.missions
    for n in (1, 4, 6, 8, 14):
        assert t.s.journal("Bob").where(t.c("Ann", n)) == "Ann / Discard pile"


def test_black_agents_retrieve_and_are_retrieved_by_any_agent():
    """Two Important Rules on Mission Stacks: black Agents retrieve and are retrieved by any Agent."""
    t = Table()
    red = t.mission("Ann", 1, 4)
    black = t.mission("Ann", 3, 5)
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    refused(t, "Creating a Mission Stack", type="retrieve", player="Ann", mission=red, card=t.c("Ann", 15))
    # a black-started mission: any Agent (here yellow) retrieves it, but not a non-black Location
    refused(t, "Creating a Mission Stack", type="retrieve", player="Ann", mission=black, card=t.c("Ann", 18))
    t.do(type="retrieve", player="Ann", mission=black, card=t.c("Ann", 15))
    # a black Agent retrieves a red mission
    t2 = Table()
    red2 = t2.mission("Ann", 1, 4)
    t2.end()
    t2.deal_turn("Bob", [25, 26, 27, 28])
    t2.do(type="retrieve", player="Ann", mission=red2, card=t2.c("Ann", 3))
    assert red2 not in t2.state.missions


def test_only_available_cards_can_be_played():
    """Cards Available for Play: not covered cards, not played cards, not discarded cards, not others' cards."""
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])            # 20..23 now covered
    t.deal_turn("Bob", [25, 26, 27, 28])
    refused(t, "Cards Available for Play", "covered", type="mission", player="Ann", agent=t.c("Ann", 20),
            location=t.c("Ann", 4))
    refused(t, "Always Keep Your Cards Separate", "belongs to Bob", type="mission", player="Ann",
            agent=t.c("Bob", 1), location=t.c("Ann", 4))
    m = t.mission("Ann", 1, 4)
    refused(t, "Cards Available for Play", "already played", type="mission", player="Ann", agent=t.c("Ann", 1),
            location=t.c("Ann", 5))
    refused(t, "Cards Available for Play", "not at", type="add", player="Ann", mission=m, card=t.c("Ann", 6),
            source="Ann/table/1")
    # the top of a table stack is available (Ann's Table 1 is Paris no. 24, red)
    t.do(type="mission", player="Ann", agent=t.c("Ann", 12), location=t.c("Ann", 24), location_source="Ann/table/1")
    # the card brought to the top is now available: Ann's green Agent under Paris
    t.do(type="mission", player="Ann", agent=t.c("Ann", 20), location=t.c("Ann", 5))


def test_money_lets_you_play_a_covered_table_card():
    """Bonus Cards: Money plays any card you dealt to the table, even a covered one."""
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])
    t.deal_turn("Bob", [25, 26, 27, 28])
    t.do(type="money", player="Ann", card=t.c("Ann", 9))
    assert "Money" in t.s.prompt().text
    t.do(type="mission", player="Ann", agent=t.c("Ann", 20), location=t.c("Ann", 4))   # green Agent, covered
    refused(t, "Cards Available for Play", "covered", type="mission", player="Ann", agent=t.c("Ann", 1),
            location=t.c("Ann", 21))                # the credit is used up
    t.end()
    assert t.state.money == 0


def test_money_offers_a_covered_replicator_for_a_mission_with_its_colour():
    """Bonus Cards: Money and Replicator: with a Money credit, a Replicator covered on your table may
    start a mission, so the table offers the mission with a Replicator (its colour said); before,
    only the plain mission was offered and a family could not say the Replicator's colour."""
    library_ = lib.Library("Test cards")            # the only Replicator: a two-sided one
    for number, name, kind, colour, points, sides in CARDS:
        if kind != "replicator":
            library_ = lib.register(library_, number, name, kind, colour, points=points, sides=sides, copies=4)
    library_ = lib.register(library_, 30, "Replicator 2", "replicator", None, points=0, sides=2, copies=4)
    t = Table(lib_=library_, table={"Ann": [21, 30, 22, 23], "Bob": [22, 23, 24, 29]})
    t.deal_turn("Ann", [25, 26, 27, 28])             # the Replicator is covered on Ann's Table 2
    t.deal_turn("Bob", [21, 26, 27, 28])
    assert [o.label for o in t.s.prompt().options if o.action == "mission"] == ["Start a mission (Agent + Location)"]
    t.do(type="money", player="Ann", card=t.c("Ann", 9))
    missions = [o for o in t.s.prompt().options if o.action == "mission"]
    assert [o.label for o in missions][-1] == "Start a mission with a Replicator (say its colour)"
    t.do(type="mission", player="Ann", agent=t.c("Ann", 25), location=t.c("Ann", 30), colour="blue",
         agent_source="Ann/table/1", location_source="Ann/table/2")


# --- Interference -----------------------------------------------------------------------------
def _bob_has_blue_mission(t: Table, immune: bool = False) -> str:
    """Ann deals; Bob sends his blue Agent to blue Rome (+ blue secret, or a black one)."""
    t.deal_turn("Ann", [24, 25, 26, 27])
    m = t.mission("Bob", 2, 5)
    t.do(type="add", player="Bob", mission=m, card=t.c("Bob", 13 if immune else 7))
    t.end("Bob")
    return m


def test_sabotage_with_an_agent_of_the_locations_colour():
    """Interference: Sabotage - the stack goes to its owner's discard pile, no points, the Agent to yours."""
    t = Table()
    m = _bob_has_blue_mission(t)
    refused(t, "Interference: Sabotage", "must be blue", type="sabotage", player="Ann", mission=m,
            card=t.c("Ann", 1))
    t.do(type="sabotage", player="Ann", mission=m, card=t.c("Ann", 2))
    assert t.s.prompt().player == "Bob"              # asked first: Bob may hold Prestige
    texts = t.texts(type="allow", player="Bob")
    assert any("sabotaged Bob's mission 1" in x for x in texts)
    assert t.state.scores == {"Ann": 0, "Bob": 0}
    j = t.s.journal("Ann")
    assert j.where(t.c("Bob", 5)) == "Bob / Discard pile" and j.where(t.c("Ann", 2)) == "Ann / Discard pile"


def test_sabotage_refused_for_immune_stacks_replicators_own_stacks_and_agents_in_play():
    """Interference: Sabotage - all one colour is immune; Bonus Cards: Replicator never sabotages."""
    t = Table()
    m = _bob_has_blue_mission(t, immune=True)
    refused(t, "Interference: Sabotage", "immune", type="sabotage", player="Ann", mission=m, card=t.c("Ann", 2))
    refused(t, "Bonus Cards: Replicator", type="sabotage", player="Ann", mission=m, card=t.c("Ann", 11))
    own = t.mission("Ann", 1, 4)
    refused(t, "Interference: Sabotage", "your own", type="sabotage", player="Ann", mission=own,
            card=t.c("Ann", 15))
    t.mission("Ann", 2, 17)                           # Ann's blue Agent is now on a mission
    refused(t, "Interference: Sabotage", "already in play", type="sabotage", player="Ann", mission=m,
            card=t.c("Ann", 2))


def test_a_replicator_in_a_one_colour_stack_breaks_immunity():
    """Interference: Sabotage - immune means one colour *with no Replicator*."""
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])
    m = t.mission("Bob", 11, 5, agent_colour="blue")       # Replicator declared a blue Agent, blue Rome
    t.end("Bob")
    assert not t.s.rules.immune(t.state, t.state.missions[m])
    t.do(type="sabotage", player="Ann", mission=m, card=t.c("Ann", 2))
    t.do(type="allow", player="Bob")
    assert m not in t.state.missions


def test_steal_the_same_location_scores_even_an_immune_stack():
    """Interference: Stealing - same Location; immune stacks can still be stolen."""
    t = Table()
    m = _bob_has_blue_mission(t, immune=True)
    refused(t, "Interference: Stealing", "same Location: Rome", type="steal", player="Ann", mission=m,
            card=t.c("Ann", 4))
    t.do(type="steal", player="Ann", mission=m, card=t.c("Ann", 5))
    t.do(type="allow", player="Bob")
    assert t.state.scores["Ann"] == 2
    assert t.s.journal("Ann").where(t.c("Bob", 13)) == "Bob / Discard pile"
    assert t.s.journal("Ann").where(t.c("Ann", 5)) == "Ann / Discard pile"


def test_the_same_location_means_the_same_printed_name():
    """Interference: Stealing - our reading: the same name, whatever the number or colour."""
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])
    m = t.mission("Bob", 2, 4)                       # Bob's yellow Paris (no. 4)
    t.end("Bob")
    t.do(type="steal", player="Ann", mission=m, card=t.c("Ann", 24), source="Ann/table/1")   # red Paris (no. 24)
    t.do(type="allow", player="Bob")
    assert m not in t.state.missions


def test_replicator_location_cannot_be_stolen_and_replicator_cannot_steal():
    """Bonus Cards: Replicator - never for stealing; a Replicator Location is no Location to match."""
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])
    m = t.mission("Bob", 2, 11, location_colour="yellow")
    t.end("Bob")
    refused(t, "Interference: Stealing", "Replicator", type="steal", player="Ann", mission=m, card=t.c("Ann", 4))
    m2 = t.mission("Ann", 1, 4)
    t.end("Ann")
    refused(t, "Bonus Cards: Replicator", "stealing", type="steal", player="Bob", mission=m2, card=t.c("Bob", 11))


def test_prestige_blocks_sabotage_both_cards_discarded_mission_stays():
    """Bonus Cards: Prestige - the target is asked before the sabotage resolves."""
    from engine.table import Place
    t = Table()
    m = _bob_has_blue_mission(t)
    t.do(type="sabotage", player="Ann", mission=m, card=t.c("Ann", 2))
    refused(t, "Bonus Cards: Prestige", "Bob must first say", type="end_turn", player="Ann")
    refused(t, "Bonus Cards: Prestige", "Only a Prestige", type="block", player="Bob", card=t.c("Bob", 9))
    texts = t.texts(type="block", player="Bob", card=t.c("Bob", 10))
    assert any("Bob blocked the sabotage" in x for x in texts)
    assert m in t.state.missions
    assert t.s.journal("Ann").where(t.c("Bob", 10)) == "Bob / Discard pile"
    assert t.s.journal("Ann").where(t.c("Ann", 2)) == "Ann / Discard pile"
    assert t.state.table.count(Place("hand", "Bob")) == 4      # Bob draws a replacement at once
    assert t.s.prompt().player == "Ann"


def test_prestige_blocks_a_steal_and_is_useless_otherwise():
    """Bonus Cards: Prestige blocks stealing too; it is played only to block."""
    t = Table()
    m = _bob_has_blue_mission(t)
    refused(t, "Bonus Cards: Prestige", "only to block", type="block", player="Ann", card=t.c("Ann", 10))
    t.do(type="steal", player="Ann", mission=m, card=t.c("Ann", 5))
    t.do(type="block", player="Bob", card=t.c("Bob", 10))
    assert t.state.scores["Ann"] == 0 and m in t.state.missions


def test_no_question_when_the_target_cannot_have_a_prestige():
    """Bonus Cards: Prestige - asked only when the target could hold one (counted from public facts)."""
    small = lib.Library("No prestige")
    for number, name, kind, colour, points, sides in CARDS:
        if kind == "prestige":
            name, kind, colour, points = f"Spare {name}", "secret", "green", 1
        small = lib.register(small, number, name, kind, colour, points=points, sides=sides, copies=2)
    t = Table(2, lib_=small)
    m = _bob_has_blue_mission(t)
    texts = t.texts(type="sabotage", player="Ann", mission=m, card=t.c("Ann", 2))
    assert any("no Prestige card" in x for x in texts) and m not in t.state.missions


def test_replicator_as_location_declares_its_colour():
    """Bonus Cards: Replicator - a Location of any colour: the declared colour decides what may be added."""
    t = Table()
    refused(t, "Bonus Cards: Replicator", "Say which colour", type="mission", player="Ann", agent=t.c("Ann", 1),
            location=t.c("Ann", 11))
    refused(t, "Bonus Cards: Replicator", "only a Replicator", type="mission", player="Ann", agent=t.c("Ann", 1),
            location=t.c("Ann", 4), location_colour="blue")
    m = t.mission("Ann", 1, 11, location_colour="blue")
    t.do(type="add", player="Ann", mission=m, card=t.c("Ann", 13))       # blue secret fits the declared colour
    refused(t, "Creating a Mission Stack", type="add", player="Ann", mission=m, card=t.c("Ann", 6))
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    t.do(type="retrieve", player="Ann", mission=m, card=t.c("Ann", 12))
    assert t.state.scores["Ann"] == 2


def test_replicator_retrieves_any_mission():
    """Bonus Cards: Replicator - used to retrieve a mission stack, whatever its colour."""
    t = Table()
    m = t.mission("Ann", 2, 5)
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    t.do(type="retrieve", player="Ann", mission=m, card=t.c("Ann", 11))
    assert m not in t.state.missions


# --- running out, winning, 3-4 players ------------------------------------------------------
def test_empty_two_sided_deck_is_reshuffled_from_the_discard_pile_during_a_deal():
    """Cards Available for Play: a deck that runs out is rebuilt from that kind of the discard pile."""
    from engine.table import Place
    t = Table()
    t.deal_turn("Ann", [24, 25, 26, 27])            # Ann's two-sided deck: 28, 29 left
    t.deal_turn("Bob", [25, 26, 27, 28])
    t.do(type="money", player="Ann", card=t.c("Ann", 28), source="Ann/deck/two")    # from the deck's top
    t.end()
    t.do(type="deal", player="Bob")                 # Bob's deck held two cards
    for spot, n in zip("12", (20, 29)):
        t.do(type="reveal", player="Bob", place=f"Bob/table/{spot}", card=t.c("Bob", n))
    t.end("Bob")
    texts = t.texts(type="deal", player="Ann")
    assert texts[0] == "Ann's two-sided deck ran out: Bob shuffled the 1 two-sided card of Ann's discard pile into a new deck."
    assert "Ann dealt 2 cards from the two-sided deck onto the table. (The two-sided cards ran out.)" in texts
    assert t.s.prompt().option("reveal").targets["place"] == ("Ann/table/1", "Ann/table/2")
    refused(t, "Set Up", "already at", type="reveal", player="Ann", place="Ann/table/1", card=t.c("Ann", 24))
    t.do(type="reveal", player="Ann", place="Ann/table/1", card=t.c("Ann", 29))
    t.do(type="reveal", player="Ann", place="Ann/table/2", card=t.c("Ann", 28))
    assert t.state.table.count(Place("deck", "Ann", "two")) == 0


def test_empty_one_sided_deck_is_reshuffled_as_soon_as_discards_can_refill_it():
    """Cards Available for Play: draw what is left, then the opponent shuffles the discards into a new deck."""
    from engine.table import Place
    ann = [f"n{n}" for n in (1, 4, 6, 7, 12, 20, 21, 22, 23, 24, 25)]       # five one-sided cards
    bob = [k for k, _, _ in library(2).physical() if k.endswith("-c2")]
    t = Table(2, lib_=library(2), picks={"Ann": ann, "Bob": bob})
    t.mission("Ann", 1, 4)
    texts = t.texts(type="end_turn", player="Ann")
    assert "Ann drew 1 card from the one-sided deck." in texts
    assert t.state.table.count(Place("hand", "Ann")) == 3
    t.deal_turn("Bob", [25, 26, 27, 28])
    texts = t.texts(type="retrieve", player="Ann", mission="Ann/mission/1", card=t.c("Ann", 12))
    assert "Ann's one-sided deck ran out: Bob shuffled the 3 one-sided cards of Ann's discard pile into a new deck." in texts
    assert t.s.journal("Bob").where(t.c("Ann", 12)) == "Ann / Deck or hand"
    t.end()
    assert t.state.table.count(Place("hand", "Ann")) == 4
    assert t.state.table.count(Place("deck", "Ann", "one")) == 1


def test_first_to_39_wins_at_once():
    """Your Mission: the first to collect 39 points wins, at once."""
    t = Table()
    m1 = t.mission("Ann", 3, 4)                       # black Agent, yellow Paris
    t.do(type="add", player="Ann", mission=m1, card=t.c("Ann", 16))      # black founder, 20 points
    t.do(type="add", player="Ann", mission=m1, card=t.c("Ann", 7))       # black secret, 1 point
    t.end()
    t.deal_turn("Bob", [25, 26, 27, 28])
    m2 = t.mission("Ann", 1, 14)                      # red Agent, red Location
    t.do(type="add", player="Ann", mission=m2, card=t.c("Ann", 19))      # black founder, 19 points
    t.do(type="retrieve", player="Ann", mission=m1, card=t.c("Ann", 15))  # any Agent retrieves a black one
    assert t.state.scores["Ann"] == 21 and t.s.outcome is None
    t.end()
    t.deal_turn("Bob", [20, 29, 24, 22])
    texts = t.texts(type="retrieve", player="Ann", mission=m2, card=t.c("Ann", 12))
    assert t.state.scores["Ann"] == 40
    assert t.s.outcome.winners == ("Ann",) and t.s.outcome.losers == ("Bob",)
    assert "first to 39 wins" in texts[-1]
    refused(t, "Your Mission", "over", type="end_turn", player="Ann")
    assert t.s.prompt().player is None


def test_three_and_four_players_any_opponent_is_a_target_and_play_goes_clockwise():
    """Interference with 3-4 players: our reading - any opponent's stack; the stack's owner answers."""
    t = Table(4)
    assert [t.s.current] == ["Ann"]
    t.deal_turn("Ann", [24, 25, 26, 27])
    assert t.s.current == "Bob"
    m = t.mission("Bob", 1, 5)                       # red Agent, blue Rome
    t.end("Bob")
    assert t.s.current == "Cyd"
    t.do(type="sabotage", player="Cyd", mission=m, card=t.c("Cyd", 2))
    assert t.s.prompt().player == "Bob"
    t.do(type="allow", player="Bob")
    t.end("Cyd")
    assert t.s.current == "Dee"
    t.deal_turn("Dee", [20, 21, 22, 27])
    assert t.s.current == "Ann"


def test_journal_counts_unplayed_cards_and_threats():
    """The journal: deck and discard counts, what each deck has played, threats and retrieval chances."""
    t = Table()
    m = _bob_has_blue_mission(t)
    j = t.s.journal("Ann", "hints")
    kinds = [d.kind for d in j.deductions]
    assert kinds.count("counts") == 2
    threat = [d.text for d in j.deductions if d.kind == "threat"]
    assert any("can be stolen with a Rome Location" in x for x in threat), threat
    assert any("sabotaged with a blue Agent" in x for x in threat), threat
    unplayed = next(d for d in j.deductions if d.kind == "unplayed")
    assert "Rome" in unplayed.text
    bob = t.s.journal("Bob", "full")
    danger = [d.text for d in bob.deductions if d.kind == "danger"]
    assert danger and "stolen by Ann" in danger[0]
    retrieve = next(d for d in bob.deductions if d.kind == "retrieve")
    assert "chance" in retrieve.data and retrieve.data["mission"] == m
    assert t.s.journal("Ann", "notes").deductions == ()
    assert j.where(t.c("Ann", 4)) == "Ann / Deck or hand"
    assert j.where(t.c("Bob", 5)) == "Bob / Mission 1"


def test_hands_are_never_named_before_they_are_played():
    """Hands are private and never scanned: nothing names a hand card until it is played."""
    t = Table()
    shared = " ".join(t.s.public_log() + t.s.undo_history() + t.s.log_for("Bob"))
    one_sided = [name for number, name, *_ in CARDS if number < 20 and number != 4]   # (Paris no. 24 is on Bob's table)
    assert not [name for name in one_sided if name in shared]
    for viewer in (None, "Ann", "Bob"):
        assert all(c.card is None for c in t.s.view(viewer).cards if c.place in ("Ann/hand", "Bob/hand"))
    t.mission("Ann", 1, 4)
    assert "Ann sent Red Agent A to Paris (mission 1)." in t.s.public_log()


def test_place_words_say_places_and_colours_as_a_player_would():
    t = Table()
    words = t.s.rules.place_words
    assert words(t.state, "Ann/hand", "Ann") == "your hand"
    assert words(t.state, "Bob/table/2", "Ann") == "Bob's Table 2 stack"
    assert words(t.state, "Ann/deck/two", None) == "Ann's two-sided deck"
    assert words(t.state, "red", "Ann") == "Red"


def test_one_colour_field_declares_whichever_card_is_the_replicator():
    """Bonus Cards: Replicator - the prompt offers a Replicator mission with its colour."""
    t = Table()
    option = [o for o in t.s.prompt().options if o.action == "mission" and "colour" in o.targets]
    assert option and option[0].targets["colour"] == tuple(sorted(t.s.rules.vocab.colours))
    refused(t, "Bonus Cards: Replicator", "neither card is a Replicator", type="mission", player="Ann",
            agent=t.c("Ann", 1), location=t.c("Ann", 4), colour="red")
    t.do(type="mission", player="Ann", agent=t.c("Ann", 1), location=t.c("Ann", 11), colour="blue")
    m = t.state.missions["Ann/mission/1"]
    assert (m.agent_colour, m.location_colour, m.location_name) == ("red", "blue", None)
