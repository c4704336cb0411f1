"""The Sudds & Malone box as data: map, player-board tracks, calendar, snitches, card contents.

The shipped file ``assets/boxes/sudds-malone.toml`` marks every value verified (the
rulebook states it) or not (our best reading). A family's own file
``<user dir>/boxes/sudds-malone.toml`` holds their answers, one ``[answers."<key>"]``
table per value they checked; it overrides the shipped entry and counts as verified.

"Learn your box": :meth:`Box.question` describes the small form for one value (its fields,
their kinds and choices, the current reading) and :func:`save_answer` checks an answer and
writes it to the family's file; from then on the value is theirs.

>>> box = load_box(user_file=None)
>>> box.allowance("calendar", 1), box.step_cost("office", 3)
(2, 2)
>>> box.is_verified("calendar.1.monday"), box.is_verified("track.office.2")
(True, False)
>>> [f.name for f in box.question("track.office.2").fields]
['cost', 'allowance', 'reward']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any, Mapping

from ...paths import assets_dir, read_toml, user_dir

GAME = "sudds-malone"
TRACKS = ("office", "calendar", "investigate", "flimflam", "cases", "moxie")   # die values 1-6
EVIDENCE = ("glass", "notebook", "telephone", "fedora")
PLAIN_EVIDENCE = ("glass", "notebook", "telephone")
DAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday")
WEEKS = 4
LEVELS = 4
TYPES = ("mole", "rat", "frog")
TABS = ("A", "B", "C")
PLAYER_SETS = ("all", "3+", "4")

SIMPLE_REWARDS = ("bonus", "snitch", "fedora", "peek", "case", "news", "cash_or_points", "evidence")
_REWARD_PART = re.compile(r"^(points|cash|bullets):([0-9]+)$")


class BoxError(ValueError):
    """A box file that cannot be used; the message names the file and the entry."""


def parse_reward(text: Any) -> tuple[str, ...]:
    """A reward word as parts: ``"points:2+fedora"`` -> ``("points:2", "fedora")``.

    >>> parse_reward("points:2+fedora")
    ('points:2', 'fedora')
    """
    if not isinstance(text, str) or not text:
        raise ValueError("a reward must be a word such as 'points:2', 'cash:1', 'snitch' or 'bonus'")
    parts = tuple(p.strip() for p in text.split("+"))
    for p in parts:
        m = _REWARD_PART.match(p)
        if p not in SIMPLE_REWARDS and not (m and int(m.group(2)) > 0):
            raise ValueError(f"unknown reward {p!r} (known: points:N, cash:N, bullets:N, {', '.join(SIMPLE_REWARDS)})")
    return parts


@dataclass(frozen=True)
class Level:
    level: int
    cost: int          # cash to move up into this level (0 for level 1)
    allowance: int
    reward: tuple[str, ...]


@dataclass(frozen=True)
class Flimflam:
    id: str
    cost: str          # "cash" or "bullet" (one of it)
    reward: tuple[str, ...]
    tabs: str          # letters, "*" for a wild tab
    cat: bool
    back: str          # evidence word or "bullets"
    cover: int         # 1-4


@dataclass(frozen=True)
class Case:
    id: str
    cost: tuple[str, ...]     # evidence words, "any" for any one
    points: int
    cash: int
    tabs: str
    bottom: str               # "matchbook:<name>", an evidence word, or "cash:1"


@dataclass(frozen=True)
class Hunch:
    id: str
    points: Mapping[str, int]     # mole/rat/frog -> points per suspect of that type
    players: str                  # "all", "3+" or "4"


@dataclass(frozen=True)
class FormField:
    """One field of a learn-your-box form."""

    name: str
    label: str
    kind: str                      # "int", "choice", "text", "list"
    choices: tuple[Any, ...] = ()
    current: Any = None


@dataclass(frozen=True)
class Question:
    """What the app asks the family about one value of their box."""

    key: str
    title: str
    help: str
    fields: tuple[FormField, ...]


@dataclass(frozen=True)
class ReviewRow:
    """One line of the box review: the value, its current reading, and where it comes from."""

    key: str
    title: str
    values: Mapping[str, Any]
    source: str            # "family", "rulebook" or "our reading"


@dataclass(frozen=True)
class Box:
    """Every value the rules need, each with where it came from."""

    locations: Mapping[str, str]                       # id -> name
    neighbours: Mapping[str, tuple[str, ...]]
    tracks: Mapping[str, tuple[Level, ...]]
    calendar: Mapping[tuple[int, str], tuple[str, ...]]
    snitch_evidence: tuple[str, ...]
    snitch_tab: str
    flimflams: Mapping[str, Flimflam]                 # short id -> content
    cases: Mapping[str, Case]
    hunches: Mapping[str, Hunch]
    cases_in_play: int
    verified: frozenset[str]                           # keys the rulebook or the family confirms
    family: frozenset[str] = frozenset()               # keys the family answered
    source: str = ""
    user_file: Path | None = None
    raw: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, compare=False, repr=False)

    # --- reading values --------------------------------------------------------------
    def level(self, track: str, level: int) -> Level:
        return self.tracks[track][level - 1]

    def allowance(self, track: str, level: int) -> int:
        return self.level(track, level).allowance

    def step_cost(self, track: str, to_level: int) -> int:
        return self.level(track, to_level).cost

    def day(self, week: int, day: str) -> tuple[str, ...]:
        return self.calendar[(week, day)]

    def keys(self) -> list[str]:
        """Every learnable value, in the order a review screen lists them."""
        out = ["count.cases"]
        out += [f"map.{loc}" for loc in self.locations]
        out += [f"track.{t}.{n}" for t in TRACKS for n in range(1, LEVELS + 1)]
        out += [f"calendar.{w}.{d}" for w in range(1, WEEKS + 1) for d in DAYS]
        out += ["snitches"]
        out += [f"flimflam.{k}" for k in self.flimflams]
        out += [f"case.{k}" for k in self.cases]
        out += [f"hunch.{k}" for k in self.hunches]
        return out

    def is_verified(self, key: str) -> bool:
        return key in self.verified or key in self.family

    def unverified(self) -> list[str]:
        return [k for k in self.keys() if not self.is_verified(k)]

    def source_of(self, key: str) -> str:
        """Where a value comes from: "family" (their answer), "rulebook" (verified) or "our reading"."""
        return "family" if key in self.family else "rulebook" if key in self.verified else "our reading"

    def review(self) -> list[ReviewRow]:
        """Every value of the box on one list, for the screen where a family checks and corrects it.

        >>> rows = load_box(user_file=None).review()
        >>> rows[0].key, rows[0].source, len(rows) == len(load_box(user_file=None).keys())
        ('count.cases', 'our reading', True)
        """
        rows = []
        for key in self.keys():
            q = self.question(key)
            rows.append(ReviewRow(key, q.title, self.current(key), self.source_of(key)))
        return rows

    # --- learn your box --------------------------------------------------------------
    def question(self, key: str) -> Question:
        """The form for one value: its fields with kinds, choices and the current reading."""
        kind, _, rest = key.partition(".")
        cur = self.current(key)
        reward_help = ("Rewards: points:N, cash:N, bullets:N, bonus, snitch, fedora, peek, case, news, "
                       "cash_or_points, evidence; join two with '+'.")
        if kind == "count":
            return Question(key, "How many Case cards does your game use?",
                            "The component list says 72, the setup says 60. Count the Case cards you shuffle.",
                            (FormField("cases_in_play", "Case cards", "int", (60, 72), cur["cases_in_play"]),))
        if kind == "map":
            return Question(key, f"Which locations touch {self.locations[rest]} on your board?",
                            "Moves go to an adjacent location (not diagonal).",
                            (FormField("neighbours", "Adjacent locations", "list",
                                       tuple(x for x in self.locations if x != rest), cur["neighbours"]),))
        if kind == "track":
            track, n = rest.split(".")
            fields = []
            if n != "1":
                fields.append(FormField("cost", f"Cash to move up to level {n}", "int", (), cur.get("cost")))
            fields.append(FormField("allowance", f"What the {track} action does at level {n} (how many)", "int", (),
                                    cur["allowance"]))
            if n != "1":
                fields.append(FormField("reward", f"Reward for reaching level {n}", "text", (), cur.get("reward")))
            return Question(key, f"Your player board: {track.capitalize()} column, level {n}", reward_help,
                            tuple(fields))
        if kind == "calendar":
            week, day = rest.split(".")
            return Question(key, f"Calendar: week {week}, {day.capitalize()}", reward_help,
                            (FormField("reward", "Reward of this day", "text", (), cur["reward"]),))
        if kind == "snitches":
            return Question(key, "Your snitch tokens", "Which evidence each of a colour's 3 snitches shows, "
                            "and which tab a snitch counts as for a hunch.",
                            (FormField("evidence", "Evidence on the 3 snitches", "list", PLAIN_EVIDENCE + ("fedora",),
                                       cur["evidence"]),
                             FormField("tab", "Tab", "choice", ("wild", "A", "B", "C"), cur["tab"])))
        if kind == "flimflam":
            return Question(key, f"Flimflam card {rest}", "Cost, reward and tabs on the face; penalty (a cat?); "
                            "on the back the evidence (or bullets) and the suspect position 1-4. " + reward_help,
                            (FormField("cost", "Cost", "choice", ("cash:1", "bullet:1"), cur["cost"]),
                             FormField("reward", "Reward", "text", (), cur["reward"]),
                             FormField("tabs", "Tabs (letters, * for wild)", "text", (), cur["tabs"]),
                             FormField("cat", "Cat penalty", "choice", (True, False), cur["cat"]),
                             FormField("back", "Back: evidence or bullets", "choice", EVIDENCE + ("bullets",),
                                       cur["back"]),
                             FormField("cover", "Back: suspect position", "choice", (1, 2, 3, 4), cur["cover"])))
        if kind == "case":
            return Question(key, f"Case card {rest}", "Top: the evidence it costs ('any' for any one), the points and "
                            "cash it pays, its tabs. Bottom: a matchbook (matchbook:<name>) or evidence / cash:1.",
                            (FormField("cost", "Evidence to pay", "list", PLAIN_EVIDENCE + ("any",), cur["cost"]),
                             FormField("points", "Points", "int", (), cur["points"]),
                             FormField("cash", "Cash", "int", (), cur["cash"]),
                             FormField("tabs", "Tabs (letters)", "text", (), cur["tabs"]),
                             FormField("bottom", "Bottom", "text", (), cur["bottom"])))
        if kind == "hunch":
            return Question(key, f"Hunch card {rest}", "Points for each Mole, Rat and Frog in the Conspiracy, and "
                            "the player-count mark (none, 3+ or 4).",
                            (FormField("mole", "Per Mole", "int", (), cur["mole"]),
                             FormField("rat", "Per Rat", "int", (), cur["rat"]),
                             FormField("frog", "Per Frog", "int", (), cur["frog"]),
                             FormField("players", "Mark", "choice", PLAYER_SETS, cur["players"])))
        raise BoxError(f"{key!r} is not a value of the Sudds & Malone box")

    def current(self, key: str) -> dict[str, Any]:
        """The value of ``key`` as the form's field values."""
        kind, _, rest = key.partition(".")
        if kind == "count":
            return {"cases_in_play": self.cases_in_play}
        if kind == "map":
            return {"neighbours": list(self.neighbours[rest])}
        if kind == "track":
            track, n = rest.split(".")
            lv = self.level(track, int(n))
            out: dict[str, Any] = {"allowance": lv.allowance}
            if lv.level > 1:
                out.update(cost=lv.cost, reward="+".join(lv.reward))
            return out
        if kind == "calendar":
            week, day = rest.split(".")
            return {"reward": "+".join(self.day(int(week), day))}
        if kind == "snitches":
            return {"evidence": list(self.snitch_evidence), "tab": self.snitch_tab}
        if kind == "flimflam":
            f = self.flimflams[rest]
            return {"cost": f.cost + ":1", "reward": "+".join(f.reward), "tabs": f.tabs, "cat": f.cat,
                    "back": f.back, "cover": f.cover}
        if kind == "case":
            c = self.cases[rest]
            return {"cost": list(c.cost), "points": c.points, "cash": c.cash, "tabs": c.tabs, "bottom": c.bottom}
        if kind == "hunch":
            h = self.hunches[rest]
            return {**dict(h.points), "players": h.players}
        raise BoxError(f"{key!r} is not a value of the Sudds & Malone box")


