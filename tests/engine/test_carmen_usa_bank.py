"""Every question of our own US-geography bank, checked against the sourced facts.

The bank (assets/questions/carmen-usa-bank.json) is written by assets/questions/make_bank.py from
the `us` package, the hand-written facts (assets/questions/carmen-usa-facts.toml) and the board's
landmarks. Each question must have exactly one correct option among three (rulebook, Reading and
Answering Questions: "the reader reads the three choices below the question"), plausible wrong
options of the same sort that stay wrong under the other common convention for borders, an answer
that follows from facts with a source, no twin, and the three colour sets must be equally hard
(rulebook, Set Up 3: "There is no difference in difficulty").
"""

from __future__ import annotations

import importlib.util
import json
import statistics
import sys
import tomllib
from collections import Counter
from pathlib import Path

import pytest

from engine.cards import load_game_deck
from engine.games.carmen_usa.data import load_bank, parse_bank

ROOT = Path(__file__).resolve().parents[2]
BANK_PATH = ROOT / "assets" / "questions" / "carmen-usa-bank.json"
RAW = json.loads(BANK_PATH.read_text(encoding="utf-8"))
FACTS = RAW["facts"]
HAND = tomllib.loads((ROOT / "assets" / "questions" / "carmen-usa-facts.toml").read_text(encoding="utf-8"))
BOARD = tomllib.loads((ROOT / "assets" / "boards" / "carmen-usa.toml").read_text(encoding="utf-8"))
QUESTIONS = RAW["questions"]

STATES = sorted(RAW["states"])
NAME = {a: FACTS[f"name.{a}"]["value"] for a in STATES}
ABBR = {n: a for a, n in NAME.items()}
CAPITAL = {a: FACTS[f"capital.{a}"]["value"] for a in STATES}
YEAR = {a: FACTS[f"statehood.{a}"]["value"] for a in STATES}
ZONE = {a: FACTS[f"zone.{a}"]["value"] for a in STATES}
BORDERS = {a: set(FACTS[f"borders.{a}"]["value"]) for a in STATES}
LANDMARK = {k.split(".", 1)[1]: f["value"] for k, f in FACTS.items() if k.startswith("landmark.")}
BORDER_TEMPLATES = ("border-count", "border-both")


def wider_borders() -> dict[str, set[str]]:
    """The other convention: land and river borders plus the point and water contacts of the facts file
    (the Four Corners; Lake Michigan, Lake Superior, Block Island Sound)."""
    wide = {a: set(HAND["borders"][a]) for a in STATES}
    for a, b in HAND["other_contacts"]["point"] + HAND["other_contacts"]["water"]:
        wide[a].add(b)
        wide[b].add(a)
    return wide


WIDE = wider_borders()


def holds(q: dict, option: str, borders: dict[str, set[str]] = BORDERS) -> bool:
    """Whether ``option`` answers ``q`` correctly, worked out from the facts alone (``borders``: the
    border convention to judge border questions by)."""
    a = q.get("state")
    t = q["template"]
    if t in ("capital-of", "capital-of-abbr"):
        return option == CAPITAL[a]
    if t in ("state-of-capital", "state-of-abbr"):
        return option in ABBR and ABBR[option] == a
    if t in ("abbr-of", "abbr-of-capital"):
        return option == a
    if t == "capital-zone":
        return option == ZONE[a]
    if t == "statehood-year":
        return option == str(YEAR[a])
    if t == "year-state":
        return option in ABBR and YEAR[ABBR[option]] == YEAR[a]
    if t == "border-count":
        return option == str(len(borders[a]))
    if t == "border-both":
        x, y = q["pair"]
        return option in ABBR and ABBR[option] in borders[x] & borders[y]
    if t == "landmark-state":
        return option in ABBR and ABBR[option] == LANDMARK[q["landmark"]]
    if t == "landmark-capital":
        return option == CAPITAL[LANDMARK[q["landmark"]]]
    raise AssertionError(f"no checker for template {t!r}")


