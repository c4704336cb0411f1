"""What the table shows: the prompt (legal choices now), each player's journal, public words."""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import TYPE_CHECKING

from ...game import Action, Assist, Deduction, Journal, JournalEntry, Option, Prompt
from ...table import Place
from . import actions as A
from .box import LEVELS, PLAIN_EVIDENCE, TRACKS
from .odds import expected_hunch, makeup, position_odds
from .state import (AFTER, DEAL, DIE, HUNCH_PILE, LIMIT, OVER, PENDING, REVEAL, ROLL, SuddsState, conspiracy_place,
                    drawn_place, hunches_place)

if TYPE_CHECKING:
    from .rules import SuddsRules

TYPE_NAMES = {"mole": "Mole", "rat": "Rat", "frog": "Frog"}


def _frac(p: Fraction) -> str:
    return f"{p.numerator}/{p.denominator}"


def _pct(p: Fraction) -> str:
    return f"{float(p):.0%}"


# --- the prompt --------------------------------------------------------------------------------
def prompt(rules: "SuddsRules", state: SuddsState) -> Prompt:
    from .rules import ACTION_OF
    if state.phase == OVER:
        assert state.outcome is not None
        return Prompt(None, f"Game over: {state.outcome.reason}")
    p = rules._actor(state)
    assert p is not None
    b = state.boards[p]
    locs = tuple(rules.box.locations)
    if state.phase == DEAL:
        return Prompt(p, f"{p}, deal: a Flimflam card on each location and the Conspiracy, 4 Case cards.",
                      (Option("deal", "Cards dealt", {"city": locs}),))
    if state.phase == ROLL:
        return Prompt(p, f"{p}, roll all the dice for round {state.round}.",
                      (Option("roll", "Dice rolled", {"dice": tuple(state.dice), "value": (1, 2, 3, 4, 5, 6)}),))
    if state.phase == REVEAL:
        return Prompt(p, f"{p}, turn up the 4 suspects of the Conspiracy.",
                      (Option("reveal", "Conspiracy revealed",
                              {"cards": tuple(str(conspiracy_place(i)) for i in (1, 2, 3, 4))},
                              {"cards": "cards"}),))
    stoolie = _stoolie_option(rules, state, p)
    if state.phase == DIE:
        dice = tuple(rules.legal_dice(state, p))
        return Prompt(p, f"{p}, take a die ({len(dice)} you may take; the dice and their values are on the table).",
                      (Option("take_die", "Take this die",
                              {"die": dice, "shift": tuple(range(-b.bullets, b.bullets + 1)), "news": (False, True)}),
                       *stoolie))
    if state.phase == LIMIT:
        over = rules.over_limits(state, p)
        return Prompt(p, f"{p}, put back the extras: " + ", ".join(f"{n} {k}" for k, n in over.items()) + ".",
                      (Option("discard", "Put back", {"above": tuple(b.above),
                                                      **{k: (n,) for k, n in over.items() if k != "above"}}),))
    if state.phase == AFTER:
        opts = []
        if b.hand:
            opts.append(Option("close_case", "Close a case", {"pay": tuple(e for e, n in b.evidence.items() if n)},
                               {"card": "hand"}))
        if b.above and state.table.count(HUNCH_PILE):
            mine = tuple(loc for loc, s in state.snitch_at.items() if s[0] == p)
            opts.append(Option("hunch", "Gain a hunch", {"cards": tuple(b.above), "snitches": mine},
                               {"drawn": "hunch deck"}, private=True))
        opts += stoolie
        opts.append(Option("end_turn", "End my turn"))
        return Prompt(p, f"{p}, close cases, gain hunches, or end your turn.", tuple(opts))
    head = rules._head(state)
    assert state.phase == PENDING and head is not None
    kind = head["kind"]
    if kind == "action":
        track = head["track"]
        act = ACTION_OF[track]
        forced = " (Moxie re-roll: at your level, no bullets)" if head.get("forced") else ""
        if track == "office":
            n = rules.box.allowance("office", b.office_level)
            ups = tuple(t for t in TRACKS if b.levels[t] < LEVELS)
            return Prompt(p, f"{p}, The Office: improve up to {n} column{'s' if n != 1 else ''}{forced}.",
                          (Option(act, "Improve", {"tracks": ups}),))
        if track == "calendar":
            n = rules.box.allowance("calendar", b.levels["calendar"])
            return Prompt(p, f"{p}, Calendar: move {n} days{forced}.", (Option(act, "Move"),))
        if track == "investigate":
            n = rules.box.allowance("investigate", b.levels["investigate"])
            return Prompt(p, f"{p}, Investigate: visit up to {n} locations from {rules.loc_name(b.location)}{forced}.",
                          (Option(act, "Investigate", {"path": tuple(rules.box.neighbours[b.location])},
                                  {"found": "path", "draw": "flimflam deck"}, private=True),))
        if track == "flimflam":
            n = rules.box.allowance("flimflam", b.levels["flimflam"])
            return Prompt(p, f"{p}, Flimflam: take up to {n} card{'s' if n != 1 else ''} from the Conspiracy{forced}.",
                          (Option(act, "Take Flimflam", {"positions": tuple(sorted(state.covers))}),))
        if track == "cases":
            n = rules.box.allowance("cases", b.levels["cases"])
            return Prompt(p, f"{p}, Take Cases: up to {n}{forced}.",
                          (Option(act, "Take Cases", {"picks": (*state.display, "deck")}, {"refill": "display"}),))
        return Prompt(p, f"{p}, Moxie: reload bullets{forced}.", (Option(act, "Reload"),))
    if kind == "reroll":
        return Prompt(p, f"{p}, re-roll the Moxie die.", (Option("reroll", "Re-rolled", {"value": (1, 2, 3, 4, 5, 6)}),))
    if kind == "snitch":
        free = tuple(x for x in locs if x not in state.snitch_at)
        return Prompt(p, f"{p}, place a snitch.", (Option("place_snitch", "Place a snitch",
                                                          {"location": free, "evidence": tuple(dict.fromkeys(b.snitches))}),))
    if kind == "peek":
        why = " (the stoolie's peek)" if head.get("why") == "stoolie" else ""
        return Prompt(p, f"{p}, peek at an uncovered suspect of the Conspiracy{why}.",
                      (Option("peek", "Peek", {"position": tuple(rules._uncovered(state))}, {"card": "position"},
                              private=True),))
    if kind == "evidence":
        return Prompt(p, f"{p}, choose a glass, notebook or telephone.",
                      (Option("pick_evidence", "Take", {"evidence": PLAIN_EVIDENCE}),))
    if kind == "cash_or_points":
        return Prompt(p, f"{p}, take $1 or 2 points.", (Option("cash_or_points", "Choose", {"choice": ("cash", "points")}),))
    if kind == "case":
        return Prompt(p, f"{p}, take a Case card from the display or the deck.",
                      (Option("take_case", "Take a Case card", {"source": (*state.display, "deck")}, {"refill": "display"}),))
    if kind == "bonus":
        can = tuple(t for t in TRACKS if rules._cannot(state, p, t) is None) + ("news",)
        return Prompt(p, f"{p}, take a bonus action.", (Option("bonus", "Bonus action", {"action": can}),))
    # Which cards were drawn is private: the shared prompt does not list them (the card is picked
    # behind the privacy gate).
    opts = [Option("keep_hunch", "Keep one hunch card", {}, private=True)]
    if b.cash and state.table.count(HUNCH_PILE):
        opts.append(Option("buy_hunch", "Pay $1 for another", {}, {"card": "hunch deck"}, private=True))
    return Prompt(p, f"{p}, keep one hunch card" + (" (or pay $1 for another)." if len(opts) > 1 else "."),
                  tuple(opts))