# --- loading and checking ---------------------------------------------------------------
def _want(cond: bool, where: str, what: str) -> None:
    if not cond:
        raise BoxError(f"{where}: {what}")


def _int(raw: Mapping, name: str, where: str, low: int | None = None, high: int | None = None) -> int:
    v = raw.get(name)
    _want(type(v) is int, where, f"'{name}' must be a whole number")
    _want((low is None or v >= low) and (high is None or v <= high), where,
          f"'{name}' must be between {low} and {high}" if high is not None else f"'{name}' must be at least {low}")
    return v


def _reward(raw: Mapping, name: str, where: str) -> tuple[str, ...]:
    try:
        return parse_reward(raw.get(name))
    except ValueError as exc:
        raise BoxError(f"{where}: '{name}': {exc}") from None


def _tabs(value: Any, where: str, wild: bool) -> str:
    allowed = set(TABS) | ({"*"} if wild else set())
    _want(isinstance(value, str) and value and set(value) <= allowed and len(set(value)) == len(value), where,
          "'tabs' must be letters A, B, C" + (" or * (wild)" if wild else "") + ", each once")
    return value


def _verified(raw: Mapping, fields: tuple[str, ...], where: str) -> bool:
    if "verified_fields" in raw:
        vf = raw["verified_fields"]
        _want(isinstance(vf, list) and set(vf) <= set(fields), where,
              f"'verified_fields' must list fields of this entry ({', '.join(fields)})")
        return set(vf) >= set(fields)
    v = raw.get("verified", False)
    _want(isinstance(v, bool), where, "'verified' must be true or false")
    return v


