"""Bad input to Sudds & Malone gets a clear refusal and changes nothing (any field, any type)."""

from __future__ import annotations

import random

import pytest

from engine.errors import RuleViolation
from engine.games.sudds_malone.actions import ACTIONS
from engine.session import Session

JUNK = [None, 0, -1, 7, 2.5, "", "office", "east-side", "sudds.case.case-01", "sudds.suspect.mole-1", [], ["x"],
        [1, 2], {}, {"a": 1}, {"glass": -3}, True, ["office"] * 9, [[1]], "deck", ["deck"] * 5]


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))


def test_garbled_actions_are_refused_and_change_nothing():
    s = Session.new("sudds-malone", ["Ann", "Bob", "Cyd"], {"box_file": None})
    sim = s.rules.simulator(s.initial, 5)
    rng = random.Random(5)
    import dataclasses
    tried = 0
    while s.outcome is None and tried < 250:
        before = s.view(None), s.view(s.prompt().player)
        kind = rng.choice(sorted(ACTIONS))
        fields = [f.name for f in dataclasses.fields(ACTIONS[kind]) if f.name != "player"]
        action = {"type": kind, "player": rng.choice([s.prompt().player, "Ann", "Zed", 3])}
        for f in fields:
            if rng.random() < 0.8:
                action[f] = rng.choice(JUNK)
        tried += 1
        try:
            s.apply(action)
        except RuleViolation as exc:
            assert exc.message and str(exc)
            assert (s.view(None), s.view(s.prompt().player)) == before
        s.apply(sim.random_action(s))


def test_public_table_names_no_secret():
    s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
    sim = s.rules.simulator(s.initial, 2)
    names = [c.name for c in s.rules.deck.of_kind("suspect")] + [c.id for c in s.rules.deck.of_kind("suspect")]
    for _ in range(300):
        if s.outcome is not None:
            break
        s.apply(sim.random_action(s))
        text = repr(s.rules.public_table(s.state))
        kept = [h for b in s.state.boards.values() for h in b.hunches] + list(s.state.drawn)
        assert not any(h in text for h in kept)
        if s.state.phase != "over":
            assert not any(n in text for n in names)
