"""Properties of every random legal Sudds & Malone game (the game's Simulator plays it).

After every action: bullets and cards are conserved, the end-of-turn limits hold between turns,
each score is the sum of its sources, no journal states something false or something its player
did not see, the shared screen never names a face-down suspect or a kept hunch; reopening the game
file gives the identical game; undo gives back exactly the views before; and (issue 27,
:mod:`tests.engine.privacy`) a game and its twin that differ only in one player's private read (the card
taken while investigating, a peek, hunch cards drawn or kept) show everyone else the same prompt, offered
actions, table, public log and journals. ``GUMSHOE_LONG=1`` plays many more games.
"""

from __future__ import annotations

import json
import os
import re
from collections import Counter
from fractions import Fraction

import pytest

from engine.errors import RuleViolation
from engine.games.sudds_malone.state import LIMITS, SOURCES
from engine.session import Session

LONG = os.environ.get("GUMSHOE_LONG") == "1"
GAMES = {2: 60, 3: 60, 4: 60} if LONG else {2: 2, 3: 1, 4: 1}
PLAYERS = ("Ann", "Bob", "Cyd", "Dee")


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


class Watch:
    def __init__(self, s: Session, sim) -> None:
        self.s, self.sim = s, sim
        self.rules = s.rules
        self.suspects = {c.id: c.name for c in self.rules.deck.of_kind("suspect")}
        self.hunches = {c.id: c.name for c in self.rules.deck.of_kind("hunch")}
        self.saw: dict[str | None, set[str]] = {p: set() for p in (*s.players, None)}
        self._patterns: dict[int, re.Pattern] = {}
        self.logged = 0
        self.n = len(s.players)
        self.inputs: list[dict] = []
        self.swaps = 0
        self.note(s.log)

    def named(self, text: str, table: dict[str, str]) -> set[str]:
        pattern = self._patterns.get(id(table))
        if pattern is None:
            words = sorted((*table.values(), *table), key=len, reverse=True)
            pattern = self._patterns[id(table)] = re.compile("|".join(re.escape(w) + r"(?!\d)" for w in words))
        back = {n: c for c, n in table.items()}
        return {back.get(m, m) for m in pattern.findall(text)}

    def note(self, events) -> None:
        for e in events:
            blob = e.text + " " + json.dumps(dict(e.data), sort_keys=True, default=str)
            cards = self.named(blob, self.suspects) | self.named(blob, self.hunches)
            if e.visibility.scope == "public":
                for v in self.saw:
                    self.saw[v] |= cards
            elif e.visibility.scope == "private":
                for p in e.visibility.players:
                    self.saw[p] |= cards

    def fail(self, what: str) -> None:
        raise AssertionError(what + "\nlast inputs:\n" + "\n".join(json.dumps(a) for a in self.inputs[-6:]))

    def check(self) -> None:
        st, rules = self.s.state, self.rules
        # bullets: Game Setup 17 (2 each and 4 on the board, no more ever)
        bullets = st.board_bullets + sum(b.bullets for b in st.boards.values())
        if bullets != 2 * self.n + 4 or st.board_bullets < 0:
            self.fail(f"bullets not conserved: {bullets}")
        # Flimflam cards: city + Conspiracy + deck + above the cabinets = 24, each once
        ffs = [c for c in st.city.values() if c] + list(st.covers.values()) + st.ff_deck + [
            c for b in st.boards.values() for c in b.above if rules.kind_of(c) == "flimflam"]
        if sorted(ffs) != sorted(c.id for c in rules.deck.of_kind("flimflam")):
            self.fail(f"Flimflam cards not conserved: {Counter(ffs).most_common(2)}, {len(ffs)}")
        # Case cards: display + deck + hands + above + filed = cases in play
        known = list(st.display) + [c for b in st.boards.values()
                                    for c in (*b.hand_known, *b.filed, *(x for x in b.above if rules.kind_of(x) == "case"))]
        if len(known) != len(set(known)) or not set(known) <= set(st.cases_in_play):
            self.fail("a Case card is in two places")
        total = len(known) + st.case_deck + sum(b.hand_unknown for b in st.boards.values())
        if total != len(st.cases_in_play) or st.case_deck < 0:
            self.fail(f"Case cards not conserved: {total} != {len(st.cases_in_play)}")
        # hunch cards
        # hunch cards: one token each, each where the cards really are; kept ones as their owner read them
        hunch_tokens = [t for t, info in st.table.tokens.items() if info.kind == "hunch"]
        if sorted(self.sim.truth.cards[t] for t in hunch_tokens) != sorted(st.hunches_in_play):
            self.fail("hunch cards not conserved")
        for p, b in st.boards.items():
            held = sorted(self.sim.truth.cards[t] for t in st.table.at(_parse(f"{p}/hunches", self.s.players)))
            if held != sorted(b.hunches):
                self.fail(f"{p}'s kept hunches {b.hunches} are not the cards in front of them {held}")
        # suspects: 12 tokens
        if len(st.table.tokens) - len(hunch_tokens) != 12:
            self.fail("suspect cards created or lost")
        # limits between turns (End of Turn)
        acting = st.current if st.phase in ("pending", "after", "limits") else None
        for p, b in st.boards.items():
            if p != acting:
                have = {"above": len(b.above), "hand": b.hand, "bullets": b.bullets, "evidence": b.evidence_total}
                if any(have[k] > LIMITS[k] for k in LIMITS):
                    self.fail(f"{p} over the end-of-turn limits between turns: {have}")
        # scores = sum of sources
        for p, b in st.boards.items():
            if b.score != sum(b.sources[s] for s in SOURCES):
                self.fail(f"{p}'s score {b.score} is not the sum of its sources {b.sources}")
        # journals: true, and only what that player saw
        truth = self.sim.truth.cards
        for p in self.s.players:
            j = self.s.journal(p, "full")
            for e in j.entries:
                if e.place is not None:
                    there = [truth[t] for t in st.table.at(_parse(e.place, self.s.players))]
                    if e.card not in there:
                        self.fail(f"{p}'s journal puts {e.name} at {e.where}, which is not true")
                if e.where != "Unknown" and e.card not in self.saw[p]:
                    self.fail(f"{p}'s journal names {e.name}, which {p} was never shown")
            for d in j.deductions:
                if d.kind == "makeup":
                    dist = {k: Fraction(v) for k, v in d.data["makeup"].items()}
                    real = Counter(rules.role[truth[st.table.top(_parse(f"conspiracy/{i}", ()))]] for i in (1, 2, 3, 4))
                    key = f"{real['mole']},{real['rat']},{real['frog']}"
                    if sum(dist.values()) != 1 or dist.get(key, 0) == 0:
                        self.fail(f"{p}'s make-up odds rule out the true Conspiracy {key}: {dist}")
        # the shared screen: no face-down suspect, no kept hunch before the end
        fresh = [e.text for e in self.s.log[self.logged:] if e.visibility.scope == "public"]
        self.logged = len(self.s.log)
        shared = " ".join(fresh + self.s.undo_history()[-1:] + [repr(self.s.prompt())])
        for c in self.named(shared, self.suspects):
            tok = next(t for t, card in truth.items() if card == c)
            if not st.table.face_up(tok):
                self.fail(f"the shared screen names {self.suspects[c]}, which is face down")
        if st.phase != "over":
            for c in self.named(shared, self.hunches):
                if any(c in b.hunches for b in st.boards.values()):
                    self.fail(f"the shared screen names the kept hunch {self.hunches[c]}")

    def step(self) -> None:
        action = self.sim.random_action(self.s)
        self.inputs.append(action)
        noted = self.s.state.city.get(action["path"][-1]) if action["type"] == "investigate" else None
        events = self.s.apply(action)
        self.note(events)
        self.check()
        for e in events:         # Investigate 1: the face read covers the suspect its back names
            if e.type == "flimflam_face":
                self.swaps += 1
                card = e.data["card"]
                if self.s.state.covers.get(self.rules.ff(card).cover) != card or card == noted:
                    self.fail(f"the face read {card} does not cover its suspect")
                f, n = self.rules.ff(card), self.rules.ff(noted)
                if (f.back, f.cover) != (n.back, n.cover):
                    self.fail(f"{card} was exchanged with a card of another back")


