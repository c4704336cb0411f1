"""Bonnie and Clyde golden replays: recorded action logs replayed, journals and scores checked.

- ``bonnie-clyde-shutout.jsonl``: a whole hand ending by going out, with a shut-out.
- ``bonnie-clyde-casefile-runs-out.jsonl``: four players; the hand ends when the Case File runs out.
- ``bonnie-clyde-game-to-100.jsonl``: a game over three hands, won past 100.
- ``bonnie-clyde-tie.jsonl``: 100-100 after three hands forces a fourth.
- ``bonnie-clyde-bonus-sherman.jsonl`` / ``-grapevine.jsonl``: the rulebook's bonus examples (2 and 9).

Short logs are compared step by step with their ``.expected.txt`` transcript (every journal at full
assist); long ones with their ``.expected.json`` outcome. Regenerate after a deliberate change with
``GUMSHOE_UPDATE_GOLDEN=1 pytest tests/engine/test_bonnie_clyde_golden.py`` and review the diff.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from engine.game import Assist
from engine.replay import outcome_json, replay, run

GOLDEN = Path(__file__).parent / "golden"
TRANSCRIPTS = ["bonnie-clyde-shutout", "bonnie-clyde-bonus-sherman", "bonnie-clyde-bonus-grapevine"]
OUTCOMES = ["bonnie-clyde-casefile-runs-out", "bonnie-clyde-game-to-100", "bonnie-clyde-tie"]
UPDATE = bool(os.environ.get("GUMSHOE_UPDATE_GOLDEN"))


def transcript(path: Path) -> str:
    """Each step's public words and verdicts, then what changed in each player's full journal
    (card lines and notes), so a reviewer sees exactly what every step taught whom."""
    out = []
    before: dict[str, tuple[set, set]] = {}
    for session, step in replay(path):
        out.append(f"[line {step.line}] {step.words}")
        out += [f"  > {text}" for text in step.verdicts]
        for p in session.players:
            j = session.journal(p, Assist.FULL)
            lines = {f"{e.name} [{e.card.split('.')[-1]}]: {e.where}" for e in j.entries if e.where != "Unknown"}
            notes = {f"{d.text} ({d.reason})" for d in j.deductions}
            old_lines, old_notes = before.get(p, (set(), set()))
            new = sorted(lines - old_lines) + sorted(notes - old_notes)
            gone = sorted(old_lines - lines)
            if new or gone:
                out.append(f"  {p}:")
                out += [f"    + {t}" for t in new] + [f"    - {t}" for t in gone]
            before[p] = (lines, notes)
    return "\n".join(out) + "\n"


@pytest.mark.parametrize("name", TRANSCRIPTS)
def test_journals_at_every_step_match_the_golden_transcript(name: str) -> None:
    expected = GOLDEN / f"{name}.expected.txt"
    got = transcript(GOLDEN / f"{name}.jsonl")
    if UPDATE:
        expected.write_text(got, encoding="utf-8")
    assert got == expected.read_text(encoding="utf-8")


@pytest.mark.parametrize("name", OUTCOMES)
def test_outcome_and_final_journals_match_the_golden_file(name: str) -> None:
    expected = GOLDEN / f"{name}.expected.json"
    result = run(GOLDEN / f"{name}.jsonl")
    got = outcome_json(result, Assist.FULL)
    got["hands"] = [dict(r["points"]) for r in result.session.state.results]
    got["public_log_tail"] = result.session.public_log()[-4:]
    if UPDATE:
        expected.write_text(json.dumps(got, indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    assert got == json.loads(expected.read_text(encoding="utf-8"))


def results(name: str) -> tuple:
    result = run(GOLDEN / f"{name}.jsonl")
    assert result.violations == [], result.violations
    return result.session, result.session.state.results


def lines_of(result: dict, player: str) -> dict[str, int]:
    out: dict[str, int] = {}
    for ln in result["lines"]:
        if ln["player"] == player:
            out[ln["item"]] = out.get(ln["item"], 0) + ln["points"]
    return out


def test_shutout_hand_scores_line_by_line() -> None:
    """Scoring: sideways 4, captured outlaws 10 each, the car's number as bonus; Shut Out: Bob gets 0."""
    s, res = results("bonnie-clyde-shutout")
    (hand,) = res
    assert hand["went_out"] and hand["ender"] == "Ann" and hand["shut_out"]
    assert lines_of(hand, "Ann") == {"sideways": 40, "capture": 20, "bonus": 4}
    assert hand["points"] == {"Ann": 64, "Bob": 0}
    # Ann's private look under Joplin (an Eastham card she left) is hers alone.
    bob = {d.data["location"]: d for d in s.journal("Bob", "full").deductions if d.kind == "location"}
    ann = {d.data["location"]: d for d in s.journal("Ann", "full").deductions if d.kind == "location"}
    assert ann[3].data["card"] == "bonnie-clyde.evidence.location-7-f"
    assert bob[3].data["card"] is None and bob[3].data["not_outlaw"]
    assert bob[1].data["card"] == "bonnie-clyde.outlaw.bonnie-parker"      # captured: public
    shared = " ".join(s.public_log() + s.undo_history())
    assert "Eastham" not in shared


