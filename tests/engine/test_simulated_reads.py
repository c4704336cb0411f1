"""Issue 28, items 3 and 4, in the engine: which cards can lie at a place (``Rules.candidates``), the
copies of a card, and the simulated table showing the card each question asks for.

Every card read in random games of the five games is asked of the simulated table the way the
demo asks it ("Show it to the simulated camera"): the cards it shows must make an action the rules
accept, for every card power (Ted Hinton, Money, Replicator, Prestige, stoolies, every warrant
kind, an accusation's calls). And a list shown to one player (or on the shared screen) never
depends on another player's private looks.
"""

from __future__ import annotations

import random

import pytest

from engine.game import action_from_json
from engine.knowledge import EVERYONE, REFEREE, Knowledge
from engine.session import Session

GAMES = [("carmen-cards", 3), ("bonnie-clyde", 2), ("39-clues", 2), ("sudds-malone", 2), ("carmen-usa", 3)]
NAMES = ["Ann", "Bob", "Cy", "Dee"]


def table_reads(game: str, action: dict) -> list[tuple[str, str]]:
    """The reads a game's own table asks for (desktop/tables), for actions it builds itself."""
    p, kind = action.get("player"), action.get("type")
    if game == "bonnie-clyde" and kind in ("hinton", "discard"):
        return [("card", f"{p}/hand")]
    if game == "sudds-malone":
        if kind == "investigate" and action.get("found"):
            return [("found", f"city/{action['path'][-1]}")]
        if kind == "peek":
            return [("card", f"conspiracy/{action['position']}")]
        if kind == "use_stoolie" and action.get("stoolie"):
            return [("stoolie", f"{p}/found")]
        if kind == "keep_hunch":
            return [("card", f"{p}/drawn")]
        if kind == "buy_hunch":
            return [("card", "pile/hunch")]
    return []


def reads_of(session, game: str, action: dict) -> list[tuple[str, str]]:
    """The card reads of ``action``: its prompt option's, or its table's own."""
    if game == "sudds-malone":      # its table reads every card itself
        return table_reads(game, action)
    options = [o for o in session.prompt().options if o.action == action["type"]]
    if len(options) > 1:             # two options of one action (a mission with or without a Replicator)
        options = [o for o in options if set(o.targets) <= set(action)] or options
    if options and options[-1].reads:
        return [(card, str(action[place])) for card, place in options[-1].reads.items() if place in action]
    return table_reads(game, action)


def power(game: str, action: dict, rules, state) -> str | None:
    """The card power an action uses, by this test's names."""
    kind = action["type"]
    if game == "bonnie-clyde" and kind == "hinton":
        return f"Ted Hinton ({action['use']})"
    if game == "39-clues":
        if kind in ("money", "block"):
            return {"money": "Money", "block": "Prestige"}[kind]
        if kind == "mission" and any(rules.info(state, action[f])["type"] == "replicator"
                                     for f in ("agent", "location")):
            return "Replicator"
    if game == "sudds-malone" and kind in ("use_stoolie", "moxie"):
        return {"use_stoolie": "stoolie", "moxie": "Moxie"}[kind]
    if game == "carmen-cards" and kind in ("warrant", "final_warrant"):
        return kind
    if game == "carmen-usa" and kind == "call":
        return f"call ({state.phase})"
    return None


POWERS = {
    "bonnie-clyde": {"Ted Hinton (draw)", "Ted Hinton (take)", "Ted Hinton (look)"},
    "39-clues": {"Money", "Prestige", "Replicator"},
    "sudds-malone": {"stoolie", "Moxie"},
    "carmen-cards": {"warrant", "final_warrant"},
    "carmen-usa": {"call (accusing_loot)", "call (accusing_crook)"},
}


@pytest.mark.parametrize("game,players", GAMES)
def test_the_simulated_table_shows_the_card_every_read_asks_for(game, players):
    """For every read the random games make, the cards the simulated table shows (the demo's camera
    button) are accepted by the rules: the Ted Hinton of a hand, not its top card; an Agent for a
    mission's Agent; a Prestige to block. Every card power of the game comes up."""
    seen: set[str] = set()
    reads_checked = 0
    for seed in range(1, 40):
        session = Session.new(game, NAMES[:players], {"demo_seed": seed})
        sim = session.rules.simulator(session.initial, seed)
        for _ in range(600):
            if session.outcome is not None:
                break
            action = sim.random_action(session)
            reads = reads_of(session, game, action)
            if reads:
                base = {k: v for k, v in action.items() if k not in {f for f, _ in reads} and k != "confirm"}
                shown = sim.shown_cards(session, base, reads)
                assert set(shown) == {f for f, _ in reads}, (action, shown)
                tried = action_from_json({**base, **shown}, session.rules.actions)
                session.rules.apply(session.state.clone(), tried)        # accepted (else RuleViolation)
                reads_checked += 1
            name = power(game, action, session.rules, session.state)
            if name:
                seen.add(name)
            session.apply(action)
        if POWERS[game] <= seen and reads_checked > 100:
            break
    assert POWERS[game] <= seen, f"never reached: {POWERS[game] - seen}"


