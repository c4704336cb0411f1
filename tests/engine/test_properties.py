"""Properties that must hold after every action of every random legal Carmen game.

The simulated table (:mod:`engine.sim`) knows the true identity of every token, so we
can hold the engine to what a family at the table would notice:

(a) no card is ever created, lost or in two places;
(b) no journal ever states something false (a card at a place where it is not, a
    warrant that is not ready, Carmen certain where she is not, or ruled out where she is);
(c) no private identity leaks: a player's screen, log, journal and the shared screen,
    public log and undo/redo history only ever name cards that viewer saw named in an
    event they were allowed to see;
(d) reopening the game file gives the identical game (also after undo/redo);
(e) undo restores exactly what everyone saw before the action, and redo what they saw after;
(f) privacy as a difference (issue 27, :mod:`tests.engine.privacy`): a game and its twin that differ
    only in one gumshoe's look show everyone else the same prompt, offers, table, log and journals.

Plus the exact Carmen odds (:mod:`engine.worlds`) against brute-force enumeration.

A failure message gives the seed, player count and step, so the game can be replayed
with :func:`play_checked`. ``GUMSHOE_LONG=1`` runs many more (and longer) games.
"""

from __future__ import annotations

import json
import os
import random
import tempfile
from fractions import Fraction
from pathlib import Path
from typing import Any, Iterable

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import RuleViolation
from engine.game import Assist
from engine.knowledge import REFEREE
from engine.session import Session
from engine.sim import CARMEN_WEIGHTS, Truth, random_action
from engine.table import Place
from engine.worlds import brute_force_marginals, card_marginals, count_worlds

from .privacy import Leak, play_with_twins

GAME = "carmen-cards"
PLAYERS = ("Ann", "Bob", "Cyd", "Dee")
LONG = os.environ.get("GUMSHOE_LONG") == "1"

# Normal runs stay well under a minute on two cores; GUMSHOE_LONG=1 is for benchmarks/soak.
MAX_ACTIONS = 2000 if LONG else 150
HYPO_GAMES = 300 if LONG else 8
SEEDED_GAMES = 600 if LONG else 6           # spread over 2, 3 and 4 players
STORE_GAMES = 60 if LONG else 2
FULL_GAMES = 3000 if LONG else 6            # whole games to the end, cheaper checks
TWIN_GAMES = 60 if LONG else 1              # per player count: games whose every look gets a twin


# --------------------------------------------------------------------------------------
# Helpers: what each viewer may legitimately know, and what they are shown.
# --------------------------------------------------------------------------------------
class GameFailure(AssertionError):
    pass