def _parse_flimflam(fid: str, raw: Mapping, where: str) -> Flimflam:
    cost = raw.get("cost")
    _want(cost in ("cash:1", "bullet:1"), where, "'cost' must be 'cash:1' or 'bullet:1'")
    back = raw.get("back")
    _want(back in EVIDENCE + ("bullets",), where, "'back' must be glass, notebook, telephone, fedora or bullets")
    cat = raw.get("cat", False)
    _want(isinstance(cat, bool), where, "'cat' must be true or false")
    return Flimflam(fid, str(cost).split(":")[0], _reward(raw, "reward", where), _tabs(raw.get("tabs"), where, True),
                    cat, str(back), _int(raw, "cover", where, 1, 4))


def _parse_case(cid: str, raw: Mapping, where: str) -> Case:
    cost = raw.get("cost")
    _want(isinstance(cost, list) and cost and all(c in PLAIN_EVIDENCE + ("any",) for c in cost), where,
          "'cost' must list evidence: glass, notebook, telephone or any")
    bottom = raw.get("bottom")
    _want(isinstance(bottom, str) and (bottom in EVIDENCE or bottom == "cash:1"
                                       or (bottom.startswith("matchbook:") and len(bottom) > 10)), where,
          "'bottom' must be matchbook:<name>, an evidence word or cash:1")
    return Case(cid, tuple(cost), _int(raw, "points", where, 0), _int(raw, "cash", where, 0),
                _tabs(raw.get("tabs"), where, False), str(bottom))


