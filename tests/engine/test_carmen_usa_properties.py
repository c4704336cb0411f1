"""Properties of every random legal "Where in the USA" game, checked after every input.

The game's simulator (``rules.simulator``) knows the true card in every box, so we hold the
engine to what a family would notice:

(a) no card is created, lost or in two places; every note anyone holds is true;
(b) no journal states something false: a card where it is not, a box "known to hold a Crook"
    that does not, an accusation "ready" that would fail, a Crook ruled out where it lies;
    every colour's Crook odds add up to 1;
(c) no private identity leaks: each screen, log, journal and the shared screen and undo history
    name only Clue Cards that viewer saw named in an event they were allowed to see;
(d) the saved game reopened is the identical game (also after undo and redo);
(e) the exact Crook odds equal a brute-force count of every world;
(f) privacy as a difference (issue 27, :mod:`tests.engine.privacy`): a game and its twin that differ only
    in one agent's secret look show everyone else the same prompt, offers, table, log and journals.

``GUMSHOE_LONG=1`` plays many more games.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from fractions import Fraction
from pathlib import Path

import pytest

from engine.errors import RuleViolation
from engine.games.carmen_usa.odds import brute_force_chances, card_chances
from engine.knowledge import REFEREE
from engine.session import Session
from engine.table import Place
from engine.worlds import card_marginals

from .test_carmen_usa_rules import UsaTable, cid

LONG = os.environ.get("GUMSHOE_LONG") == "1"
NAMES = ("Ann", "Bob", "Cy", "Di", "Ed", "Flo")
GAMES = 60 if LONG else 8
STORE_GAMES = 12 if LONG else 2
TWIN_GAMES = 40 if LONG else 6       # per player count: games whose every secret look gets a twin


class Failure(AssertionError):
    pass


class Watch:
    def __init__(self, session: Session, sim, label: str) -> None:
        self.s, self.sim, self.label = session, sim, label
        self.rules = session.rules
        self.truth = sim.truth
        self.clue_names = {c.id: c.name for c in self.rules.clues}
        self.saw: dict[str | None, set[str]] = {p: set() for p in (*session.players, None)}
        self._named: dict[str, frozenset[str]] = {}
        self.actions: list[dict] = []
        self.note(session.log)

    def fail(self, what: str) -> None:
        tail = "\n".join(json.dumps(a) for a in self.actions[-6:])
        raise Failure(f"[{self.label}, after {len(self.actions)} inputs] {what}\nlast inputs:\n{tail}")

    def named(self, text: str) -> frozenset[str]:
        hit = self._named.get(text)
        if hit is None:
            hit = self._named[text] = frozenset(c for c, n in self.clue_names.items() if n in text or c in text)
        return hit

    def note(self, events) -> None:
        for e in events:
            cards = self.named(e.text) | self.named(json.dumps(dict(e.data), default=str))
            if e.visibility.scope == "public":
                for v in self.saw:
                    self.saw[v] |= cards
            elif e.visibility.scope == "private":
                for p in e.visibility.players:
                    self.saw[p] |= cards

    def card_at(self, place: str) -> list[str]:
        return [self.truth.cards[t] for t in self.s.state.table.at(Place.parse(place, self.s.players))]

    # (a)
    def check_table(self) -> None:
        st = self.s.state
        table = st.table
        seen: set[int] = set()
        for place, stack in table.stacks.items():
            if not stack:
                self.fail(f"empty stack at {place}")
            for tok in stack:
                if tok in seen:
                    self.fail(f"token {tok} in two places")
                seen.add(tok)
        if seen != set(table.tokens) or set(self.truth.cards) != seen:
            self.fail("tokens lost or created")
        for lm in self.rules.board.ids:
            if table.count(Place("box", slot=lm)) > 1:
                self.fail(f"two cards in the box at {lm}")
        for who, know in st.knowledge.items():
            for tok, card in know.known.items():
                if self.truth.cards[tok] != card:
                    self.fail(f"{who} believes token {tok} is {card}, it is {self.truth.cards[tok]}")
        for tok in table.up:
            if st.knowledge[REFEREE].card_at(tok) is None:
                self.fail(f"token {tok} is face up but nobody knows it")

    # (b)
    def check_journal(self, player: str) -> None:
        j = self.s.journal(player, "full")
        if sorted(e.card for e in j.entries) != sorted(self.clue_names):
            self.fail(f"{player}'s journal does not list each Clue Card once")
        for e in j.entries:
            if e.place is not None and e.card not in self.card_at(e.place):
                self.fail(f"{player}'s journal puts {e.name} at {e.where}, it is not there")
        for d in j.deductions:
            data = d.data
            if d.kind == "boxes":
                if len(data["boxes"]) != 24:
                    self.fail(f"{player}'s journal lists {len(data['boxes'])} boxes, not 24")
                for box in data["boxes"]:
                    self.check_box(player, box, d.text)
            elif d.kind == "accusation_ready":
                colour = data["colour"]
                for kind in ("warrant", "loot", "crook"):
                    if self.card_at(data[kind]) != [self.rules.card_of[(kind, colour)]]:
                        self.fail(f"{player}: '{d.text}' but {data[kind]} holds {self.card_at(data[kind])}")
            elif d.kind == "crook_odds":
                odds = {k: Fraction(v) for k, v in data["odds"].items()}
                if sum(odds.values()) != 1:
                    self.fail(f"{player}: the {data['colour']} Crook's odds add up to {sum(odds.values())}")
                crook = self.rules.card_of[("crook", data["colour"])]
                at = next(str(self.s.state.table.place_of(t)) for t, c in self.truth.cards.items() if c == crook)
                if at.startswith("box/") and odds.get(at, Fraction(0)) == 0:
                    self.fail(f"{player}: '{d.text}' rules out {at}, where the {data['colour']} Crook is")
            elif d.kind != "colours_out":
                self.fail(f"unexpected deduction kind {d.kind!r}")

    def check_box(self, player: str, box: dict, text: str) -> None:
        truth = self.card_at(box["place"])
        if box["how"] == "held":
            lm_tok = self.s.state.boxes[box["landmark"]]
            if self.s.state.table.where[lm_tok].area != "hand" or self.truth.cards[lm_tok] != box["card"]:
                self.fail(f"{player}: box {box['landmark']} 'picked up' but its card is not in a hand")
            return
        if box["how"] == "empty":
            if truth:
                self.fail(f"{player}: box {box['landmark']} is 'empty' but holds {truth}")
            return
        if box["card"] is not None and truth != [box["card"]]:
            self.fail(f"{player}: box {box['landmark']} holds {box['card']}? It holds {truth} ({text})")
        kind = self.rules.kind_of(truth[0])
        if box["how"] == "crook" and kind != "crook":
            self.fail(f"{player}: box {box['landmark']} 'a Crook' but it is {truth[0]}")
        if box["how"] == "crook-or-loot" and kind == "warrant":
            self.fail(f"{player}: box {box['landmark']} 'a Crook or a Loot' but it is {truth[0]}")

    # (c)
    def check_shown(self, viewer: str | None, where: str, texts) -> None:
        for text in texts:
            bad = self.named(text) - self.saw[viewer]
            if bad:
                self.fail(f"LEAK: {viewer or 'the shared screen'}'s {where} names {sorted(bad)}: {text!r}")

    def check_views(self) -> None:
        s = self.s
        for viewer in (*s.players, None):
            v = s.view(viewer)
            self.check_shown(viewer, "screen", [f"{c.card} {c.name}" for c in v.cards if c.card])
            self.check_shown(viewer, "log", v.log[-12:])          # older lines were checked when new
            self.check_shown(viewer, "undo history", v.undo_history[-12:])
            self.check_shown(viewer, "prompt", [repr(v.prompt)])
            if viewer is not None:
                # The journal lists every card by name (a catalogue); what must not leak is where one lies.
                j = v.journal
                self.check_shown(viewer, "journal", [f"{e.card} at {e.where}" for e in j.entries if e.place])
                self.check_shown(viewer, "journal boxes", [d.text for d in j.deductions if d.kind == "boxes"])
        self.check_shown(None, "redo history", s.redo_history())

    def check_all(self) -> None:
        self.check_table()
        for p in self.s.players:
            self.check_journal(p)
        self.check_views()


def play_checked(players: int, seed: int, *, variant: str = "standard", undo_rate: float = 0.05,
                 path: Path | None = None, max_actions: int = 3000, full_every: int = 3) -> Watch:
    names = NAMES[:players]
    options = {"challenge": variant, "questions": ("red", "blue", "black")[seed % 3]}
    session = Session.new("carmen-usa", names, options, path=path)
    sim = session.rules.simulator(session.initial, seed)
    w = Watch(session, sim, f"seed={seed} players={players} variant={variant}")
    rng = random.Random(seed)
    w.check_all()
    for _ in range(max_actions):
        if w.s.outcome is not None:
            break
        r = rng.random()
        if r < undo_rate and w.s.done:
            w.actions.append({"type": "undo"})
            w.s.undo()
        elif r < 2 * undo_rate and w.s.undone:
            w.actions.append({"type": "redo"})
            before = len(w.s.log)
            w.s.redo()
            w.note(w.s.log[before:])
        else:
            action = sim.random_action(w.s)
            w.actions.append(action)
            try:
                w.note(w.s.apply(action))
            except RuleViolation as exc:
                w.fail(f"the prompt offered {action} but apply refused it: {exc}")
        if w.s.outcome is not None or len(w.actions) % full_every == 0:
            w.check_all()
        else:
            w.check_table()
    return w


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_random_games_hold_every_property_after_every_input(players):
    for k in range(GAMES // 4 or 1):
        seed = 100 * players + k
        w = play_checked(players, seed, variant="bigger" if k % 2 else "standard")
        assert w.s.outcome is not None, f"seed {seed}: the random game did not end"


def test_random_games_reach_every_ending():
    """Carmen wins, Carmen caught and Carmen escaped all happen in random play."""
    reasons = set()
    for seed in range(60 if LONG else 16):
        s = Session.new("carmen-usa", NAMES[:2 + seed % 4], {"challenge": "bigger" if seed % 3 == 0 else "standard"})
        s.rules.simulator(s.initial, seed).play(s, 5000)
        assert s.outcome is not None
        reasons.add("carmen" if not s.outcome.winners else "caught" if "caught" in s.outcome.reason else "escaped")
    assert reasons >= {"caught", "escaped"}


@pytest.mark.parametrize("players", [3, 5])
def test_reopened_game_file_is_identical_also_after_undo_and_redo(players):
    with tempfile.TemporaryDirectory() as tmp:
        for k in range(STORE_GAMES):
            path = Path(tmp) / f"g{players}-{k}.gumshoe"
            w = play_checked(players, 7000 + players * 10 + k, undo_rate=0.12, path=path, max_actions=200,
                             full_every=5)
            live = w.s
            live.close()
            again = Session.resume(path)
            try:
                for viewer in (*live.players, None):
                    assert live.view(viewer) == again.view(viewer), f"the reopened game differs for {viewer}"
                assert live.prompt() == again.prompt() and live.log == again.log
                assert live.undo_history() == again.undo_history()
                assert live.referee_view() == again.referee_view()
            finally:
                again.close()


@pytest.mark.parametrize("players", [2, 4, 6])
def test_a_secret_look_changes_nothing_anyone_else_sees(players):
    """Clue Cards ("they look at the card, memorize it, and return it ... face down, without showing it"),
    issue 27: every secret look of a random game gets a twin with another Crook (one nobody saw, or the
    agent's own mix-up, confirmed); for the next moves both show everyone else the same prompt, offered
    actions, table, public log and journals. (A mix-up used to put a second look on the shared screen.)"""
    from .privacy import new_game, play_with_twins
    made = 0
    for seed in range(TWIN_GAMES):
        s = new_game("carmen-usa", NAMES[:players])
        made += play_with_twins(s, 50 * players + seed, max_actions=1500,
                                label=f"usa twins seed={50 * players + seed} players={players}").made
    assert made >= TWIN_GAMES, f"only {made} secret looks got a twin"


def test_another_agents_private_look_never_changes_my_journal():
    """Privacy: Bob's journal is the same whichever Crook Ann privately saw (only her look is public)."""
    a = UsaTable(("Ann", "Bob"), pieces=("big-bend", "everglades"))
    b = UsaTable(("Ann", "Bob"), pieces=("big-bend", "everglades"),
                 deal={"arches": "purple-crook", "carlsbad-caverns": "orange-crook"})
    for t in (a, b):
        t.go("arches")
    assert a.s.journal("Ann") != b.s.journal("Ann")
    for assist in ("notes", "hints", "full"):
        assert a.s.journal("Bob", assist) == b.s.journal("Bob", assist)
    assert a.s.view(None).log == b.s.view(None).log


# --- (e) exact odds against brute force ---------------------------------------------------
def states_with_few_unknowns(limit: int, games: int):
    """(session, player) pairs from random games, where the player knows all but ``limit`` boxes or fewer."""
    found = 0
    for seed in range(500):
        s = Session.new("carmen-usa", NAMES[:2 + seed % 3], {"challenge": "bigger" if seed % 2 else "standard"})
        sim = s.rules.simulator(s.initial, seed)
        for _ in range(4000):
            if s.outcome is not None or s.state.phase.startswith("finale"):
                break
            s.apply(sim.random_action(s))
            for p in s.players:
                know = s.state.knowledge[p]
                unknown = [c for c in s.rules.clues if know.token_of(c.id) is None]
                if 0 < len(unknown) <= limit:
                    yield s, p
                    found += 1
                    if found >= games:
                        return
                    break


def allowed_boxes(s: Session, player: str):
    """Each box the player does not know -> the Clue Card types it may hold (read off the table)."""
    st = s.state
    know = st.knowledge[player]
    allowed = {}
    for lm in s.rules.board.ids:
        tok = st.table.top(Place("box", slot=lm))
        if tok is None or know.card_at(tok) is not None:
            continue
        looked_down = tok in st.looked and not st.table.face_up(tok)
        allowed[tok] = ({"crook", "loot"} if st.variant == "bigger" else {"crook"}) if looked_down \
            else {"warrant", "loot", "crook"}
    unknown = {c.id: c.kind for c in s.rules.clues if know.token_of(c.id) is None}
    return allowed, unknown


def test_crook_odds_equal_brute_force_on_states_of_real_games():
    checked = 0
    for s, player in states_with_few_unknowns(limit=6, games=20 if not LONG else 200):
        allowed, unknown = allowed_boxes(s, player)
        fast = card_chances({t: frozenset(k) for t, k in allowed.items()}, unknown)
        shown = s.rules.crook_chances(s.state, player)
        for card, kind in unknown.items():
            slow = brute_force_chances(allowed, unknown, card)
            assert fast[card] == slow
            if kind == "crook":
                colour = s.rules.colour_of[card]
                box = {s.state.boxes[lm]: lm for lm in s.rules.board.ids}
                assert shown[colour] == {box[t]: p for t, p in slow.items() if p}
            checked += 1
    assert checked >= 20


def test_crook_odds_equal_the_general_world_count_on_full_size_tables():
    """24 boxes are too many to list every world; engine.worlds counts them another way."""
    rng = random.Random(5)
    kinds = ("warrant", "loot", "crook")
    for _ in range(30):
        cards = {f"{k}{i}": k for k in kinds for i in range(rng.randint(1, 5))}
        tokens = list(range(len(cards)))
        truth = dict(zip(tokens, rng.sample(sorted(cards), len(cards))))
        allowed = {}
        for t in tokens:
            kind = cards[truth[t]]
            r = rng.random()
            allowed[t] = frozenset({"crook"}) if (r < 0.3 and kind == "crook") else \
                frozenset({"crook", "loot"}) if (r < 0.5 and kind != "warrant") else frozenset(kinds)
        fast = card_chances(allowed, cards)
        cands = {t: {c for c, k in cards.items() if k in allowed[t]} for t in tokens}
        for card in list(cards)[:4]:
            assert fast[card] == card_marginals(tokens, cands, set(cards), card)


def test_checkers_catch_a_false_journal_and_a_leak():
    """The checks above can fail: a lie in a journal and a private name on the shared screen."""
    s = Session.new("carmen-usa", ["Ann", "Bob"])
    sim = s.rules.simulator(s.initial, 3)
    w = Watch(s, sim, "self-test")
    while s.state.phase != "looking":
        w.note(s.apply(sim.random_action(s)))
    action = sim.random_action(s)
    w.note(s.apply(action))
    w.check_all()
    name = w.clue_names[action["card"]]
    looker = action["player"]
    other = next(p for p in s.players if p != looker)
    if w.rules.kind_of(action["card"]) == "crook":
        with pytest.raises(Failure, match="LEAK"):
            w.check_shown(other, "log", [f"{looker} saw {name}."])
    w.check_shown(looker, "log", [f"{looker} saw {name}."])
    wrong = next(c for c in w.clue_names if c != action["card"])
    w.truth = type(w.truth)({**w.truth.cards, s.state.boxes[action["box"].split("/")[1]]: wrong})
    with pytest.raises(Failure):
        w.check_all()


def test_unknown_card_chances_when_nothing_is_known():
    s = Session.new("carmen-usa", ["Ann", "Bob"])
    odds = s.rules.crook_chances(s.state, "Ann")
    assert all(len(v) == 24 and set(v.values()) == {Fraction(1, 24)} for v in odds.values())
    assert cid("orange-crook") in {c.id for c in s.rules.clues}


GARBAGE = (None, 0, -1, 3.5, "", "none", "box/narnia", "Ann/hand", "out", "map/ZZ", [], {}, True,
           "carmen-usa.capital.mn", "carmen-usa.crook.orange-crook", "capital-of.MN", "x" * 300)


def test_garbage_actions_in_every_phase_are_refused_and_change_nothing():
    """Bad input gets a clear message and changes nothing: every action type, nonsense in each field,
    sent in every phase a random game passes through (also by someone whose move it is not)."""
    from engine.errors import RuleViolation as Refused

    rng = random.Random(11)
    s = Session.new("carmen-usa", ["Ann", "Bob", "Cy"], {"challenge": "bigger"})
    sim = s.rules.simulator(s.initial, 11)
    seen_phases = set()
    checked = 0
    while s.outcome is None:
        phase = s.state.phase
        if phase not in seen_phases:
            seen_phases.add(phase)
            before = [s.view(p) for p in (*s.players, None)]
            for kind, cls in s.rules.actions.items():
                fields = [f for f in cls.__dataclass_fields__ if f != "player"]
                for _ in range(3):
                    action = {"type": kind, "player": rng.choice(["Ann", "Bob", "Cy", "Zed", None, 7])}
                    for f in fields:
                        action[f] = rng.choice(GARBAGE)
                    try:
                        s.apply(action)
                    except Refused as exc:
                        assert exc.message, action
                        checked += 1
                    else:       # a nonsense action that happens to be legal (e.g. "choices"): undo it
                        s.undo()
                    assert [s.view(p) for p in (*s.players, None)] == before, action
        s.apply(sim.random_action(s))
    assert seen_phases >= {"placing", "asking", "answering", "moving", "looking", "accusing_loot",
                           "finale_draw", "finale_clock", "finale_place"}
    assert checked > 150