class Watch:
    """Follows one session: the truth, and which cards each viewer saw named in an event."""

    def __init__(self, session: Session, truth: Truth, label: str) -> None:
        self.s = session
        self.truth = truth
        self.label = label
        self.deck = session.rules.deck
        self.players = session.players
        self.names = {c.id: c.name for c in self.deck.cards.values()}
        self.mastermind = session.rules.mastermind
        # viewer (player name or None for the shared screen) -> card ids seen named
        self.saw: dict[str | None, set[str]] = {p: set() for p in (*self.players, None)}
        self.private_to: dict[str, set[str]] = {}     # card -> players who saw it privately
        self._named_cache: dict[str, frozenset[str]] = {}
        self.kind_counts = self._kind_counts()
        self.actions: list[dict] = []                 # every input, for the failure message
        self.note(session.log)

    # --- bookkeeping ---------------------------------------------------------------
    def named(self, text: str) -> frozenset[str]:
        """Card ids whose id or printed name occurs in ``text``."""
        hit = self._named_cache.get(text)
        if hit is None:
            hit = frozenset(c for c, n in self.names.items() if n in text or c in text)
            if len(self._named_cache) < 200_000:
                self._named_cache[text] = hit
        return hit

    def event_cards(self, event: Any) -> frozenset[str]:
        return self.named(event.text) | self.named(json.dumps(dict(event.data), sort_keys=True, default=str))

    def note(self, events: Iterable[Any]) -> None:
        """Record which viewers saw which cards named (events are seen when they happen)."""
        for e in events:
            cards = self.event_cards(e)
            if not cards:
                continue
            vis = e.visibility
            if vis.scope == "public":
                for viewer in self.saw:
                    self.saw[viewer] |= cards
            elif vis.scope == "private":
                for p in vis.players:
                    self.saw[p] |= cards
                for c in cards:
                    self.private_to.setdefault(c, set()).update(vis.players)
            # referee-only events are seen by nobody at the table

    def fail(self, what: str) -> None:
        tail = "\n".join(json.dumps(a) for a in self.actions[-8:])
        raise GameFailure(f"[{self.label}, after {len(self.actions)} inputs] {what}\nlast inputs:\n{tail}")

    def _kind_counts(self) -> dict[str | None, int]:
        counts: dict[str | None, int] = {}
        for info in self.s.state.table.tokens.values():
            counts[info.kind] = counts.get(info.kind, 0) + 1
        return counts

    # --- (a) the table ---------------------------------------------------------------
    def check_table(self) -> None:
        table = self.s.state.table
        placed: dict[int, Place] = {}
        for place, stack in table.stacks.items():
            if not stack:
                self.fail(f"empty stack left at {place}")
            for tok in stack:
                if tok in placed:
                    self.fail(f"token {tok} lies both at {placed[tok]} and at {place}")
                placed[tok] = place
                if table.where[tok] != place:
                    self.fail(f"token {tok} is in the stack at {place} but recorded at {table.where[tok]}")
        if set(placed) != set(table.tokens) or set(table.where) != set(table.tokens):
            self.fail(f"tokens lost or created: placed {sorted(set(placed) ^ set(table.tokens))}")
        if set(table.tokens) != set(self.truth.cards):
            self.fail("the set of physical cards changed since the deal")
        if self._kind_counts() != self.kind_counts:
            self.fail(f"cards per type changed: {self._kind_counts()} != {self.kind_counts}")
        cards = sorted(self.truth.cards[t] for t in placed)
        if cards != sorted(self.names):
            self.fail("the table does not hold every card exactly once")
        for tok, info in table.tokens.items():
            if info.kind != self.deck.card(self.truth.cards[tok]).kind:
                self.fail(f"token {tok} shows a {info.kind} back but is {self.truth.cards[tok]}")
            if info.face_up and self.s.state.knowledge[REFEREE].card_at(tok) is None:
                self.fail(f"token {tok} is face up at {placed[tok]} but nobody knows what it is")
        for who, know in self.s.state.knowledge.items():
            for tok, card in know.known.items():
                if self.truth.cards[tok] != card:
                    self.fail(f"{who} believes token {tok} at {placed[tok]} is {card}, "
                              f"but it is {self.truth.cards[tok]}")

    # --- (b) journals state only true things -----------------------------------------
    def cards_at(self, place_text: str) -> list[str]:
        place = Place.parse(place_text, self.players)
        return [self.truth.cards[t] for t in self.s.state.table.at(place)]

    def card_at(self, place_text: str, what: str) -> str:
        cards = self.cards_at(place_text)
        if len(cards) != 1:
            self.fail(f"{what} names {place_text}, which holds {len(cards)} cards")
        return cards[0]

    def check_journal(self, player: str, journal: Any) -> None:
        who = f"{player}'s journal"
        ids = [e.card for e in journal.entries]
        if sorted(ids) != sorted(self.names) :
            self.fail(f"{who} does not list every card exactly once")
        for e in journal.entries:
            if (e.place is None) != (e.where == "Unknown"):
                self.fail(f"{who}: {e.name} is '{e.where}' with machine place {e.place!r}")
            if e.place is not None and e.card not in self.cards_at(e.place):
                self.fail(f"{who} says {e.name} is at {e.where} ({e.place}), but the cards there are "
                          f"{self.cards_at(e.place)}")
        for d in journal.deductions:
            data = d.data
            if d.kind == "eliminated":
                for c in data["cards"]:
                    if c not in self.cards_at("out"):
                        self.fail(f"{who}: '{d.text}' but {c} is not out of play")
            elif d.kind in ("warrant_ready", "pair_found"):
                loot = self.card_at(data["loot"], d.text)
                loc = self.card_at(data["location"], d.text)
                if self.deck.card(loot).pair != loc:
                    self.fail(f"{who}: '{d.text}' but {data['loot']} is {loot} and {data['location']} is {loc}")
                if Place.parse(data["loot"], self.players).owner is None or \
                        Place.parse(data["location"], self.players).owner is None:
                    self.fail(f"{who}: '{d.text}' names a card that is not in a gumshoe's column")
                if d.kind == "warrant_ready":
                    hench = self.card_at(data["henchman"], d.text)
                    if self.deck.card(hench).kind != "henchman" or hench == self.mastermind:
                        self.fail(f"{who}: '{d.text}' but the Henchman at {data['henchman']} is {hench}")
            elif d.kind == "center":
                for kind, card in data.items():
                    if card is not None and self.cards_at(f"center/{kind}") != [card]:
                        self.fail(f"{who}: '{d.text}' but the center {kind} is {self.cards_at(f'center/{kind}')}")
            elif d.kind == "final_ready":
                if self.card_at(data["carmen"], d.text) != self.mastermind:
                    self.fail(f"{who}: '{d.text}' but Carmen is not at {data['carmen']}")
                loot, loc = self.card_at("center/loot", d.text), self.card_at("center/location", d.text)
                if self.deck.card(loot).pair != loc:
                    self.fail(f"{who}: '{d.text}' but the center pair does not match")
            elif d.kind == "carmen_odds":
                self.check_odds(who, d)
            else:
                self.fail(f"{who}: unexpected deduction kind {d.kind!r} (add a truth check for it)")

    def carmen_label(self) -> str | None:
        state = self.s.state
        tok = next(t for t, c in self.truth.cards.items() if c == self.mastermind)
        place = state.table.place_of(tok)
        return None if place.area == "out" else self.s.rules.label(state, place)

    def check_odds(self, who: str, d: Any) -> None:
        odds: dict[str, Fraction] = {}
        for where, p in d.data["odds"].items():
            # The "certain" line keys its place as "Bob/henchman/top", the others as "Bob / Top".
            if "/" in where and " / " not in where:
                where = self.s.rules.label(self.s.state, Place.parse(where, self.players))
            odds[where] = odds.get(where, Fraction(0)) + Fraction(p)
        truth = self.carmen_label()
        if truth is None:
            return
        total = sum(odds.values(), Fraction(0))
        if total != 1:
            self.fail(f"{who}: Carmen's odds add up to {total}, not 1: {d.text}")
        for where, p in odds.items():
            if p == 1 and where != truth:
                self.fail(f"{who}: '{d.text}' says Carmen is certainly at {where}, but she is at {truth}")
        if odds.get(truth, Fraction(0)) == 0:
            self.fail(f"{who}: '{d.text}' rules out {truth}, where Carmen really is")
        henchman_labels = {self.s.rules.label(self.s.state, self.s.state.table.place_of(t))
                           for t in self.s.state.table.tokens_where(kind="henchman")}
        for where in odds:
            if where not in henchman_labels:
                self.fail(f"{who}: odds for {where!r}, where no Henchman lies")

    # --- (c) no leaks ----------------------------------------------------------------
    def check_shown(self, viewer: str | None, where: str, texts: Iterable[str]) -> None:
        allowed = self.saw[viewer]
        for text in texts:
            bad = self.named(text) - allowed
            if bad:
                c = sorted(bad)[0]
                src = sorted(self.private_to.get(c, ()))
                how = f"only {', '.join(src)} saw it privately" if src else "nobody saw it named"
                self.fail(f"LEAK: {viewer or 'the shared screen'}'s {where} names {self.names[c]} ({c}), "
                          f"but {how}: {text!r}")

    def check_view(self, viewer: str | None, view: Any) -> None:
        if view.player != viewer:
            self.fail(f"view({viewer!r}) is for {view.player!r}")
        for cv in view.cards:
            if cv.card is not None:
                if cv.card not in self.cards_at(cv.place):
                    self.fail(f"{viewer}'s screen shows {cv.name} at {cv.place}, but it is not there")
                if not cv.face_up and viewer is None and cv.card not in self.saw[None]:
                    # A face-down card may be named on the shared screen only if everyone saw it flipped.
                    self.fail(f"the shared screen names the face-down card at {cv.place}, never shown to all")
        self.check_shown(viewer, "screen", [f"{cv.card} {cv.name}" for cv in view.cards if cv.card])
        self.check_shown(viewer, "log", view.log)
        self.check_shown(viewer, "undo history", view.undo_history)
        self.check_shown(viewer, "prompt", [repr(view.prompt)])
        if view.outcome is not None:
            self.check_shown(viewer, "outcome", [repr(view.outcome)])
        if viewer is None:
            if view.journal is not None:
                self.fail("the shared screen shows a journal")
        else:
            self.check_journal_leaks(viewer, view.journal)

    def check_journal_leaks(self, player: str, journal: Any) -> None:
        self.check_shown(player, "journal", [f"{e.card} {e.name} at {e.where}" for e in journal.entries
                                             if e.place is not None])
        self.check_shown(player, "journal deductions",
                         [f"{d.text} | {d.reason} | {json.dumps(dict(d.data), sort_keys=True, default=str)}"
                          for d in journal.deductions])

    # --- everything, after one input -------------------------------------------------
    def snapshot(self) -> tuple:
        s = self.s
        return (tuple(s.view(p) for p in self.players) + (s.view(None),))

    def check_all(self, *, assist_levels: bool = False) -> tuple:
        s = self.s
        self.check_table()
        snap = self.snapshot()
        for viewer, view in zip((*self.players, None), snap):
            self.check_view(viewer, view)
            if viewer is not None:
                self.check_journal(viewer, view.journal)
        self.check_shown(None, "public log", s.public_log()[-12:])
        self.check_shown(None, "undo history", s.undo_history()[-12:])
        self.check_shown(None, "redo history", s.redo_history())
        if assist_levels:
            for p in self.players:
                full = s.journal(p, "full")
                notes, hints = s.journal(p, "notes"), s.journal(p, "hints")
                if notes.deductions or notes.entries != full.entries or hints.entries != full.entries:
                    self.fail(f"{p}'s notes-only journal differs from the full one in its entries")
                if hints.deductions != tuple(d for d in full.deductions if d.kind != "carmen_odds"):
                    self.fail(f"{p}'s hints differ from the full journal's hints")
                if s.log_for(p) != list(snap[self.players.index(p)].log):
                    self.fail(f"{p}'s view log differs from log_for({p})")
                self.check_shown(p, "log", s.log_for(p))
        return snap