def sort_of(template: str) -> set[str]:
    """The values a question's options must all be drawn from (plausible: the same sort as the answer)."""
    if template in ("capital-of", "capital-of-abbr", "landmark-capital"):
        return set(CAPITAL.values())
    if template in ("state-of-capital", "state-of-abbr", "year-state", "border-both", "landmark-state"):
        return set(NAME.values())
    if template in ("abbr-of", "abbr-of-capital"):
        return set(STATES)
    if template == "capital-zone":
        return {"Eastern", "Central", "Mountain", "Pacific", "Alaska", "Hawaii-Aleutian"}
    if template == "statehood-year":
        return {str(y) for y in range(1787, 1960)}
    return {str(n) for n in range(0, 12)}


def test_at_least_600_questions_in_three_colour_sets():
    assert len(QUESTIONS) >= 600
    sizes = Counter(q["set"] for q in QUESTIONS)
    assert set(sizes) == {"red", "blue", "black"}
    assert max(sizes.values()) - min(sizes.values()) <= 1


def test_every_question_has_exactly_one_correct_option_among_three():
    """Reading and Answering Questions: "the reader reads the three choices below the question"."""
    for q in QUESTIONS:
        opts = q["options"]
        assert len(opts) == 3 and len(set(opts)) == 3, q["id"]
        right = [o for o in opts if holds(q, o)]
        assert right == [q["answer"]], f"{q['id']}: options that hold {right}, answer {q['answer']!r}"


def test_wrong_options_are_plausible_answers_of_the_same_sort():
    for q in QUESTIONS:
        assert set(q["options"]) <= sort_of(q["template"]), q["id"]
    # Capitals' wrong options come from nearby states (a neighbour's capital when there is one).
    q = next(q for q in QUESTIONS if q["id"] == "capital-of.MN")
    assert {CAPITAL[a] for a in BORDERS["MN"]} >= set(q["options"]) - {q["answer"]}


def test_no_duplicate_question():
    ids = [q["id"] for q in QUESTIONS]
    texts = [q["text"] for q in QUESTIONS]
    assert len(set(ids)) == len(ids)
    assert len(set(texts)) == len(texts), [t for t, n in Counter(texts).items() if n > 1][:5]


def test_every_answer_rests_on_facts_with_a_source():
    sources = RAW["sources"]
    for q in QUESTIONS:
        assert q["facts"], q["id"]
        for fid in q["facts"]:
            fact = FACTS[fid]
            assert fact["source"] in sources and sources[fact["source"]]["url"].startswith("https://")
    for lm in BOARD["landmarks"]:
        if f"landmark.{lm['id']}" in FACTS:
            assert lm["source"].startswith("https://www.nps.gov/"), lm["id"]


def test_bank_facts_agree_with_the_hand_written_facts_and_the_board():
    for a in STATES:
        assert BORDERS[a] == set(HAND["borders"][a])
        for b in BORDERS[a]:
            assert a in BORDERS[b], f"{a}-{b} is not symmetric"
    for lm in BOARD["landmarks"]:
        if "states" in lm:
            assert lm["id"] not in LANDMARK          # Four Corners: in no single state, never asked
        else:
            assert LANDMARK[lm["id"]] == lm["state"]


def test_disputed_point_contacts_are_not_borders():
    """Point and water contacts are no land or river borders; the other convention counts them."""
    assert "CO" not in BORDERS["AZ"] and "UT" not in BORDERS["NM"]
    assert "MI" not in BORDERS["IL"] and "RI" not in BORDERS["NY"] and "MI" not in BORDERS["MN"]
    assert {"CO"} <= WIDE["AZ"] and {"UT"} <= WIDE["NM"] and {"IL", "MN"} <= WIDE["MI"] and "RI" in WIDE["NY"]
    assert all(BORDERS[a] <= WIDE[a] for a in STATES)


