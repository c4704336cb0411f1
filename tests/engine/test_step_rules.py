"""The rule of each step, for the table's "How to play" (issue 28, item 8).

Every game's shelf file (``assets/games/<id>.toml``) has a ``[step_rules]`` table: for each action
the engine can offer, the rule of that step in our own words (1-3 short sentences) and the section
it interprets. The section is a heading of the game's rulebook (``shared/rulebooks/``; "Parent:
Child" names a sub-heading under its heading, as the engines' ``RuleViolation`` sections do), or,
for an app interpretation the rulebook does not have, "Gumshoe: <a heading of docs/rules/<id>.md>".
A broken entry is a ``GameDataError`` naming the file and the entry.
"""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from engine.games import GAMES, GameDataError, StepRule, _parse_info, game_info, rules_for

ROOT = Path(__file__).resolve().parents[2]
RULEBOOKS = ROOT.parent / "shared" / "rulebooks"
RULEBOOK = {
    "carmen-cards": "carmen-sandiego-card-game.txt",
    "carmen-usa": "where-in-the-usa-is-carmen-sandiego.txt",
    "bonnie-clyde": "bonnie-and-clyde-mystery-rummy.txt",
    "39-clues": "the-39-clues-double-cross.txt",
    "sudds-malone": "sudds-and-malone.txt",
}
GUMSHOE = "Gumshoe: "
MAX_CHARS = 300
# Our own words: no run of this many words may be the rulebook's (checked on the words, not the case).
COPIED_RUN = 7


def letters(text: str) -> str:
    """Lower-case letters and digits only: the rulebook texts are PDF extractions, with headings in
    spaced capitals ("I N T E R F E R E N C E") and broken ligatures ("layoff  s")."""
    return re.sub(r"[^a-z0-9]", "", text.lower())


def words_of(text: str) -> list[str]:
    return re.findall(r"[a-z0-9$]+", text.lower().replace("’", "'"))


def sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?])\s+", text.strip()) if s]


def doc_headings(game: str) -> set[str]:
    text = (ROOT / "docs" / "rules" / f"{game}.md").read_text(encoding="utf-8")
    return {line.lstrip("#").strip().lower() for line in text.splitlines() if line.startswith("#")}


def rulebook_text(game: str) -> str:
    path = RULEBOOKS / RULEBOOK[game]
    if not path.exists():
        pytest.skip("the rulebooks are not beside the repository")
    return path.read_text(encoding="utf-8")


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_action_has_a_step_rule_and_every_step_rule_is_an_action(game):
    actions = set(rules_for(game).actions)
    rules = game_info(game).step_rules
    assert sorted(actions - set(rules)) == [], f"{game}: actions without a step rule"
    assert sorted(set(rules) - actions) == [], f"{game}: step rules for actions the game does not have"
    assert all(isinstance(r, StepRule) for r in rules.values())


@pytest.mark.parametrize("game", sorted(GAMES))
def test_every_step_rule_cites_a_rulebook_heading_or_a_gumshoe_reading(game):
    book = letters(rulebook_text(game))
    headings = doc_headings(game)
    for action, rule in game_info(game).step_rules.items():
        if rule.section.startswith(GUMSHOE):
            name = rule.section[len(GUMSHOE):]
            assert name.strip().lower() in headings, \
                f"{game}.{action}: {name!r} is not a heading of docs/rules/{game}.md"
            continue
        whole = letters(rule.section)
        parts = [letters(p) for p in rule.section.split(": ")]
        assert whole in book or all(p and p in book for p in parts), \
            f"{game}.{action}: {rule.section!r} is not a heading of the rulebook"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_step_rules_are_one_to_three_short_sentences(game):
    for action, rule in game_info(game).step_rules.items():
        words = rule.words
        assert words == words.strip() and "\n" not in words, f"{game}.{action}: one line, no padding"
        assert len(words) <= MAX_CHARS, f"{game}.{action}: {len(words)} characters (at most {MAX_CHARS})"
        assert words[-1] in ".!?", f"{game}.{action}: ends a sentence"
        assert 1 <= len(sentences(words)) <= 3, f"{game}.{action}: {len(sentences(words))} sentences"


@pytest.mark.parametrize("game", sorted(GAMES))
def test_step_rules_are_in_our_own_words(game):
    book = words_of(rulebook_text(game))
    runs = {tuple(book[i:i + COPIED_RUN]) for i in range(len(book) - COPIED_RUN + 1)}
    for action, rule in game_info(game).step_rules.items():
        mine = words_of(rule.words)
        copied = [" ".join(mine[i:i + COPIED_RUN]) for i in range(len(mine) - COPIED_RUN + 1)
                  if tuple(mine[i:i + COPIED_RUN]) in runs]
        assert not copied, f"{game}.{action}: copies the rulebook: {copied[0]!r}"


# --- a broken [step_rules] entry ---------------------------------------------------------------

SHELF = """\
[game]
id = "carmen-cards"
title = "A test shelf"
players = [2, 4]
ages = "8+"
pitch = "A pitch."
how_to_play = ["Play."]
"""


def shelf(tmp_path: Path, step_rules: str) -> Path:
    folder = tmp_path / "games"
    folder.mkdir()
    (folder / "carmen-cards.toml").write_text(SHELF + step_rules, encoding="utf-8")
    return folder


def test_step_rules_are_optional():
    info = _parse_info("carmen-cards", tomllib.loads(SHELF), "test.toml")
    assert dict(info.step_rules) == {}


def test_a_step_rule_is_read_from_the_folder_given(tmp_path):
    folder = shelf(tmp_path, '[step_rules]\nroll = { words = "Roll it.", section = "Chasing Leads" }\n')
    assert dict(game_info("carmen-cards", folder=folder).step_rules) == {
        "roll": StepRule("Roll it.", "Chasing Leads")}


@pytest.mark.parametrize("entry, why", [
    ('roll = "Roll the die."', "must be a table with 'words' and 'section'"),
    ('roll = ["Roll the die.", "It\'s Getting Dicey"]', "must be a table with 'words' and 'section'"),
    ('roll = { section = "It\'s Getting Dicey" }', "'words' must be a non-empty text"),
    ('roll = { words = "  ", section = "It\'s Getting Dicey" }', "'words' must be a non-empty text"),
    ('roll = { words = 3, section = "It\'s Getting Dicey" }', "'words' must be a non-empty text"),
    ('roll = { words = "Roll the die." }', "'section' must be a non-empty text"),
])
def test_a_broken_step_rule_is_a_clear_game_data_error(tmp_path, entry, why):
    folder = shelf(tmp_path, f"[step_rules]\n{entry}\n")
    with pytest.raises(GameDataError) as caught:
        game_info("carmen-cards", folder=folder)
    message = str(caught.value)
    assert "carmen-cards.toml" in message and "step_rules.roll" in message and why in message, message


def test_a_broken_step_rule_in_a_shipped_file_names_the_entry():
    """The real shelf file with one entry broken: the same clear error from _parse_info."""
    path = ROOT / "assets" / "games" / "sudds-malone.toml"
    raw = tomllib.loads(path.read_text(encoding="utf-8"))
    raw["step_rules"]["moxie"] = {"section": "Moxie"}
    with pytest.raises(GameDataError, match=r"step_rules\.moxie: 'words' must be a non-empty text"):
        _parse_info("sudds-malone", raw, str(path))