def _parse_hunch(hid: str, raw: Mapping, where: str) -> Hunch:
    pts = {t: _int(raw, t, where, -9, 9) for t in TYPES}
    players = raw.get("players", "all")
    _want(players in PLAYER_SETS, where, "'players' must be 'all', '3+' or '4'")
    return Hunch(hid, pts, str(players))


def _parse_level(track: str, n: int, raw: Mapping, where: str) -> Level:
    _want(raw.get("level", n) == n, where, f"levels must be listed 1 to {LEVELS} in order")
    allowance = _int(raw, "allowance", where, 0, 9)
    if n == 1:
        return Level(1, 0, allowance, ())
    return Level(n, _int(raw, "cost", where, 0, 20), allowance, _reward(raw, "reward", where))


def load_box(path: Path | None = None, user_file: Path | None | bool = True,
             card_ids: Mapping[str, tuple[str, ...]] | None = None) -> Box:
    """Load and check the shipped box, then the family's answers on top.

    ``user_file``: ``True`` for ``<user dir>/boxes/sudds-malone.toml``, a path, or ``None``.
    ``card_ids`` (kind -> short ids from the deck file) checks the cards match the deck.
    Errors name the file and the entry (``BoxError``).
    """
    path = path or assets_dir() / "boxes" / f"{GAME}.toml"
    data = read_toml(path, BoxError)
    src = str(path)
    head = data.get("box")
    _want(isinstance(head, dict) and head.get("game") == GAME, src, f"a [box] table with game = \"{GAME}\" is needed")
    verified: set[str] = set()
    raw_by_key: dict[str, dict] = {}

    counts = data.get("counts", {})
    cases_in_play = _int(counts, "cases_in_play", f"{src} [counts]", 1, 72)
    if counts.get("cases_in_play_verified") is True:
        verified.add("count.cases")

    locations: dict[str, str] = {}
    neighbours: dict[str, tuple[str, ...]] = {}
    for i, raw in enumerate(data.get("locations", []), 1):
        where = f"{src} location #{i} ({raw.get('id', '?')})"
        lid = raw.get("id")
        _want(isinstance(lid, str) and lid not in locations, where, "needs a new 'id'")
        _want(isinstance(raw.get("name"), str), where, "needs a 'name'")
        nb = raw.get("neighbours")
        _want(isinstance(nb, list) and all(isinstance(x, str) for x in nb), where, "'neighbours' must list location ids")
        locations[lid] = raw["name"]
        neighbours[lid] = tuple(nb)
        raw_by_key[f"map.{lid}"] = raw
        if _verified(raw, ("name", "neighbours"), where):
            verified.add(f"map.{lid}")
    _want(len(locations) == 8, src, f"the board has 8 locations (Game Setup 1); the file lists {len(locations)}")

    tracks: dict[str, tuple[Level, ...]] = {}
    for raw in data.get("tracks", []):
        tid = raw.get("id")
        where = f"{src} track {tid!r}"
        _want(tid in TRACKS and tid not in tracks, where, f"track ids are {', '.join(TRACKS)}, each once")
        _want(raw.get("die") == TRACKS.index(tid) + 1, where, f"'die' must be {TRACKS.index(tid) + 1}")
        levels = raw.get("levels")
        _want(isinstance(levels, list) and len(levels) == LEVELS, where,
              f"needs exactly {LEVELS} levels (The Office: no improving past the 4th level)")
        parsed = []
        for n, lv in enumerate(levels, 1):
            lw = f"{where} level {n}"
            parsed.append(_parse_level(tid, n, lv, lw))
            raw_by_key[f"track.{tid}.{n}"] = lv
            if _verified(lv, ("cost", "allowance", "reward") if n > 1 else ("allowance",), lw):
                verified.add(f"track.{tid}.{n}")
        tracks[tid] = tuple(parsed)
    missing = [t for t in TRACKS if t not in tracks]
    _want(not missing, src, f"missing track(s): {', '.join(missing)}")

    calendar: dict[tuple[int, str], tuple[str, ...]] = {}
    for raw in data.get("calendar", []):
        week, day = raw.get("week"), raw.get("day")
        where = f"{src} calendar week {week} {day}"
        _want(week in range(1, WEEKS + 1) and day in DAYS and (week, day) not in calendar, where,
              "each of weeks 1-4 Monday-Saturday once")
        calendar[(week, day)] = _reward(raw, "reward", where)
        raw_by_key[f"calendar.{week}.{day}"] = raw
        if _verified(raw, ("reward",), where):
            verified.add(f"calendar.{week}.{day}")
    _want(len(calendar) == WEEKS * len(DAYS), src, f"the calendar needs {WEEKS * len(DAYS)} days (4 weeks, Monday-Saturday)")

    sn = data.get("snitches", {})
    ev = sn.get("evidence")
    _want(isinstance(ev, list) and len(ev) == 3 and all(e in EVIDENCE for e in ev), f"{src} [snitches]",
          "'evidence' must list 3 evidence words (one per snitch)")
    _want(sn.get("tab") in ("wild",) + TABS, f"{src} [snitches]", "'tab' must be wild, A, B or C")
    raw_by_key["snitches"] = sn
    if _verified(sn, ("evidence", "tab"), f"{src} [snitches]"):
        verified.add("snitches")

    cards: dict[str, dict] = {"flimflam": {}, "case": {}, "hunch": {}}
    parsers = {"flimflam": _parse_flimflam, "case": _parse_case, "hunch": _parse_hunch}
    field_names = {"flimflam": ("cost", "reward", "tabs", "cat", "back", "cover"),
                   "case": ("cost", "points", "cash", "tabs", "bottom"), "hunch": ("mole", "rat", "frog", "players")}
    for kind, parse in parsers.items():
        for i, raw in enumerate(data.get(kind, []), 1):
            cid = raw.get("id")
            where = f"{src} {kind} #{i} ({cid})"
            _want(isinstance(cid, str) and cid not in cards[kind], where, "needs a new 'id'")
            cards[kind][cid] = parse(cid, raw, where)
            raw_by_key[f"{kind}.{cid}"] = raw
            if _verified(raw, field_names[kind], where):
                verified.add(f"{kind}.{cid}")
    box = Box(locations, neighbours, tracks, calendar, tuple(ev), str(sn["tab"]), cards["flimflam"], cards["case"],
              cards["hunch"], cases_in_play, frozenset(verified), source=src, raw=raw_by_key)
    check_box(box, src, card_ids)
    if user_file is True:
        user_file = family_file()
    if user_file:
        box = apply_answers(box, Path(user_file))
        check_box(box, str(user_file), card_ids)
    return box