def test_every_border_question_says_land_or_river_border():
    """A border question names its convention, so the Four Corners and lake or sea contacts do not count."""
    border = [q for q in QUESTIONS if q["template"] in BORDER_TEMPLATES]
    assert len(border) > 100
    for q in border:
        assert "share a land or river border" in q["text"] or "shares a land or river border" in q["text"], q["id"]


def test_no_wrong_option_of_a_border_question_is_right_under_the_other_convention():
    """Counting point contacts (the Four Corners) and lake or sea boundaries as borders must not make a
    second option right: e.g. "borders both New Mexico and Nevada?" must not offer Utah."""
    for q in QUESTIONS:
        if q["template"] not in BORDER_TEMPLATES:
            continue
        wrong_but_right = [o for o in q["options"] if o != q["answer"] and holds(q, o, WIDE)]
        assert not wrong_but_right, f"{q['id']}: {wrong_but_right} right if point or water contacts count"
    # The check can fail: the options the old four-choice bank offered here are caught.
    utah = {"template": "border-both", "state": "AZ", "pair": ["NM", "NV"]}
    assert holds(utah, "Utah", WIDE) and not holds(utah, "Utah")
    michigan = {"template": "border-count", "state": "MI"}
    assert holds(michigan, "5", WIDE) and not holds(michigan, "5")


def test_options_a_player_could_argue_for_are_never_offered():
    """A wrong option must be plainly wrong: the facts file lists the few a player could argue for
    (the Statue of Liberty stands on a New York island in New Jersey's waters; Phoenix's summer clocks
    read Pacific time)."""
    never = HAND["never_offer"]
    by_id = {q["id"]: q for q in QUESTIONS}
    assert set(never) <= set(by_id)
    for qid, options in never.items():
        assert not set(options) & set(by_id[qid]["options"]), qid


def test_capital_tokens_in_the_deck_match_the_facts():
    deck = load_game_deck("carmen-usa")
    tokens = deck.of_kind("capital")
    assert len(tokens) == 50
    assert {c.attrs["state"]: c.name for c in tokens} == CAPITAL


def test_colour_sets_are_equally_hard():
    """Set Up 3: no difference in difficulty among the red, blue and black questions."""
    per = {c: [q for q in QUESTIONS if q["set"] == c] for c in ("red", "blue", "black")}
    for template in {q["template"] for q in QUESTIONS}:
        counts = [sum(1 for q in qs if q["template"] == template) for qs in per.values()]
        assert max(counts) - min(counts) <= 1, (template, counts)
    means = [statistics.mean(q["difficulty"] for q in qs) for qs in per.values()]
    assert max(means) - min(means) < 0.05, means


def test_engine_reads_the_bank_and_rejects_a_broken_one(tmp_path):
    bank = load_bank()
    assert len(bank.questions) == len(QUESTIONS)
    assert len(bank.of_set("red")) + len(bank.of_set("blue")) + len(bank.of_set("black")) == len(QUESTIONS)
    broken = dict(RAW, questions=[dict(QUESTIONS[0], answer="Atlantis")])
    path = tmp_path / "bank.json"
    path.write_text(json.dumps(broken))
    with pytest.raises(Exception, match="answer not among its options"):
        parse_bank(path)
    four = dict(RAW, questions=[dict(QUESTIONS[0], options=[*QUESTIONS[0]["options"], "Atlantis"])])
    path.write_text(json.dumps(four))
    with pytest.raises(Exception, match="needs 3 different choices, has 4"):
        parse_bank(path)
    path.write_text("{not json")
    with pytest.raises(Exception, match="cannot be read as JSON"):
        parse_bank(path)


@pytest.mark.skipif(importlib.util.find_spec("us") is None, reason="the generator needs the `us` package")
def test_generator_reproduces_the_shipped_bank():
    sys.path.insert(0, str(ROOT / "assets" / "questions"))
    try:
        import make_bank
    finally:
        sys.path.pop(0)
    assert json.loads(json.dumps(make_bank.build(), ensure_ascii=False)) == RAW