def _stoolie_option(rules: "SuddsRules", state: SuddsState, p: str) -> tuple[Option, ...]:
    """Offered to whoever holds a card taken while investigating, whatever that card is: the shared screen
    knows how many cards a player took, never which (issue 27: offering it only to a stoolie's holder told
    the table what they took). The taker picks the stoolie behind the privacy gate; with none, they go
    back to the table and nobody is told."""
    found = str(Place("found", owner=p))
    if state.table.count(Place("found", owner=p)) and state.boards[p].cash >= 1 and rules._uncovered(state):
        return (Option("use_stoolie", "Use a stoolie ($1, peek)", {}, {"stoolie": found}, private=True),)
    return ()


# --- the journal -------------------------------------------------------------------------------
def label(rules: "SuddsRules", state: SuddsState, place: Place, viewer: str) -> str:
    if place.area == "conspiracy":
        covered = " (covered)" if int(place.slot or 0) in state.covers else ""
        return f"Conspiracy {place.slot}{covered}"
    if place.area == "found":
        return "Your suspects" if place.owner == viewer else f"{place.owner}'s suspects"
    if place.area == "city":
        return f"City: {rules.loc_name(place.slot or '')}"
    if place.area == "box":
        return "Returned to the box"
    if place.area == "hunches":
        return "Your hunches" if place.owner == viewer else f"{place.owner}'s hunches"
    if place.area == "drawn":
        return "Just drawn" if place.owner == viewer else f"Drawn by {place.owner}"
    if place == HUNCH_PILE:
        return "Hunch deck"
    return str(place)


