"""Golden playthroughs: recorded action logs replayed, journals checked at every step.

``worked-example.jsonl`` plays the rulebook's "Example of Gameplay" (Julie, Amberley, Mark).
Its per-step journals are in ``worked-example.expected.txt``; regenerate after a deliberate
change with ``GUMSHOE_UPDATE_GOLDEN=1 pytest tests/engine/test_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

from engine.game import Assist
from engine.replay import format_journals, replay, run

GOLDEN = Path(__file__).parent / "golden"
EXAMPLE = GOLDEN / "worked-example.jsonl"


def transcript(path: Path) -> str:
    out = []
    for session, step in replay(path):
        out.append(f"[line {step.line}] {step.words}")
        out += [f"  > {text}" for text in step.verdicts]
        out.append(format_journals(session, Assist.HINTS))
    return "\n".join(out) + "\n"


def test_worked_example_journals_at_every_step_match_the_golden_transcript():
    expected_path = GOLDEN / "worked-example.expected.txt"
    got = transcript(EXAMPLE)
    if os.environ.get("GUMSHOE_UPDATE_GOLDEN"):
        expected_path.write_text(got, encoding="utf-8")
    assert got == expected_path.read_text(encoding="utf-8")


def journal_after(line: int) -> dict[str, dict[str, str]]:
    for session, step in replay(EXAMPLE):
        if step.line == line:
            return {p: {e.name: e.where for e in session.journal(p, "notes").entries} for p in session.players}
    raise AssertionError(f"no step at line {line}")


def line_of(text: str) -> int:
    """The line number of the first action after a comment containing ``text``."""
    lines = EXAMPLE.read_text(encoding="utf-8").splitlines()
    i = next(n for n, line in enumerate(lines) if line.startswith("#") and text in line)
    return i + 2


def test_worked_example_story_points():
    """Example of Gameplay: what Julie knows at each point the rulebook describes."""
    after_first_peek = journal_after(line_of("Julie is youngest") + 1)
    assert after_first_peek["Julie"]["Gandhi's Glasses"] == "Julie / Top"
    assert after_first_peek["Mark"]["Gandhi's Glasses"] == "Unknown"

    new_delhi = journal_after(line_of("Location again") + 1)
    assert new_delhi["Julie"]["New Delhi"] == "Mark / Top"
    assert new_delhi["Mark"]["New Delhi"] in ("Mark / Top", "Unknown")   # Mark may not have looked yet

    swapped = journal_after(line_of("She puts her New York into the center"))
    for player in ("Julie", "Amberley", "Mark"):
        assert swapped[player]["Gandhi's Glasses"] == "Out of play"
        assert swapped[player]["New Delhi"] == "Out of play"
        assert swapped[player]["Yul B. Sorry"] == "Out of play"
    assert swapped["Julie"]["New York"] == "Table center"
    assert swapped["Julie"]["Oslo"] == "Unknown"          # taken from the center without looking

    torch = journal_after(line_of("her new Top Loot") + 1)
    assert torch["Julie"]["The Statue of Liberty's Torch"] == "Julie / Top"
    assert journal_after(line_of("her Top Location is the card she took") + 1)["Julie"]["Oslo"] == "Julie / Top"

    second = journal_after(line_of("She puts the Torch into the center"))
    assert second["Julie"]["The Statue of Liberty's Torch"] == "Table center"
    assert second["Julie"]["New York"] == "Table center"
    assert second["Julie"]["Pizarro's Sword"] == "Out of play"
    assert second["Julie"]["Bessie May Mucho"] == "Out of play"

    carmen = journal_after(line_of("Carmen Sandiego!") + 1)
    assert carmen["Julie"]["Carmen Sandiego"] == "Amberley / Bottom"


def test_worked_example_outcome_and_privacy():
    result = run(EXAMPLE)
    assert result.violations == []
    assert result.session.outcome.winners == ("Julie",)
    # Julie's private sightings never reach the shared screen or the undo history.
    shared = " ".join(result.session.public_log() + result.session.undo_history())
    for secret in ("Hudson Bay", "Robin Banks", "Fast Eddie B.", "Oslo"):
        assert secret not in shared


def test_replay_cli_json_outcome(tmp_path):
    out = subprocess.run([sys.executable, "-m", "engine", "replay", str(EXAMPLE), "--json"],
                         capture_output=True, text=True, check=True).stdout
    data = json.loads(out)
    assert data["winners"] == ["Julie"] and data["losers"] == ["Amberley", "Mark"]
    assert data["journals"]["Mark"]["carmen.henchman.carmen-sandiego"] == "Amberley / Bottom"   # flipped: public
    assert data["journals"]["Mark"]["carmen.location.arizona"] == "Mark / Top"
    assert data["violations"] == []


def test_replay_cli_reports_violations_and_keeps_going(tmp_path):
    log = tmp_path / "bad.jsonl"
    log.write_text("\n".join([
        json.dumps({"game": "carmen-cards", "players": ["Ann", "Bob"]}),
        json.dumps({"type": "roll", "player": "Bob", "face": 1}),              # not Bob's turn
        json.dumps({"type": "roll", "player": "Ann", "face": 1}),
        json.dumps({"type": "peek", "player": "Ann", "slot": "Bob/loot/top", "card": "carmen.loot.hudson-bay"}),
        json.dumps({"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": "carmen.loot.hudson-bay"}),
    ]) + "\n")
    data = json.loads(subprocess.run([sys.executable, "-m", "engine", "replay", str(log), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    assert [v["line"] for v in data["violations"]] == [2, 4]
    assert data["violations"][1]["section"] == "Chasing Leads"
    assert data["journals"]["Ann"]["carmen.loot.hudson-bay"] == "Ann / Top"
    text = subprocess.run([sys.executable, "-m", "engine", "replay", str(log)],
                          capture_output=True, text=True, check=True).stdout
    assert "refused: It is Ann's move now" in text
    assert "Ann: Hudson Bay: Ann / Top" in text


def test_replay_cli_bad_file_clear_error(tmp_path):
    log = tmp_path / "garbled.jsonl"
    log.write_text('{"game": "carmen-cards", "players": ["Ann", "Bob"]}\n{not json\n')
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(log)], capture_output=True, text=True)
    assert proc.returncode == 2
    assert "garbled.jsonl:2: not valid JSON" in proc.stderr


def test_worked_example_draws_follow_the_rulebook():
    """Example of Gameplay: after each match Julie refills first, then the others to her left."""
    steps = {step.line: step for _, step in replay(EXAMPLE)}
    first = steps[line_of("She puts her New York into the center")].verdicts
    assert first[-3:] == ("Julie draws a Loot card (Top), a Henchman card (Top).",
                          "Mark draws a Location card (Top).", "Amberley's turn.")
    second = steps[line_of("She puts the Torch into the center")].verdicts
    assert second[-3:] == ("Julie draws a Location card (Bottom), a Henchman card (Bottom).",
                           "Amberley draws a Loot card (Top).", "Amberley's turn.")


def test_replay_cli_reads_a_saved_game_file_too(tmp_path):
    """A game saved by the app replays like its action log (the same records)."""
    from engine.replay import read_log
    from engine.session import Session

    head, records = read_log(EXAMPLE)
    path = tmp_path / "game.gumshoe"
    live = Session.new(head["game"], head["players"], head.get("options"), path=path)
    for _, record in records:
        live.apply(record)
    live.close()
    before = path.read_bytes()
    data = json.loads(subprocess.run([sys.executable, "-m", "engine", "replay", str(path), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
    assert data["winners"] == ["Julie"] and data["steps"] == len(records)
    assert data["journals"]["Julie"] == outcome_of_example()["journals"]["Julie"]
    assert path.read_bytes() == before


def outcome_of_example() -> dict:
    return json.loads(subprocess.run([sys.executable, "-m", "engine", "replay", str(EXAMPLE), "--json"],
                                     capture_output=True, text=True, check=True).stdout)