def test_rulebook_bonus_examples_sherman_2_and_grapevine_9() -> None:
    """Scoring, Bonus: "if the Crime Spree Car is on Sherman Texas, that player gets 2 extra points, but
    if the Crime Spree Car is on Grapevine Texas, that player gets 9 extra points"."""
    _, (sherman,) = results("bonnie-clyde-bonus-sherman")
    assert sherman["car"] == 2 and lines_of(sherman, "Ann")["bonus"] == 2
    assert sherman["points"]["Ann"] == 7 * 4 + 3 * 2 + 2
    _, (grapevine,) = results("bonnie-clyde-bonus-grapevine")
    assert grapevine["car"] == 9 and lines_of(grapevine, "Ann")["bonus"] == 9
    assert grapevine["points"] == {"Ann": 9 * 4 + 2 * 2 + 9, "Bob": 9 * 4}


def test_casefile_runs_out_ends_the_hand_without_bonus() -> None:
    """Ending a Hand: the last card of the Case File is drawn (here by Ted Hinton's draw 2 with one card
    left); that player discards and the hand ends; no bonus (Scoring, Bonus)."""
    s, (hand,) = results("bonnie-clyde-casefile-runs-out")
    assert not hand["went_out"]
    assert "bonus" not in {ln["item"] for ln in hand["lines"]}
    assert hand["points"] == {"Ann": 6, "Bob": 2, "Cyd": 0, "Dee": 0}
    log = s.public_log()
    assert any("drew 1 card from the Case File (0 left)" in t for t in log)
    assert any("the Case File ran out, so no bonus" in t for t in log)


def test_ted_hinton_take_from_files_leaves_others_with_one_of_these() -> None:
    """Play, Ted Hinton: Dee took one card from the FBI Files unseen; the others know only the group."""
    path = GOLDEN / "bonnie-clyde-casefile-runs-out.jsonl"
    for session, step in replay(path):
        if step.record.get("type") == "take_file":
            dee = session.journal("Dee", "notes")
            ann = session.journal("Ann", "notes")
            assert dee.where("bonnie-clyde.evidence.location-5-a") == "Dee's hand"
            assert ann.where("bonnie-clyde.evidence.location-5-a") == "Unknown"
            files = next(d for d in ann.deductions if d.kind == "fbi_files")
            (group,) = files.data["unseen"]
            assert "bonnie-clyde.evidence.location-5-a" in group["cards"] and group["elsewhere"] == ["Dee/hand"]
            assert len(group["cards"]) == 4 and group["in_files"] == 3
            return
    raise AssertionError("no take_file in the golden log")


def test_game_over_several_hands_ends_past_100() -> None:
    """Scoring: the game ends when a player has 100 or more; any player deals each new hand (here in turn)."""
    s, res = results("bonnie-clyde-game-to-100")
    assert [r["points"] for r in res] == [{"Ann": 64, "Bob": 0}, {"Ann": 0, "Bob": 54}, {"Ann": 54, "Bob": 0}]
    assert s.outcome.winners == ("Ann",) and s.state.scores.totals() == {"Ann": 118, "Bob": 54}
    deals = [e.data["dealer"] for e in s.log if e.type == "deal"]
    assert deals == ["Bob", "Ann", "Bob"]


def test_tie_at_the_top_forces_another_hand() -> None:
    """Scoring: "If players tie with the most points, play another hand"."""
    s, res = results("bonnie-clyde-tie")
    assert len(res) == 4
    assert res[2]["totals"] == {"Ann": 100, "Bob": 100}
    assert any("Ann and Bob tie with 100: another hand." in t for t in s.public_log())
    assert s.outcome.winners == ("Bob",) and s.state.scores.totals() == {"Ann": 100, "Bob": 164}


def test_replay_cli_works_for_this_game() -> None:
    """``python -m engine replay <golden>.jsonl`` (JSON and text) replays our logs without a refused line."""
    proc = subprocess.run([sys.executable, "-m", "engine", "replay", str(GOLDEN / "bonnie-clyde-tie.jsonl"), "--json"],
                          capture_output=True, text=True, check=True)
    data = json.loads(proc.stdout)
    assert data["game"] == "bonnie-clyde" and data["violations"] == [] and data["winners"] == ["Bob"]
    text = subprocess.run([sys.executable, "-m", "engine", "replay", str(GOLDEN / "bonnie-clyde-shutout.jsonl")],
                          capture_output=True, text=True, check=True).stdout
    assert "Ann: 10 sideways Evidence x 4 = 40" in text and "refused" not in text
