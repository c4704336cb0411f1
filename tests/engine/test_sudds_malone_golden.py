"""Sudds & Malone golden replays: action logs of the rulebook's examples and two whole games.

Each scenario's transcript (public words and every player's full journal after each line) is in
``golden/sudds-malone-<name>.expected.txt``; the whole games' outcome in ``...expected.json``.
Regenerate after a deliberate change with ``GUMSHOE_UPDATE_GOLDEN=1`` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Assist
from engine.replay import format_journals, outcome_json, replay, run

GOLDEN = Path(__file__).parent / "golden"
SCENARIOS = ("moxie-calendar", "calendar", "investigate", "hunch", "limits", "round-end", "scoring")
GAMES = ("game-2p", "game-4p")
UPDATE = bool(os.environ.get("GUMSHOE_UPDATE_GOLDEN"))


@pytest.fixture(autouse=True)
def _home(tmp_path, monkeypatch):
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path / "home"))
    monkeypatch.chdir(GOLDEN.parents[2])       # the scoring log names its box file from the repository


def log(name: str) -> Path:
    return GOLDEN / f"sudds-malone-{name}.jsonl"


def transcript(path: Path) -> str:
    out = []
    for session, step in replay(path):
        out.append(f"[line {step.line}] {step.words}")
        out += [f"  > {text}" for text in step.verdicts]
        out.append(format_journals(session, Assist.FULL))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", SCENARIOS)
def test_scenario_transcript_matches(name):
    expected = GOLDEN / f"sudds-malone-{name}.expected.txt"
    got = transcript(log(name))
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def final(name: str):
    return run(log(name))


def test_moxie_reroll_into_calendar():
    """Moxie (Red's example): reload from the board, re-roll 2, Calendar at her level; no die while it is due."""
    r = final("moxie-calendar")
    red = r.session.state.boards["Red"]
    assert (red.bullets, r.session.state.board_bullets, red.cash, red.calendar) == (4, 2, 3, (1, 2))
    assert [v["line"] for v in r.violations] == [11]
    assert r.session.state.snitch_at["queens"] == ("Red", "glass", False)


def test_calendar_blocked_days_and_stop_on_sunday():
    """Calendar: blocked days give nothing; past Saturday stop on Sunday; no more Calendar this round."""
    r = final("calendar")
    st = r.session.state
    assert st.boards["Yellow"].cash == 1 + 2 + 1 + 2          # Monday, Thursday's news, Friday
    assert st.boards["Red"].calendar == (2, 0) and st.boards["Red"].calendar_done
    assert st.boards["Blue"].calendar == (2, 0)
    assert [v["section"] for v in r.violations] == ["Calendar"]
    assert r.session.journal("Red").where("sudds.suspect.rat-3") == "Conspiracy 2"
    assert r.session.journal("Blue").where("sudds.suspect.rat-3") == "Unknown"


def test_investigate_snitch_cover_and_stoolie():
    """Investigate (Yellow's examples): $1 to Red for her snitch, cover suspect 3, the stoolie peeks at 4."""
    r = final("investigate")
    st = r.session.state
    assert st.boards["Red"].cash == 1 + 2 + 1 + 1            # Monday, the news, Yellow's dollar
    assert st.covers[3] == "sudds.flimflam.ff-07" and st.snitch_at["queens"][2]
    yellow = r.session.journal("Yellow", "full")
    assert yellow.where("sudds.suspect.mole-1") == "Conspiracy 3 (covered)"
    assert yellow.where("sudds.suspect.frog-1") == "Conspiracy 4"
    assert r.session.journal("Red").where("sudds.suspect.frog-1") == "Unknown"
    assert r.session.journal("Red").where("sudds.suspect.stoolie-2") == "Returned to the box"
    odds = next(d for d in yellow.deductions if d.kind == "makeup").data["makeup"]
    assert all(int(m) >= 1 and int(f) >= 1 for m, _, f in (k.split(",") for k in odds))


def test_hunch_wild_tab_and_bought_draws():
    """Close Cases: A+B with a wild tab; two extra hunch cards for $1 each; Case 4 filed, Flimflam 18 back."""
    r = final("hunch")
    ann = r.session.state.boards["Ann"]
    assert ann.hunches == ["sudds.hunch.hunch-05"] and ann.cash == 0
    assert ann.filed == ["sudds.case.case-04"] and ann.above == []
    assert "sudds.flimflam.ff-18" in r.session.state.ff_deck
    shared = " ".join(r.session.public_log())
    assert "Hunch 5" not in shared


def test_end_of_turn_limits():
    r = final("limits")
    ann = r.session.state.boards["Ann"]
    assert ann.evidence_total == 7 and ann.evidence["fedora"] == 1
    assert r.session.prompt().player == "Bob"


def test_cat_attack_tie_and_badge_tie():
    """End of Round: the cat hits P2 (tied with P3, arrived later); the badge goes from P1 to P3."""
    r = final("round-end")
    st = r.session.state
    assert [st.boards[p].score for p in ("P1", "P2", "P3")] == [1, 1, 3]
    assert st.boards["P2"].sources["cats"] == -2
    assert [st.boards[p].bullets for p in ("P1", "P2", "P3")] == [2, 3, 2]
    assert st.badge == "P3" and r.session.prompt().player == "P3"


def test_end_of_game_examples_in_one_game():
    """End of Game: Yellow's 4 cash, 2 bullets, 3 evidence score 4; 3 identical, 4 identical and 6 different
    matchbooks score 25; the example's four hunch cards against 2 Moles, a Rat and a Frog score 24. The
    family's box file (learn your box) gives the cards those values."""
    r = final("scoring")
    st = r.session.state
    assert r.violations == []
    assert st.final["Yellow"] == {"tokens": 4, "matchbooks": 25, "hunches": 24}
    y = st.boards["Yellow"]
    assert (y.cash, y.bullets, y.evidence_total) == (4, 2, 3)
    assert y.score == sum(y.sources.values()) and r.session.outcome.winners == ("Yellow",)


def cli_json(path: Path) -> dict:
    env = dict(os.environ)
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path), "--json"], capture_output=True,
                         text=True, check=True, env=env).stdout
    return json.loads(out)


@pytest.mark.parametrize("name", GAMES)
def test_whole_game_outcome_matches(name):
    """A whole game to the final scoring (the 2-player one through the replay CLI): the same winner, scores
    and journals."""
    got = cli_json(log(name)) if name == "game-2p" else json.loads(json.dumps(outcome_json(run(log(name)))))
    expected = GOLDEN / f"sudds-malone-{name}.expected.json"
    if UPDATE:
        expected.write_text(json.dumps(got, indent=1, sort_keys=True) + "\n", encoding="utf-8")
    assert got == json.loads(expected.read_text(encoding="utf-8"))
    assert got["violations"] == [] and got["winners"]
    r = final(name)
    for p, b in r.session.state.boards.items():
        assert b.score == sum(b.sources.values())
        assert r.session.state.final[p]["tokens"] == (b.cash + b.bullets + b.evidence_total) // 2
