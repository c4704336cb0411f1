"""What each field of an action must hold, checked against the action's declared type, in words.

Every game's actions are dataclasses with typed fields (``slot: str``, ``face: int``,
``confirm: bool``, ``cards: tuple[str, ...]``, ``dice: Mapping[str, int]``). A hand-written
action log or a damaged saved game may hold any JSON value in any field; the rules were written
for the declared types and, given a list where a card id belongs, fail deep inside with Python's
own words ("unhashable type: 'list'"). Checking every field here, from those declarations, for
every game at once, refuses such an action before the rules see it, in words a family reads:

>>> from engine.games.carmen import Peek, Roll
>>> field_problem(Peek, {"type": "peek", "player": "Ann", "slot": "Ann/loot/top", "card": ["x"]})
'The card must be a card id (text), not a list.'
>>> field_problem(Roll, {"type": "roll", "player": "Ann", "face": True})
'The face must be a whole number, not true or false.'
>>> field_problem(Roll, {"type": "roll", "player": "Ann", "face": 3}) is None
True

A game adds nothing to be checked: a new action is checked by declaring its fields' types.
"""

from __future__ import annotations

import dataclasses
import math
import typing
from collections.abc import Mapping
from typing import Any

# What a text field holds, by its name, where the name means the same in every game. A name
# that means different things in different games (``location`` is a place in one, a card in
# another) is not listed: its message says only "text".
_TEXT_MEANS = {
    "player": ("a player's name", "players' names"),
    "card": ("a card id", "card ids"),
    "cards": ("a card id", "card ids"),
    "loot_card": ("a card id", "card ids"),
    "location_card": ("a card id", "card ids"),
    "stoolie": ("a card id", "card ids"),
    "found": ("a card id", "card ids"),
    "revealed": ("a card id", "card ids"),
    "drawn": ("a card id", "card ids"),
    "display": ("a card id", "card ids"),
    "hand": ("a card id", "card ids"),
    "above": ("a card id", "card ids"),
    "slot": ("a place", "places"),
    "place": ("a place", "places"),
}


def kind_of(value: Any) -> str:
    """A JSON value's kind in words, for "..., not <kind>".

    >>> [kind_of(v) for v in (None, True, 2, 1.5, float("nan"), "x", [], {})]
    ['empty (null)', 'true or false', 'a number', 'a number with a fraction (1.5)', 'not a number (NaN)', 'text', 'a list', 'a table']
    """
    if value is None:
        return "empty (null)"
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int):
        return "a number"
    if isinstance(value, float):
        if math.isnan(value):
            return "not a number (NaN)"
        if math.isinf(value):
            return "an endless number (infinity)"
        return f"a number with a fraction ({value:g})"
    if isinstance(value, str):
        return "text"
    if isinstance(value, (list, tuple)):
        return "a list"
    if isinstance(value, Mapping):
        return "a table"
    return "something else"


def _is(value: Any, kind: type) -> bool:
    if kind is bool:
        return isinstance(value, bool)
    if kind is int:
        return isinstance(value, int) and not isinstance(value, bool)   # true is not 1 here
    if kind is float:
        return isinstance(value, (int, float)) and not isinstance(value, bool) and math.isfinite(value)
    return isinstance(value, kind)


_ONE = {str: "text", int: "a whole number", bool: "true or false", float: "a number"}
_MANY = {str: "texts", int: "whole numbers", bool: "true or false values", float: "numbers"}


@dataclasses.dataclass(frozen=True)
class _Spec:
    """One field's declared type, reduced to what JSON can hold."""

    shape: str                  # "one", "list" or "table"
    item: type                  # str, int, bool or float
    words: str                  # what it must be, in words: "a list of card ids (texts)"
    item_words: str             # one item: "a card id (text)"


def _spec(name: str, hint: Any) -> _Spec | None:
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    one, many = _TEXT_MEANS.get(name, (None, None))
    if hint in _ONE:
        words = f"{one} (text)" if hint is str and one else _ONE[hint]
        return _Spec("one", hint, words, words)
    if origin is tuple and len(args) == 2 and args[1] is Ellipsis and args[0] in _ONE:
        item = args[0]
        item_words = f"{one} (text)" if item is str and one else _ONE[item]
        words = f"a list of {many} (texts)" if item is str and many else f"a list of {_MANY[item]}"
        return _Spec("list", item, words, item_words)
    if origin in (Mapping, dict) and len(args) == 2 and args[0] is str and args[1] in _ONE:
        return _Spec("table", args[1], f"a table of {_MANY[args[1]]} (like {{\"x\": ...}})", _ONE[args[1]])
    return None                 # a type this module does not know: left to the rules


_SPECS: dict[type, dict[str, _Spec]] = {}


def _specs(cls: type) -> dict[str, _Spec]:
    specs = _SPECS.get(cls)
    if specs is None:
        hints = typing.get_type_hints(cls)
        specs = {f.name: s for f in dataclasses.fields(cls)
                 if (s := _spec(f.name, hints.get(f.name))) is not None}
        _SPECS[cls] = specs
    return specs


def _field_words(name: str) -> str:
    return "The " + name.replace("_", " ")


def field_problem(cls: type, raw: Mapping[str, Any]) -> str | None:
    """Why a JSON action's fields cannot make a ``cls`` (a sentence), or None when every field
    present holds a value of its declared type. Missing and unknown fields are not judged here."""
    for name, spec in _specs(cls).items():
        if name not in raw:
            continue
        value = raw[name]
        what = _field_words(name)
        if spec.shape == "one":
            if not _is(value, spec.item):
                return f"{what} must be {spec.words}, not {kind_of(value)}."
        elif spec.shape == "list":
            if not isinstance(value, (list, tuple)):
                return f"{what} must be {spec.words}, not {kind_of(value)}."
            for i, item in enumerate(value, 1):
                if not _is(item, spec.item):
                    return f"{what} must be {spec.words}: item {i} is {kind_of(item)}, not {spec.item_words}."
        else:
            if not isinstance(value, Mapping):
                return f"{what} must be {spec.words}, not {kind_of(value)}."
            for key, item in value.items():
                if not isinstance(key, str) or not _is(item, spec.item):
                    shown = key if isinstance(key, str) and len(key) <= 20 else "…"
                    return f"{what} must be {spec.words}: {shown!r} is {kind_of(item)}, not {spec.item_words}."
    return None


def type_problem(raw: Mapping[str, Any]) -> str | None:
    """Why an action's ``type`` cannot name an action (a sentence), or None."""
    kind = raw.get("type")
    if kind is None and "type" not in raw:
        return "An action needs a type (like \"type\": \"roll\")."
    if not isinstance(kind, str):
        return f"The action's type must be text (like \"roll\"), not {kind_of(kind)}."
    return None
