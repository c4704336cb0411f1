"""Golden playthroughs of "Where in the USA is Carmen Sandiego", replayed and checked at every step.

Each ``golden/carmen-usa-*.jsonl`` tells its story in ``#`` comments. The expected transcripts
(``*.expected.txt``) hold, after every line, the public words, the public events and every journal
that changed (cards known, boxes, hints). Regenerate after a deliberate change with
``GUMSHOE_UPDATE_GOLDEN=1 pytest tests/engine/test_carmen_usa_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Assist
from engine.replay import replay, run

GOLDEN = Path(__file__).parent / "golden"
STORIES = sorted(GOLDEN.glob("carmen-usa-*.jsonl"))


def journal_lines(session, player: str) -> list[str]:
    j = session.journal(player, Assist.HINTS)
    known = [f"{e.name}: {e.where}" for e in j.entries if e.place]
    return [f"  {player}: " + ("; ".join(known) if known else "(nothing seen yet)")] + \
        [f"    * {d.text}" for d in j.deductions]


def transcript(path: Path) -> str:
    out: list[str] = []
    last: dict[str, list[str]] = {}
    for session, step in replay(path):
        out.append(f"[line {step.line}] {step.words}")
        out += [f"  > {text}" for text in step.verdicts]
        for p in session.players:
            lines = journal_lines(session, p)
            if lines != last.get(p):
                out += lines
                last[p] = lines
    return "\n".join(out) + "\n"


def test_there_are_five_stories():
    assert {p.stem for p in STORIES} == {
        "carmen-usa-true-after-false", "carmen-usa-carmen-wins", "carmen-usa-backup-three-agents",
        "carmen-usa-no-backup-two-agents", "carmen-usa-bigger-challenge"}


@pytest.mark.parametrize("path", STORIES, ids=lambda p: p.stem)
def test_journals_at_every_step_match_the_golden_transcript(path: Path):
    expected = path.with_suffix(".expected.txt")
    got = transcript(path)
    if os.environ.get("GUMSHOE_UPDATE_GOLDEN"):
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def cli(path: Path) -> dict:
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(path), "--json"],
                         capture_output=True, text=True, check=True).stdout
    return json.loads(out)


def test_true_accusation_after_a_false_one_and_carmen_caught():
    """False Accusations, Winning the Game, Catching Carmen (through the replay CLI); Making An Accusation:
    "Agents may not call out the location of a Crook Card until they hold a Warrant Card and a Loot Card of
    the same color" - the matching Crook called first is no false accusation, and a second call of it,
    now that everyone has seen it, is refused."""
    data = cli(GOLDEN / "carmen-usa-true-after-false.jsonl")
    assert data["winners"] == ["Bob"]
    assert [(v["line"], v["section"]) for v in data["violations"]] == [(32, "Making An Accusation")]
    assert "Everyone knows the card at Arches is a Crook" in data["violations"][0]["message"]
    assert "caught Carmen" in data["reason"]
    ann = data["journals"]["Ann"]
    assert ann["carmen-usa.warrant.orange-warrant"] == "Out of play"       # the false accusation
    assert ann["carmen-usa.loot.orange-loot"] == "Out of play"             # its Loot, when turned up
    assert ann["carmen-usa.crook.orange-crook"] == "Arches"  # shown to everyone
    assert ann["carmen-usa.crook.purple-crook"] == "Bob's hand"            # shown in the true accusation
    result = run(GOLDEN / "carmen-usa-true-after-false.jsonl")
    wrong = [e for e in result.session.log if e.type == "wrong_state"]
    assert len(wrong) == 1
    calls = [(e.data["landmark"], e.data["match"], e.data.get("early", False)) for e in result.session.log
             if e.type == "call"]
    assert calls[:2] == [("arches", False, True), ("acadia", False, False)]    # early Crook, then false
    verdicts = [e.text for e in result.session.log if e.type == "verdict"]
    assert verdicts[0] == "The orange Warrant has left play (7 Warrants still in play)."


def test_carmen_wins_when_all_warrants_leave_play():
    """Winning the Game: all eight Warrants removed: Carmen Sandiego wins."""
    data = cli(GOLDEN / "carmen-usa-carmen-wins.jsonl")
    assert data["winners"] == [] and data["losers"] == ["Ann", "Bob"] and data["violations"] == []
    assert all(data["journals"]["Bob"][f"carmen-usa.warrant.{c}-warrant"] == "Out of play"
               for c in ("orange", "purple", "red", "yellow", "green", "blue", "pink", "brown"))


def test_backup_agents_with_three_and_none_with_two():
    """Incorrect Answers: the back-up agent with 3 agents (who may hear the choices again); "Do not use this
    rule when only two agents are playing."""
    three = run(GOLDEN / "carmen-usa-backup-three-agents.jsonl")
    assert three.violations == []
    # "the back-up agent may ask to hear the choices again": Ann hears the three choices Cy heard.
    heard = [e for e in three.session.log if e.type == "choices"]
    assert [e.data["again"] for e in heard] == [False, True]
    assert heard[0].data["options"] == heard[1].data["options"] and len(heard[1].data["options"]) == 3
    answers = [(e.text.split()[0], e.data["allowance"]) for e in three.session.log
               if e.type == "answer" and e.data["correct"]]
    assert answers == [("Bob", 5), ("Ann", 3), ("Bob", 5)]
    assert any(e.type == "pass" for e in three.session.log)
    two = run(GOLDEN / "carmen-usa-no-backup-two-agents.jsonl")
    assert [v["section"] for v in two.violations] == ["Incorrect Answers"]
    assert not any(e.type == "backup" for e in two.session.log)


def test_bigger_challenge_and_a_finale_lost_to_the_clock():
    """A Bigger Challenge: Loot goes back face down; Catching Carmen: time ran out."""
    result = run(GOLDEN / "carmen-usa-bigger-challenge.jsonl")
    s = result.session
    assert result.violations == [] and "escaped" in s.outcome.reason and s.outcome.winners == ("Bob",)
    looked = next(e for e in s.log if e.type == "look" and e.data["landmark"] == "liberty-bell")
    assert "face down" in looked.text
    # Ann never saw the orange Loot until the accusation showed it to everyone.
    steps = {step.line: sess.journal("Ann").where("carmen-usa.loot.orange-loot") for sess, step in
             replay(GOLDEN / "carmen-usa-bigger-challenge.jsonl")}
    first_call = min(line for line, where in steps.items() if where != "Unknown")
    assert all(where == "Unknown" for line, where in steps.items() if line < first_call)
    shared = " ".join(s.public_log()[: [e.type for e in s.log if e.visibility.scope == "public"].index("accuse")])
    assert "Orange Loot" not in shared


def test_replay_cli_prints_journals(tmp_path):
    text = subprocess.run([sys.executable, "-m", "engine", "replay",
                           str(GOLDEN / "carmen-usa-no-backup-two-agents.jsonl")],
                          capture_output=True, text=True, check=True).stdout
    assert "refused: Only a back-up agent may pass" in text
    assert "Ann: Orange Warrant: Vic the Slick: Denali" in text