def seen(rules: "SuddsRules", state: SuddsState, player: str) -> tuple[dict[int, str], dict[str, int]]:
    """What this player saw: Conspiracy position -> type, and suspect types seen elsewhere."""
    know = state.knowledge[player]
    positions: dict[int, str] = {}
    elsewhere: dict[str, int] = {}
    for token, card in know.known.items():
        role = rules.role.get(card)
        if role is None or role == "stoolie":
            continue
        place = state.table.place_of(token)
        if place.area == "conspiracy":
            positions[int(place.slot or 0)] = role
        else:
            elsewhere[role] = elsewhere.get(role, 0) + 1
    return positions, elsewhere


def journal(rules: "SuddsRules", state: SuddsState, player: str, assist: Assist) -> Journal:
    know = state.knowledge[player]
    entries = []
    for c in rules.deck.of_kind("suspect"):
        token = know.token_of(c.id)
        if token is None:
            entries.append(JournalEntry(c.id, c.name, c.kind, "Unknown"))
        else:
            place = state.table.place_of(token)
            entries.append(JournalEntry(c.id, c.name, c.kind, label(rules, state, place, player), str(place)))
    # Hunch cards this player knows: theirs, just drawn, under the deck (returned), or turned up at the end.
    table = state.table
    mine, drawing = [], []
    for token, card in sorted(know.known.items(), key=lambda tc: tc[1]):      # in deck order
        if table.kind(token) != "hunch":
            continue
        place = table.place_of(token)
        entries.append(JournalEntry(card, rules.deck.name_of(card), "hunch", label(rules, state, place, player),
                                    str(place)))
        if place == hunches_place(player):
            mine.append(card)
        elif place == drawn_place(player):
            drawing.append(card)
    deductions: list[Deduction] = []
    if assist == Assist.NOTES:
        return Journal(player, assist, tuple(entries), ())
    positions, elsewhere = seen(rules, state, player)
    if positions:
        parts = [f"{pos}: {TYPE_NAMES[t]}" + (" (now covered)" if pos in state.covers else "")
                 for pos, t in sorted(positions.items())]
        deductions.append(Deduction("conspiracy_seen", "In the Conspiracy: " + "; ".join(parts) + ".",
                                    "You peeked at these positions; suspects in the Conspiracy never move.",
                                    {"positions": {str(k): v for k, v in positions.items()}}))
    if elsewhere:
        deductions.append(Deduction("not_in_conspiracy", "Not in the Conspiracy: " + ", ".join(
            f"{n} {TYPE_NAMES[t]}{'s' if n != 1 else ''}" for t, n in sorted(elsewhere.items())) + ".",
            "You saw these suspect cards outside the Conspiracy.", {"types": dict(elsewhere)}))
    if assist == Assist.FULL:
        key = (tuple(sorted(positions.items())), tuple(sorted(elsewhere.items())))
        odds = _odds(*key)
        if odds:
            deductions += odds
            for h in (*mine, *drawing):
                pts = rules.hunch(h).points
                deductions.append(_hunch_line(h, rules.deck.name_of(h), tuple(pts.items()), h in mine, *key))
    return Journal(player, assist, tuple(entries), tuple(deductions))


