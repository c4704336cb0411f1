"""The 39 Clues golden replays: recorded action logs replayed, checked against their transcripts.

Short stories (``clues39-<story>.jsonl``) compare the whole transcript (public words, verdicts,
every player's journal with hints) with ``clues39-<story>.expected.txt``; the two whole games to
39 compare the replay CLI's JSON outcome with ``clues39-<game>.expected.json``. Regenerate after a
deliberate change with ``GUMSHOE_UPDATE_GOLDEN=1 pytest tests/engine/test_clues39_golden.py`` and
review the diff.
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
STORIES = ("mission", "prestige", "steal-immune", "replicator", "reshuffle")
GAMES = ("to-39-two-players", "to-39-four-players")
UPDATE = bool(os.environ.get("GUMSHOE_UPDATE_GOLDEN"))


def log(name: str) -> Path:
    return GOLDEN / f"clues39-{name}.jsonl"


def transcript(path: Path) -> str:
    out = []
    for session, step in replay(path):
        out.append(f"[line {step.line}] {step.words}")
        out += [f"  > {text}" for text in step.verdicts]
        out.append(format_journals(session, Assist.HINTS))
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("story", STORIES)
def test_story_transcripts_match(story: str) -> None:
    expected = GOLDEN / f"clues39-{story}.expected.txt"
    got = transcript(log(story))
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


def steps(story: str) -> dict[int, tuple]:
    return {step.line: (step, session.state.scores.copy()) for session, step in replay(log(story))}


def refused_lines(story: str) -> list[str]:
    return [v["message"] for v in run(log(story)).violations]


def test_mission_built_then_retrieved_on_the_next_turn() -> None:
    """Creating a Mission Stack; Two Important Rules on Mission Stacks."""
    result = run(log("mission"))
    assert [v["section"] for v in result.violations] == ["Two Important Rules on Mission Stacks",
                                                         "Creating a Mission Stack"]
    assert result.session.state.scores == {"Ann": 4, "Bob": 0}
    public = result.session.public_log()
    assert "Ann retrieved mission 1 with Red Location: 4 points (score 4)." in public
    j = result.session.journal("Bob")
    assert j.where("39-clues.card.n6") == "Ann / Discard pile"          # Ann's yellow Secret, public now
    assert j.where("39-clues.card.n9-c2") == "Bob / Discard pile"       # Bob's discarded Money
    assert j.where("39-clues.card.n2") == "Ann / Deck or hand"          # refused: never shown


def test_sabotage_blocked_by_prestige_then_allowed() -> None:
    """Bonus Cards: Prestige; Interference: Sabotage."""
    result = run(log("prestige"))
    assert result.violations == []
    public = result.session.public_log()
    blocked = next(i for i, t in enumerate(public) if t.startswith("Bob blocked the sabotage with Prestige"))
    assert public[blocked - 1] == "Ann plays Blue Agent to sabotage Bob's mission 1."
    assert any(t.startswith("Ann sabotaged Bob's mission 1") for t in public[blocked:])
    assert result.session.state.scores == {"Ann": 0, "Bob": 0}
    assert result.session.state.missions == {}


def test_immune_stack_is_stolen() -> None:
    """Interference: Stealing: immune stacks can still be stolen."""
    result = run(log("steal-immune"))
    assert [v["section"] for v in result.violations] == ["Interference: Sabotage"]
    assert "immune" in result.violations[0]["message"]
    assert result.session.state.scores == {"Ann": 2, "Bob": 0}


def test_replicator_mission() -> None:
    """Bonus Cards: Replicator: declared colour, cannot be stolen, retrieved by the Agent's colour."""
    result = run(log("replicator"))
    sections = [v["section"] for v in result.violations]
    assert sections == ["Bonus Cards: Replicator", "Creating a Mission Stack", "Interference: Stealing"]
    assert result.session.state.scores["Ann"] == 2
    assert "the Replicator is a blue Location" in " ".join(result.session.public_log())


def test_deck_reshuffle() -> None:
    """Cards Available for Play: the opponent shuffles the discards into a new deck."""
    result = run(log("reshuffle"))
    assert result.violations == []
    public = result.session.public_log()
    assert ("Ann's two-sided deck ran out: Bob shuffled the 1 two-sided card of Ann's discard pile into a new "
            "deck.") in public
    assert result.session.journal("Bob").where("39-clues.card.n28") == "Ann / Table 2"


@pytest.mark.parametrize("game", GAMES)
def test_whole_games_to_39(game: str) -> None:
    """Your Mission: first to 39 wins; scores are the sum of retrieved and stolen stacks."""
    expected = GOLDEN / f"clues39-{game}.expected.json"
    result = run(log(game))
    got = outcome_json(result)
    got["scores"] = dict(result.session.state.scores)
    if UPDATE:
        expected.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(expected.read_text(encoding="utf-8"))
    assert result.violations == []
    winner = got["winners"][0]
    assert got["scores"][winner] >= 39 and all(v < 39 for p, v in got["scores"].items() if p != winner)
    scored: dict[str, int] = {}
    for e in result.session.log:
        if e.type == "scored":
            scored[e.data["player"]] = scored.get(e.data["player"], 0) + e.data["points"]
    assert {p: scored.get(p, 0) for p in result.session.players} == got["scores"]


def test_replay_cli_prints_the_game_and_its_json_outcome() -> None:
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(log("to-39-four-players")), "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert data["game"] == "39-clues" and data["winners"] == ["Bob"]
    assert data["journals"]["Ann"]["39-clues.card.n1-c2"].startswith("Bob / ")
    text = subprocess.run([sys.executable, "-m", "engine", "replay", str(log("steal-immune")), "--assist", "hints"],
                          capture_output=True, text=True, check=True).stdout
    assert "refused: This mission's cards are all one colour" in text
    assert "Bob's blue mission 1 (Rome, 2 points) can be stolen with a Rome Location" in text