def _apply(w: Watch, action: dict) -> None:
    w.actions.append(action)
    try:
        events = w.s.apply(action)
    except RuleViolation as exc:
        w.fail(f"the prompt offered {action} but apply refused it: {exc}")
    w.note(events)


def _undo(w: Watch) -> None:
    w.actions.append({"type": "undo"})
    w.s.undo()


def _redo(w: Watch) -> None:
    w.actions.append({"type": "redo"})
    before = len(w.s.log)
    w.s.redo()
    w.note(w.s.log[before:])


def _resume_and_compare(w: Watch, path: Path) -> None:
    """Close the game, reopen the file, demand the identical game, continue with the reopened one."""
    live = w.s
    live.close()
    again = Session.resume(path)
    for viewer in (*live.players, None):
        for assist in (Assist.FULL, Assist.NOTES):
            a, b = live.view(viewer, assist), again.view(viewer, assist)
            if a != b:
                diffs = [f for f in a.__dataclass_fields__ if getattr(a, f) != getattr(b, f)]
                again.close()
                w.fail(f"the reopened game differs for {viewer or 'the shared screen'} in {diffs}")
    checks = {
        "prompt": (live.prompt(), again.prompt()),
        "outcome": (live.outcome, again.outcome),
        "undo history": (live.undo_history(), again.undo_history()),
        "redo history": (live.redo_history(), again.redo_history()),
        "events": (live.log, again.log),
        "referee view": (live.referee_view(), again.referee_view()),
    }
    for what, (a, b) in checks.items():
        if a != b:
            again.close()
            w.fail(f"the reopened game differs in its {what}")
    w.s = again