def _parse(place: str, players):
    from engine.table import Place
    return Place.parse(place, players)


def play(n: int, seed: int, path=None) -> Watch:
    s = Session.new("sudds-malone", list(PLAYERS[:n]), {"box_file": None}, path=path)
    w = Watch(s, s.rules.simulator(s.initial, seed))
    while s.outcome is None:
        w.step()
    return w


@pytest.mark.parametrize("n", [2, 3, 4])
def test_random_games_keep_every_property(n):
    for seed in range(GAMES[n]):
        w = play(n, seed)
        assert w.s.outcome is not None
        st = w.s.state
        final = {p: st.final[p] for p in w.s.players}
        for p in w.s.players:
            assert st.boards[p].sources["tokens"] == final[p]["tokens"]
        assert w.swaps, "no Flimflam turned up as another card with its back: the face read is never tried"


def view_of(s: Session):
    return [s.view(p) for p in (*s.players, None)]


def test_resume_gives_the_identical_game_and_undo_restores_the_views(tmp_path):
    path = tmp_path / "g.gumshoe"
    s = Session.new("sudds-malone", ["Ann", "Bob", "Cyd"], {"box_file": None}, path=path)
    sim = s.rules.simulator(s.initial, 7)
    for i in range(400):
        if s.outcome is not None:
            break
        before = view_of(s)
        s.apply(sim.random_action(s))
        if i % 37 == 0:
            after = view_of(s)
            s.undo()
            assert view_of(s) == before
            s.redo()
            assert view_of(s) == after
    final = view_of(s)
    s.close()
    again = Session.resume(path)
    assert view_of(again) == final
    again.close()