def check_box(box: Box, where: str, card_ids: Mapping[str, tuple[str, ...]] | None = None) -> None:
    """Adjacency symmetric and connected, counts per card type, card ids as in the deck."""
    for loc, nbs in box.neighbours.items():
        for nb in nbs:
            _want(nb in box.locations, where, f"map.{loc}: neighbour {nb!r} is not a location")
            _want(nb != loc, where, f"map.{loc}: a location cannot touch itself")
            _want(loc in box.neighbours[nb], where,
                  f"map.{loc}: touches {nb!r} but {nb!r} does not list {loc!r} (adjacency must be symmetric)")
    start = next(iter(box.locations))
    seen, todo = {start}, [start]
    while todo:
        for nb in box.neighbours[todo.pop()]:
            if nb not in seen:
                seen.add(nb)
                todo.append(nb)
    _want(len(seen) == len(box.locations), where,
          f"the map is not connected: {', '.join(sorted(set(box.locations) - seen))} cannot be reached")
    _want("east-side" in box.locations, where, "the map needs East Side (badges start there: Player Setup 11)")
    _want(len(box.flimflams) == 24, where, f"24 Flimflam cards are needed (Game Components); found {len(box.flimflams)}")
    _want(len(box.hunches) == 42, where, f"42 Hunch cards are needed (Game Components); found {len(box.hunches)}")
    marks = {s: sum(1 for h in box.hunches.values() if h.players == s) for s in PLAYER_SETS}
    _want(marks["3+"] == 10 and marks["4"] == 8, where,
          f"Game Setup 7: 10 hunch cards marked 3+ and 8 marked 4; found {marks['3+']} and {marks['4']}")
    _want(len(box.cases) == 72, where, f"72 Case cards are listed in Game Components; found {len(box.cases)}")
    _want(box.cases_in_play <= len(box.cases), where, "cases_in_play is more than the Case cards listed")
    if card_ids is not None:
        for kind, table in (("flimflam", box.flimflams), ("case", box.cases), ("hunch", box.hunches)):
            want, have = set(card_ids.get(kind, ())), set(table)
            _want(want == have, where, f"{kind} cards differ from the deck file: "
                  f"{', '.join(sorted(want ^ have)[:5])}")


