"""Names a family types: players' names, and card names in deck and correction files.

A name is shown on the table screen, in prompts, in the log and in every journal, so it
must be short enough to fit beside the Undo button and hold only characters that print:
no NUL, no line breaks or tabs, no control characters, and none of the invisible
characters that reorder text (bidi overrides such as U+202E make ``Ann`` read as ``nnA``
in the log and can disguise one name as another). Emoji, accents and every script are
welcome. Spaces around a name are dropped.

>>> check_player_name("  Julie ")
'Julie'
>>> name_problem("Ann\\u202eboB")
'it holds an invisible character that changes the direction of the text (U+202E)'
>>> check_player_name("A" * 30)
Traceback (most recent call last):
...
engine.errors.BadInput: 'AAAAAAAAAAAAAAAAAAAAAAAA…' is too long for a player's name: at most 24 characters (it has 30).
"""

from __future__ import annotations

import unicodedata

from .errors import BadInput

MAX_PLAYER_NAME = 24    # fits a seat label, a prompt and the turn line on an 800 px wide window
MAX_CARD_NAME = 60      # the longest printed card names are about 30 characters

# Format characters that join emoji and scripts (zero-width joiner/non-joiner, emoji tag
# characters for flags): allowed. Every other format character (bidi overrides and
# isolates, zero-width spaces, soft hyphens used to hide text) is refused.
_ALLOWED_FORMAT = {0x200C, 0x200D, *range(0xE0020, 0xE0080)}
_BIDI = {0x061C, 0x200E, 0x200F, *range(0x202A, 0x202F), *range(0x2066, 0x206A)}


def _describe(ch: str) -> str:
    code = ord(ch)
    if ch == "\x00":
        return "an empty (NUL) character"
    if ch in "\n\r\x0b\x0c\x85\u2028\u2029":
        return "a line break"
    if ch == "\t":
        return "a tab"
    if code in _BIDI:
        return f"an invisible character that changes the direction of the text (U+{code:04X})"
    category = unicodedata.category(ch)
    if category == "Cc":
        return f"a control character (U+{code:04X})"
    if category == "Cs":
        return f"a broken character (U+{code:04X})"
    if category == "Cn":
        return f"a character that has no meaning yet (U+{code:04X})"
    return f"an invisible character (U+{code:04X})"


def _bad(ch: str) -> bool:
    category = unicodedata.category(ch)
    if category in ("Cc", "Cs", "Cn", "Zl", "Zp"):
        return True
    return category == "Cf" and ord(ch) not in _ALLOWED_FORMAT


def name_problem(text: object, max_chars: int = MAX_PLAYER_NAME) -> str | None:
    """What is wrong with a name, in plain words (None when it is fine).

    The name is judged as it will be used: with the spaces around it dropped.

    >>> name_problem("Mark"), name_problem("   "), name_problem("Ann\\nBob")
    (None, 'it is empty', 'it holds a line break')
    """
    if not isinstance(text, str):
        return f"it must be text, not {type(text).__name__}"
    for ch in text:
        if _bad(ch):
            return f"it holds {_describe(ch)}"
    name = text.strip()
    if not name:
        return "it is empty"
    if len(name) > max_chars:
        return f"at most {max_chars} characters (it has {len(name)})"
    return None


def _shown(text: object, limit: int = 24) -> str:
    """A bad name quoted safely in a message: printable, and cut short."""
    if not isinstance(text, str):
        return repr(text)[:limit]
    clean = "".join(ch if not _bad(ch) else "?" for ch in text.strip())
    return repr(clean if len(clean) <= limit else clean[:limit] + "…")


def check_player_name(text: object) -> str:
    """The player's name with surrounding spaces dropped, or :class:`BadInput` saying why not.

    >>> check_player_name("Amberley")
    'Amberley'
    """
    problem = name_problem(text, MAX_PLAYER_NAME)
    if problem is None:
        return str(text).strip()
    if problem.startswith("at most"):
        raise BadInput(f"{_shown(text)} is too long for a player's name: {problem}.")
    if problem == "it is empty":
        raise BadInput("Every player needs a name.")
    raise BadInput(f"{_shown(text)} cannot be a player's name: {problem}.")


def check_player_names(names: object) -> tuple[str, ...]:
    """Every name checked (:func:`check_player_name`), and no name twice.

    >>> check_player_names(["Ann ", "Bob"])
    ('Ann', 'Bob')
    """
    if isinstance(names, (str, bytes)) or not isinstance(names, (list, tuple)):
        raise BadInput(f"The players must be a list of names, not {type(names).__name__}.")
    out = tuple(check_player_name(n) for n in names)
    if len({n.casefold() for n in out}) != len(out):
        raise BadInput("Two players have the same name; add an initial to tell them apart.")
    return out


def card_name_problem(text: object) -> str | None:
    """What is wrong with a card's name in a deck or correction file (None when fine)."""
    return name_problem(text, MAX_CARD_NAME)