def test_a_refused_action_changes_nothing():
    s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
    sim = s.rules.simulator(s.initial, 3)
    for _ in range(60):
        s.apply(sim.random_action(s))
    before = view_of(s)
    for bad in ({"type": "take_die", "player": s.prompt().player, "die": "nope"},
                {"type": "end_turn", "player": "Nobody"},
                {"type": "improve", "player": s.prompt().player, "tracks": ["office"] * 9},
                {"type": "reveal", "player": s.prompt().player, "cards": []}):
        with pytest.raises(RuleViolation):
            s.apply(bad)
    assert view_of(s) == before


TWIN_GAMES = 20 if LONG else 1


@pytest.mark.parametrize("n", [2, 3, 4])
def test_a_private_read_changes_nothing_anyone_else_sees(n):
    """Investigate, step 2 ("place it face down in front of you"), Calendar and The Office (peek "secretly"),
    Close Cases ("secretly choose and keep only one hunch card"), issue 27: every private read of a random
    game gets a twin with another card (a stoolie for a suspect, one nobody saw, or the reader's own mix-up,
    confirmed); for the next moves both show everyone else the same prompt, offered actions, table, public
    log and journals. (The shared screen offered "Use a stoolie" exactly when the card taken was one, and
    another player's journal said whether a hunch card they had seen was the one kept.)"""
    from .privacy import play_with_twins
    made = 0
    for seed in range(TWIN_GAMES):
        s = Session.new("sudds-malone", list(PLAYERS[:n]), {"box_file": None})
        made += play_with_twins(s, 70 * n + seed, max_actions=3000, label=f"sudds twins seed={70 * n + seed} n={n}").made
    assert made >= 15 * TWIN_GAMES, f"only {made} private reads got a twin"


def test_the_twin_check_catches_the_stoolie_offer_of_issue_27(monkeypatch):
    """The check can fail: with the stoolie offered only to a stoolie's holder (as before issue 27), the
    offered actions of a game and its twin differ and the check says so."""
    from engine.game import Option
    from engine.games.sudds_malone import view
    from engine.table import Place

    from .privacy import Leak, play_with_twins

    def holders_only(rules, state, p):
        know = state.knowledge[p]
        if any(rules.role.get(know.card_at(t) or "") == "stoolie" for t in state.table.at(Place("found", owner=p))):
            return (Option("use_stoolie", "Use a stoolie ($1, peek)", {}, {}, private=True),)
        return ()

    monkeypatch.setattr(view, "_stoolie_option", holders_only)
    with pytest.raises(Leak, match="offered actions differ"):
        for seed in range(4):
            play_with_twins(Session.new("sudds-malone", ["Ann", "Bob", "Cyd"], {"box_file": None}), seed,
                            max_actions=3000, label=f"self-test {seed}")