def forget_privately(state, keep: str | None):
    """A copy of ``state`` in which every player but ``keep`` forgot what they saw privately: only
    what everyone saw together stays in their notes."""
    copy = state.clone()
    for observer in copy.knowledge:
        if observer in (keep, EVERYONE, REFEREE):
            continue
        fresh = Knowledge()
        public = copy.knowledge[EVERYONE]
        for token, card in public.known.items():
            fresh.learn(token, card)
        copy.knowledge[observer] = fresh
    groups = getattr(copy, "groups", None)
    if isinstance(groups, dict):
        copy.groups = {o: g for o, g in groups.items() if o in (keep, EVERYONE)}
    return copy


@pytest.mark.parametrize("game,players", GAMES)
def test_a_list_never_tells_what_another_player_saw(game, players):
    """Privacy: the cards listed for a place on the shared screen depend only on what everyone saw;
    those listed behind the gate for Ann only on what everyone and Ann saw: another player's
    private looks never change them."""
    rng = random.Random(7)
    session = Session.new(game, NAMES[:players], {"demo_seed": 3})
    sim = session.rules.simulator(session.initial, 3)
    rules = session.rules
    for step in range(400):
        if session.outcome is not None:
            break
        session.apply(sim.random_action(session))
        if step % 25:
            continue
        state = session.state
        places = sorted({str(p) for p in state.table.stacks})
        for place in rng.sample(places, min(8, len(places))):
            shared = rules.candidates(state, place)
            assert rules.candidates(forget_privately(state, None), place) == shared, place
            ann = rules.candidates(state, place, "Ann")
            assert rules.candidates(forget_privately(state, "Ann"), place, "Ann") == ann, place


def test_copies_are_one_card_for_the_rules():
    """Six identical Evidence cards of a location are copies of one card; Bonnie is only herself; in
    The 39 Clues the copies of a card number in a collection are alike, but not one in another
    player's deck."""
    session = Session.new("bonnie-clyde", ["Ann", "Bob"])
    deck = session.rules.deck
    alma = [c.id for c in deck.cards.values() if c.name == "Alma, Arkansas"]
    assert len(alma) == 6 and all(deck.copies(c) == tuple(alma) for c in alma)
    assert len({deck.copies(c.id) for c in deck.of_kind("hinton")}) == 1
    assert deck.copies(session.rules.bonnie) == (session.rules.bonnie,)
    from engine.games import rules_for
    library = rules_for("39-clues").deck            # the family's collection: every copy alike
    badger = [c.id for c in library.cards.values() if c.name == "Demo Agent Badger"]
    assert len(badger) > 1 and library.copies(badger[0]) == tuple(badger)
    game = Session.new("39-clues", ["Ann", "Bob"]).rules.deck
    badger = [c for c in game.cards.values() if c.name == "Demo Agent Badger"]
    assert {c.attrs["owner"] for c in badger} == {"Ann", "Bob"}      # each player plays only their own
    assert all(game.copies(c.id) == (c.id,) for c in badger)


def test_bonnie_and_clyde_are_never_in_a_hand_and_a_capital_never_under_a_clue_card():
    """What cannot lie at a place is not offered: an outlaw in a hand, a Capital token in a landmark's
    box, a card of another player's 39 Clues deck."""
    bc = Session.new("bonnie-clyde", ["Ann", "Bob"])
    bc.apply({"type": "deal", "player": "Ann", "card": "bonnie-clyde.evidence.location-1-a"})
    hand = bc.rules.candidates(bc.state, "Bob/hand", "Bob")
    assert not set(bc.rules.outlaws) & hand and set(bc.rules.outlaws) <= bc.rules.candidates(bc.state, "board/3")
    usa = Session.new("carmen-usa", ["Ann", "Bob"])
    box = next(str(p) for p in usa.state.table.stacks if p.area == "box")
    kinds = {usa.rules.deck.card(c).kind for c in usa.rules.candidates(usa.state, box)}
    assert kinds == {"warrant", "loot", "crook"}
    clues = Session.new("39-clues", ["Ann", "Bob"])
    assert {clues.state.owner[c] for c in clues.rules.candidates(clues.state, "Bob/hand")} == {"Bob"}


def test_a_card_face_up_that_everyone_saw_is_known():
    """Issue 28, item 5: a table card of The 39 Clues read once and lying face up is the only card a
    read of its place can be; a face-down card is not (whoever peeked)."""
    session = Session.new("39-clues", ["Ann", "Bob"])
    sim = session.rules.simulator(session.initial, 5)
    while session.state.phase == "read_setup":
        session.apply(sim.random_action(session))
    rules, state = session.rules, session.state
    for s in "1234":
        top = state.table.top(rules_place(state, f"Ann/table/{s}"))
        assert rules.face_up_card(state, f"Ann/table/{s}", {"type": "add", "player": "Ann"}, "card") == \
            state.knowledge[EVERYONE].card_at(top)
    assert rules.face_up_card(state, "Ann/hand") is None
    carmen = Session.new("carmen-cards", ["Ann", "Bob"])
    assert carmen.rules.face_up_card(carmen.state, "Ann/loot/top") is None


def rules_place(state, text: str):
    from engine.table import Place
    return Place.parse(text, state.players)