# --- the family's answers ------------------------------------------------------------------
def family_file() -> Path:
    return user_dir() / "boxes" / f"{GAME}.toml"


def _apply_one(box: Box, key: str, ans: Mapping[str, Any], where: str) -> Box:
    kind, _, rest = key.partition(".")
    merged = {**box.current(key), **dict(ans)}
    w = f"{where} [answers.\"{key}\"]"
    if kind == "count":
        return replace(box, cases_in_play=_int(merged, "cases_in_play", w, 1, 72))
    if kind == "map":
        nb = merged["neighbours"]
        _want(isinstance(nb, list) and all(x in box.locations for x in nb), w, "'neighbours' must list location ids")
        new = dict(box.neighbours)
        new[rest] = tuple(nb)
        for other in box.locations:        # keep the map symmetric: the answer is about this location's edges
            if other == rest:
                continue
            has = rest in new[other]
            if other in nb and not has:
                new[other] = (*new[other], rest)
            elif other not in nb and has:
                new[other] = tuple(x for x in new[other] if x != rest)
        return replace(box, neighbours=new)
    if kind == "track":
        track, n = rest.split(".")
        _want(track in TRACKS and n.isdigit() and 1 <= int(n) <= LEVELS, w, "no such track level")
        lv = _parse_level(track, int(n), {"level": int(n), **merged}, w)
        levels = list(box.tracks[track])
        levels[int(n) - 1] = lv
        return replace(box, tracks={**box.tracks, track: tuple(levels)})
    if kind == "calendar":
        week, day = rest.split(".")
        _want(week.isdigit() and (int(week), day) in box.calendar, w, "no such calendar day")
        return replace(box, calendar={**box.calendar, (int(week), day): _reward(merged, "reward", w)})
    if kind == "snitches":
        ev = merged["evidence"]
        _want(isinstance(ev, list) and len(ev) == 3 and all(e in EVIDENCE for e in ev), w,
              "'evidence' must list 3 evidence words")
        _want(merged["tab"] in ("wild",) + TABS, w, "'tab' must be wild, A, B or C")
        return replace(box, snitch_evidence=tuple(ev), snitch_tab=merged["tab"])
    if kind == "flimflam":
        _want(rest in box.flimflams, w, "no such Flimflam card")
        return replace(box, flimflams={**box.flimflams, rest: _parse_flimflam(rest, merged, w)})
    if kind == "case":
        _want(rest in box.cases, w, "no such Case card")
        return replace(box, cases={**box.cases, rest: _parse_case(rest, merged, w)})
    if kind == "hunch":
        _want(rest in box.hunches, w, "no such Hunch card")
        return replace(box, hunches={**box.hunches, rest: _parse_hunch(rest, merged, w)})
    raise BoxError(f"{w}: not a value of the Sudds & Malone box")