def play_checked(players: int, seed: int, *, max_actions: int = MAX_ACTIONS, undo_rate: float = 0.06,
                 path: Path | None = None, resume_every: int = 0, full_every: int = 1) -> Watch:
    """Play one random legal game with random undo/redo, checking every property after every input.

    ``full_every``: run the view/journal/leak checks after every k-th input (table and
    undo/redo checks always run).
    """
    names = PLAYERS[:players]
    session = Session.new(GAME, names, path=path)
    rng = random.Random(seed)
    truth = Truth.deal(session.initial, rng)
    w = Watch(session, truth, f"seed={seed} players={players} undo_rate={undo_rate}")
    snaps = {0: w.check_all(assist_levels=True)}     # len(done) -> everyone's view then
    steps = 0
    try:
        while steps < max_actions and w.s.outcome is None:
            steps += 1
            r = rng.random()
            n = len(w.s.done)
            if r < undo_rate and w.s.done:
                _undo(w)
                n -= 1
            elif r < 2 * undo_rate and w.s.undone:
                _redo(w)
                n += 1
            else:
                _apply(w, random_action(w.s, truth, rng, CARMEN_WEIGHTS))
                n += 1
                for k in [k for k in snaps if k >= n]:
                    del snaps[k]          # a new action drops what could have been redone
            if len(w.s.done) != n:
                w.fail(f"{len(w.s.done)} actions done, expected {n}")
            full = steps % full_every == 0 or w.s.outcome is not None
            snap = w.check_all(assist_levels=steps % 25 == 0) if full else w.snapshot()
            if n in snaps and snaps[n] != snap:
                diffs = [(v.player, f) for old, v in zip(snaps[n], snap)
                         for f in v.__dataclass_fields__ if getattr(old, f) != getattr(v, f)]
                w.fail(f"after undo/redo, the game differs from when {n} actions were done: {diffs[:4]}")
            snaps[n] = snap
            for k in [k for k in snaps if k < n - 12]:
                del snaps[k]
            # (e) an explicit undo + redo round trip now and then
            if w.s.done and rng.random() < 0.05:
                _undo(w)
                back = w.snapshot()
                if n - 1 in snaps and snaps[n - 1] != back:
                    w.fail("undo did not give back what everyone saw before the last action")
                _redo(w)
                if w.snapshot() != snap:
                    w.fail("undo then redo did not give back the identical view")
            if path is not None and resume_every and steps % resume_every == 0:
                _resume_and_compare(w, path)
        if path is not None:
            _resume_and_compare(w, path)
    finally:
        w.s.close()
    return w