@lru_cache(maxsize=2048)
def _odds(positions_key: tuple, elsewhere_key: tuple) -> tuple[Deduction, ...]:
    """The make-up and per-position deductions: a function of what was seen only (remembered)."""
    positions, elsewhere = dict(positions_key), dict(elsewhere_key)
    dist = makeup(positions, elsewhere)
    if not dist:
        return ()
    ranked = sorted(dist.items(), key=lambda kv: (-kv[1], kv[0]))
    text = "; ".join(f"{m}M {r}R {f}F {_frac(p)} ({_pct(p)})" for (m, r, f), p in ranked)
    n_seen = len(positions) + sum(elsewhere.values())
    pos = position_odds(positions, elsewhere)
    return (
        Deduction("makeup", f"Conspiracy make-up (Moles, Rats, Frogs): {text}.",
                  (f"From the {n_seen} suspect card{'s' if n_seen != 1 else ''} you saw; every deal of the unseen "
                   f"cards is equally likely." if n_seen else
                   "You have seen no suspect yet: every deal of the 9 suspects is equally likely."), {"makeup": {f"{m},{r},{f}": _frac(p) for (m, r, f), p in ranked}}),
        Deduction("positions", "By position: " + "; ".join(
            f"{i}: " + ", ".join(f"{TYPE_NAMES[t]} {_pct(q)}" for t, q in pos[i].items() if q)
            for i in (1, 2, 3, 4)) + ".", "Each unseen position is equally likely to hold any unseen suspect.",
            {"positions": {str(i): {t: _frac(q) for t, q in pos[i].items()} for i in (1, 2, 3, 4)}}))


@lru_cache(maxsize=4096)
def _hunch_line(card: str, name: str, points: tuple, kept: bool, positions_key: tuple,
                elsewhere_key: tuple) -> Deduction:
    dist = makeup(dict(positions_key), dict(elsewhere_key))
    pts = dict(points)
    ev = expected_hunch(pts, dist)
    return Deduction("hunch_ev", f"{name}: {float(ev):.2f} points expected "
                     f"({', '.join(f'{v:+d} per {TYPE_NAMES[t]}' for t, v in pts.items() if v)}).",
                     "Its points times the expected number of each type in the Conspiracy.",
                     {"card": card, "expected": _frac(ev), "kept": kept})


# --- public words -------------------------------------------------------------------------------
def describe(rules: "SuddsRules", state: SuddsState, a: Action) -> str:
    p = a.player
    n = rules.deck.name_of
    try:
        if isinstance(a, A.Deal):
            return f"{p} dealt the city, the Conspiracy and the display"
        if isinstance(a, A.Roll):
            return f"{p} rolled the dice"
        if isinstance(a, A.TakeDie):
            return f"{p} took the {a.die} die" + (" to Read the News" if a.news else "") + \
                (f" (shifted {a.shift:+d})" if a.shift else "")
        if isinstance(a, A.Improve):
            return f"{p} improved {', '.join(a.tracks) or 'nothing'}"
        if isinstance(a, A.CalendarMove):
            return f"{p} moved on the calendar"
        if isinstance(a, A.Investigate):
            return f"{p} investigated {' -> '.join(rules.loc_name(x) for x in a.path)}"
        if isinstance(a, A.TakeFlimflam):
            return f"{p} took Flimflam from position(s) {', '.join(map(str, a.positions))}"
        if isinstance(a, A.TakeCases):
            return f"{p} took {len(a.picks)} Case card(s)"
        if isinstance(a, A.Moxie):
            return f"{p} reloaded (Moxie)"
        if isinstance(a, A.Reroll):
            return f"{p} re-rolled a {a.value}"
        if isinstance(a, A.PlaceSnitch):
            return f"{p} placed a snitch at {rules.loc_name(a.location)}"
        if isinstance(a, A.Peek):
            return f"{p} peeked at suspect {a.position}"
        if isinstance(a, A.PickEvidence):
            return f"{p} took a {a.evidence}"
        if isinstance(a, A.CashOrPoints):
            return f"{p} chose {a.choice}"
        if isinstance(a, A.TakeCase):
            return f"{p} took a Case card"
        if isinstance(a, A.Bonus):
            return f"{p}'s bonus action: {a.action}"
        if isinstance(a, A.CloseCase):
            return f"{p} closed {n(a.card)}"
        if isinstance(a, A.GainHunch):
            return f"{p} gained a hunch"
        if isinstance(a, A.BuyHunch):
            return f"{p} bought another hunch card"
        if isinstance(a, A.KeepHunch):
            return f"{p} kept a hunch card"
        if isinstance(a, A.UseStoolie):
            return (f"{p} used a stoolie to peek at suspect {a.position}" if a.position
                    else f"{p} revealed a stoolie and paid $1 to peek")
        if isinstance(a, A.EndTurn):
            return f"{p} ended the turn"
        if isinstance(a, A.Discard):
            return f"{p} put back extras"
        if isinstance(a, A.Reveal):
            return f"{p} revealed the Conspiracy"
    except (KeyError, ValueError, TypeError):
        pass
    return f"{p}: {a.type}"