def apply_answers(box: Box, path: Path) -> Box:
    """The family's file on top of the box (a missing file changes nothing)."""
    if not path.exists():
        return replace(box, user_file=path)
    data = read_toml(path, BoxError)
    answers = data.get("answers", {})
    _want(isinstance(answers, dict), str(path), "[answers] must hold one table per value")
    family = set(box.family)
    for key, ans in answers.items():
        _want(isinstance(ans, dict), str(path), f"[answers.\"{key}\"] must be a table")
        _want(key in box.keys(), str(path), f"[answers.\"{key}\"] is not a value of the Sudds & Malone box")
        box = _apply_one(box, key, ans, str(path))
        family.add(key)
    return replace(box, family=frozenset(family), user_file=path)


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return '"' + v.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    raise BoxError(f"cannot store {v!r} in the box file")


def save_answer(box: Box, key: str, answer: Mapping[str, Any], path: Path | None = None) -> Box:
    """Check an answer, store it in the family's box file, and return the box with it.

    A bad answer raises ``BoxError`` and writes nothing. Earlier answers are kept.

    >>> box = load_box(user_file=None)
    >>> new = save_answer(box, "track.office.2", {"cost": 1, "allowance": 2, "reward": "points:1"},
    ...                   tmp / "sudds-malone.toml")
    >>> new.is_verified("track.office.2"), load_box(user_file=tmp / "sudds-malone.toml").is_verified("track.office.2")
    (True, True)
    """
    path = Path(path or box.user_file or family_file())
    fields = {f.name for f in box.question(key).fields}
    extra = set(answer) - fields
    _want(not extra, key, f"unknown field(s) {', '.join(sorted(extra))}; the form has {', '.join(sorted(fields))}")
    new = _apply_one(box, key, answer, str(path))
    check_box(new, f"{path} (answer for {key})")
    existing: dict[str, dict] = {}
    if path.exists():
        existing = dict(read_toml(path, BoxError).get("answers", {}))
    existing[key] = {**existing.get(key, {}), **dict(answer)}
    lines = ["# Our Sudds & Malone box: values we checked against our own game (written by Gumshoe).", ""]
    for k, ans in existing.items():
        lines.append(f'[answers."{k}"]')
        lines += [f"{name} = {_toml_value(v)}" for name, v in ans.items()]
        lines.append("")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text("\n".join(lines), encoding="utf-8")
    tmp.replace(path)
    return replace(new, family=box.family | {key}, user_file=path)