# --------------------------------------------------------------------------------------
# The random games
# --------------------------------------------------------------------------------------
@settings(max_examples=HYPO_GAMES, deadline=None, derandomize=not LONG,
          suppress_health_check=[HealthCheck.too_slow])
@given(players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32 - 1),
       undo_rate=st.sampled_from([0.0, 0.03, 0.1, 0.25]))
def test_random_games_hold_every_property_after_every_input(players: int, seed: int, undo_rate: float) -> None:
    play_checked(players, seed, undo_rate=undo_rate)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seeded_games_hold_every_property_after_every_input(players: int) -> None:
    for seed in range(SEEDED_GAMES // 3):
        play_checked(players, 1000 * players + seed, undo_rate=0.05)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_reopened_game_file_is_identical_also_after_undo_and_redo(players: int) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for seed in range(STORE_GAMES):
            path = Path(tmp) / f"game-{players}-{seed}.gumshoe"
            play_checked(players, 5000 + 100 * players + seed, max_actions=150 if not LONG else 600,
                         undo_rate=0.12, path=path, resume_every=50, full_every=3)


def test_whole_games_to_the_end_keep_table_and_journals_true() -> None:
    """Many complete games (no cap that stops them early), cheaper checks: table and journals."""
    finished = 0
    for seed in range(FULL_GAMES):
        players = 2 + seed % 3
        session = Session.new(GAME, PLAYERS[:players])
        rng = random.Random(seed)
        truth = Truth.deal(session.initial, rng)
        w = Watch(session, truth, f"full game seed={seed} players={players}")
        for _ in range(3000):
            if session.outcome is not None:
                break
            _apply(w, random_action(session, truth, rng, CARMEN_WEIGHTS))
            w.check_table()
            for p in session.players:
                journal = session.journal(p, "full")
                w.check_journal(p, journal)
                w.check_journal_leaks(p, journal)
            w.check_shown(None, "public log", session.public_log()[-6:])
            w.check_shown(None, "undo history", session.undo_history()[-2:])
        finished += session.outcome is not None
        if session.outcome is not None:
            w.check_all(assist_levels=True)
    assert finished >= FULL_GAMES * 0.6, f"only {finished} of {FULL_GAMES} random games reached an end"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_private_look_changes_nothing_anyone_else_sees(players: int) -> None:
    """It's Getting Dicey ("secretly look at one card") and Chasing Leads, issue 27: every look of a random
    game gets a twin where the card read is another (one nobody saw, or the gumshoe's own mix-up,
    confirmed); for the next moves both show everyone else the same prompt, offered actions, table,
    public log and journals. (A mix-up used to change the shared prompt: "look at your Top Loot card".)"""
    made = 0
    for seed in range(TWIN_GAMES):
        w = play_with_twins(Session.new(GAME, PLAYERS[:players]), 300 * players + seed, max_actions=400,
                            label=f"carmen twins seed={300 * players + seed} players={players}")
        made += w.made
    assert made >= 10 * TWIN_GAMES, f"only {made} looks got a twin"


def test_the_twin_check_catches_a_prompt_that_follows_a_players_notes(monkeypatch) -> None:
    """The check can fail: with "your own unseen cards" read from the gumshoe's notes (as before issue 27),
    a mix-up shows on the shared prompt and the twin check says so."""
    rules = type(Session.new(GAME, ["Ann", "Bob"]).rules)

    def by_notes(self, state, player, kind):
        known = state.knowledge[player]
        own = self.column_tokens(state, player, kind)
        unseen = [t for t in own if known.card_at(t) is None]
        return (unseen, True) if unseen else (self.all_column_tokens(state, kind, exclude=player) or own, False)

    monkeypatch.setattr(rules, "peek_targets", by_notes)
    with pytest.raises(Leak, match="shared prompt differ"):
        for seed in range(6):
            play_with_twins(Session.new(GAME, PLAYERS[:3]), seed, max_actions=600, label=f"self-test {seed}")


# --------------------------------------------------------------------------------------
# The checks themselves can fail (a checker that passes everything proves nothing)
# --------------------------------------------------------------------------------------
def _peeked_game() -> tuple[Watch, str, str]:
    """A game where Ann has privately looked at a card Bob has not seen."""
    s = Session.new(GAME, ["Ann", "Bob"])
    rng = random.Random(3)
    truth = Truth.deal(s.initial, rng)
    w = Watch(s, truth, "self-test")
    _apply(w, {"type": "roll", "player": "Ann", "face": 1})
    opt = s.prompt().option("peek")
    assert opt is not None
    slot = opt.targets["slot"][0]
    card = truth.card_at(s.state, slot)
    _apply(w, {"type": "peek", "player": "Ann", "slot": slot, "card": card})
    return w, slot, card


def test_leak_checker_catches_a_private_name_in_another_players_log() -> None:
    w, slot, card = _peeked_game()
    w.check_all(assist_levels=True)          # the real engine passes
    name = w.names[card]
    with pytest.raises(GameFailure, match="LEAK: Bob's log names"):
        w.check_shown("Bob", "log", [f"Ann saw {name}."])
    with pytest.raises(GameFailure, match="LEAK: the shared screen's undo history"):
        w.check_shown(None, "undo history", [f"Ann looked at {name}"])
    w.check_shown("Ann", "log", [f"Ann saw {name}."])   # Ann may see her own card


def test_truth_checker_catches_a_false_journal_line() -> None:
    import dataclasses
    w, slot, card = _peeked_game()
    journal = w.s.journal("Ann", "full")
    w.check_journal("Ann", journal)
    wrong_place = next(p for p in ("Bob/loot/top", "Bob/loot/center", "Ann/loot/bottom") if p != slot)
    entries = tuple(e._replace(place=wrong_place, where="Bob / Top") if e.card == card else e
                    for e in journal.entries)
    with pytest.raises(GameFailure, match="says .* is at"):
        w.check_journal("Ann", dataclasses.replace(journal, entries=entries))
    odds = next(d for d in journal.deductions if d.kind == "carmen_odds")
    carmen_at = w.carmen_label()
    liar = dataclasses.replace(odds, data={"odds": {carmen_at: "0", "Nobody / Nowhere": "1"}})
    with pytest.raises(GameFailure, match="Carmen"):
        w.check_journal("Ann", dataclasses.replace(journal, deductions=(liar,)))


# --------------------------------------------------------------------------------------
# Exact probabilities against brute force
# --------------------------------------------------------------------------------------
@st.composite
def world_problems(draw: Any, *, extra_tokens: bool = True) -> tuple[list[int], dict[int, set[str]], set[str], str]:
    """Tokens, each token's candidate cards (cards minus what it is known not to be), cards, a card."""
    m = draw(st.integers(1, 7))
    cards = [f"c{i}" for i in range(m)]
    n = draw(st.integers(1, m + (1 if extra_tokens else 0)))
    tokens = draw(st.lists(st.integers(1, 60), min_size=n, max_size=n, unique=True))
    cands: dict[int, set[str]] = {}
    for t in tokens:
        if draw(st.booleans()):
            cands[t] = set(cards)                                     # no negative knowledge
        else:
            excluded = draw(st.sets(st.sampled_from(cards), max_size=m))   # "token t is not c"
            cands[t] = set(cards) - excluded
    card = draw(st.sampled_from(cards))
    return tokens, cands, set(cards), card


@settings(max_examples=300 if not LONG else 20000, deadline=None, derandomize=not LONG)
@given(world_problems())
def test_exact_marginals_equal_brute_force(problem: tuple) -> None:
    tokens, cands, cards, card = problem
    fast = card_marginals(tokens, cands, cards, card)
    slow = brute_force_marginals(tokens, cands, cards, card)
    assert fast == slow, f"card_marginals {fast} != brute force {slow}"
    worlds = count_worlds(tokens, cands, cards)
    assert all(0 <= p <= 1 for p in fast.values())
    if worlds == 0:
        assert all(p == 0 for p in fast.values())
        return
    for t in tokens:                     # a token that cannot be the card never gets a chance
        if card not in cands[t]:
            assert fast[t] == 0
    if len(tokens) == len(cards):        # every card lies somewhere: its chances sum to 1
        assert sum(fast.values()) == 1
    for t in tokens:                     # and every token is some card
        assert sum(card_marginals(tokens, cands, cards, c)[t] for c in cards) == 1


@settings(max_examples=200 if not LONG else 5000, deadline=None, derandomize=not LONG)
@given(world_problems(extra_tokens=False), st.randoms(use_true_random=False))
def test_marginals_are_exact_with_exclusions_from_seen_cards(problem: tuple, rnd: random.Random) -> None:
    """The Carmen form: a real arrangement exists, candidates exclude what was seen elsewhere."""
    tokens, _, cards, card = problem
    order = sorted(cards)
    rnd.shuffle(order)
    world = dict(zip(tokens, order))                       # the truth
    cands = {t: {c for c in cards if c == world[t] or rnd.random() < 0.6} for t in tokens}
    fast = card_marginals(tokens, cands, cards, card)
    assert fast == brute_force_marginals(tokens, cands, cards, card)
    at = next((t for t, c in world.items() if c == card), None)
    if at is not None:
        assert fast[at] > 0, "the card's true token was ruled out"
        if fast[at] < 1:
            assert sum(fast.values()) == 1 or len(tokens) < len(cards)
    assert sum(fast.values()) <= 1


def test_marginals_of_a_card_outside_the_unknown_cards_are_zero() -> None:
    """Regression (found by these tests): the counting path gave such a card a chance of 1."""
    tokens, cands, cards = [1, 2], {1: {"a", "b", "x"}, 2: {"a"}}, {"a", "b"}
    assert brute_force_marginals(tokens, cands, cards, "x") == {1: 0, 2: 0}
    assert card_marginals(tokens, cands, cards, "x") == {1: 0, 2: 0}


def test_carmen_odds_name_a_place_the_same_way_before_and_after_she_is_seen() -> None:
    """Regression (found by these tests): the odds keyed a slot 'Ann / Top' while Carmen was
    uncertain but 'Ann/henchman/top' once seen, so a screen found one slot under two names."""
    s = Session.new(GAME, ["Ann", "Bob"])
    seed = next(k for k in range(500)
                if Truth.deal(s.initial, random.Random(k)).card_at(s.state, "Ann/henchman/top")
                == s.rules.mastermind)
    truth = Truth.deal(s.initial, random.Random(seed))
    s.apply({"type": "roll", "player": "Ann", "face": 3})
    assert s.prompt().option("peek").targets["slot"][0].endswith("henchman/top")
    before = next(d for d in s.journal("Ann").deductions if d.kind == "carmen_odds").data["odds"]
    s.apply({"type": "peek", "player": "Ann", "slot": "Ann/henchman/top",
             "card": truth.card_at(s.state, "Ann/henchman/top")})
    after = next(d for d in s.journal("Ann").deductions if d.kind == "carmen_odds").data["odds"]
    assert [Fraction(p) for p in after.values()] == [1]
    assert set(after) <= set(before), f"Carmen's place is keyed {set(after)} now, but was among {set(before)}"
