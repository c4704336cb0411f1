"""One player's Evidence Journal for Bonnie and Clyde, computed only from what they may know.

Notes (every assist level): a line per card (where this player knows it lies), and as
notes: what lies under each of the ten locations as far as they know (what they saw, on which
turn, and what has happened to it since: taking is public, the identity is not), the FBI Files
in order with the cards that left them unseen ("one of these N"), the table (melds, captures,
the car) and the score. Hints add how many Evidence cards of each location they have not seen
and which plays would lie sideways now; full assist adds the exact chance that Bonnie and that
Clyde lie under each location.
"""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from ...game import Assist, Deduction, Journal
from ...knowledge import EVERYONE

if TYPE_CHECKING:
    from .rules import BonnieClydeRules, BonnieClydeState


# What every player's journal shares for one state (the table, the score, the public history):
# computed once per state. A state is never changed once the session holds it.
_SHARED: "weakref.WeakKeyDictionary[Any, dict]" = weakref.WeakKeyDictionary()


def build_journal(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str, assist: Assist) -> Journal:
    shared = _SHARED.get(state)
    if shared is None:
        public = _public_locations(rules, state)
        shared = _SHARED[state] = {"table": _table(rules, state), "score": _score(rules, state),
                                   "public": public, "key": tuple((n, tok is None, gone, reason)
                                                                  for n, tok, gone, _, reason, _ in public)}
    know = state.knowledge[player]
    where = state.table.where
    entry = rules.entry
    entries = list(rules.unknown_entries)
    index = rules.entry_index
    for tok, cid in know.known.items():
        entries[index[cid]] = entry(cid, where[tok])
    out = [*_locations(rules, state, player, shared["public"], shared["key"]), _files(rules, state, player), shared["table"],
           shared["score"]]
    if assist != Assist.NOTES:
        out += [_unseen(rules, state, player), _sideways(rules, state, player)]
    if assist == Assist.FULL and state.hand_no:
        out.append(_odds(rules, state, player))
    return Journal(player, assist, tuple(entries), tuple(d for d in out if d is not None))


def _public_locations(rules: "BonnieClydeRules", state: "BonnieClydeState") -> list[tuple]:
    """Per location: the token there (or None), what happened to it in public words, the history."""
    from .rules import board_place
    out = []
    for n in rules.board.numbers:
        tok = state.table.top(board_place(n))
        history = state.board_log.get(n, ())
        gone = captured = None
        if tok is None:
            if n in state.captures:
                who, captured = state.captures[n]
                gone = f"captured by {who}"
            else:
                taker = next((text.split(" took")[0] for _, text in reversed(history) if " took" in text), None)
                gone = f"taken by {taker}" if taker else "taken"
        words = "; ".join(f"turn {turn}: {text}" for turn, text in history)
        reason = f"History: {words}." if words else "Nobody has looked under it this hand."
        out.append((n, tok, gone, captured, reason, f"{rules.loc_words(n)}: "))
    return out


def _locations(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str, public: list[tuple],
               public_key: tuple = ()) -> list[Deduction]:
    """What lies under each location as far as ``player`` knows.

    Built from the card still lying there (and what this player knows of it), what this player
    saw there (kept by location) and the public history. A card taken into a hand is not followed
    by its token: nobody else knows which card later leaves that hand.
    """
    if not state.hand_no:
        return []
    know = state.knowledge[player]
    mine = []
    for n, tok, gone, captured, reason, head in public:
        sighting = state.sightings.get((player, n))
        card = captured or (know.card_at(tok) if tok is not None else (sighting[1] if sighting else None))
        now = know.where.get(card) if card is not None and tok is None else None
        mine.append((card, sighting, None if now is None else id(state.table.where[now]),
                     tok is not None and tok in state.not_outlaw))
    key = ("locations", public_key, tuple(mine))
    cache = rules.journal_cache
    hit = cache.get(key)
    if hit is not None:
        return hit
    out = _location_lines(rules, state, player, public)
    if len(cache) > 8192:
        cache.clear()
    cache[key] = out
    return out


def _location_lines(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str, public: list[tuple]
                    ) -> list[Deduction]:
    know = state.knowledge[player]
    name_of = rules.deck.name_of
    out = []
    for n, tok, gone, captured, reason, head in public:
        sighting = state.sightings.get((player, n))
        card = captured or (know.card_at(tok) if tok is not None else (sighting[1] if sighting else None))
        if card is not None:
            when = f" (you saw it on turn {sighting[0]})" if sighting and sighting[1] == card else ""
            text = f"{name_of(card)}{when}"
        else:
            text = "unseen"
        if captured is not None:
            text += f", {gone}"
        elif gone is not None:
            text += f", {gone}"
            if card is None:
                text += ", so it is not Bonnie or Clyde"
            elif (now := know.token_of(card)) is not None:
                text += f", now at {rules.label(state.table.where[now])}"
        elif tok in state.not_outlaw and card is None:
            text += ", not Bonnie or Clyde (left at the car's location)"
        out.append(Deduction("location", head + text + ".", reason,
                             {"location": n, "card": card, "present": tok is not None,
                              "not_outlaw": captured is None and (tok is None or tok in state.not_outlaw),
                              "seen_turn": sighting[0] if sighting else None}))
    return out


def _files(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction | None:
    if not state.hand_no:
        return None
    know = state.knowledge[player]
    from .rules import FILES_PILE
    pile = state.table.at(FILES_PILE)
    known = know.known
    cards = [known.get(t) for t in pile]
    key = tuple(cards)
    groups = state.groups.get(player, ())
    if not groups:
        whole = rules.files_cache.get(("whole", key))
        if whole is not None:
            return whole
    text = rules.files_cache.get(key)
    if text is None:
        words = [rules.deck.name_of(c) if c else "?" for c in cards]
        text = "FBI Files, bottom to top: " + (", ".join(words) if words else "empty") + "."
        if len(rules.files_cache) > 4096:
            rules.files_cache.clear()
        rules.files_cache[key] = text
    unseen = []
    reason = "Every card in the FBI Files was discarded face up in front of everyone."
    for tokens, group_cards in groups:
        in_files = sum(1 for t in tokens if state.table.where[t] == FILES_PILE)
        away = sorted({state.table.where[t] for t in tokens if state.table.where[t] != FILES_PILE}, key=str)
        names = sorted(rules.deck.name_of(c) for c in group_cards)
        unseen.append({"cards": sorted(group_cards), "in_files": in_files,
                       "elsewhere": [str(p) for p in away]})
        text += (f" The {len(tokens)} cards {', '.join(names)} lie in some order in the FBI Files ({in_files})"
                 f" and in {', '.join(rules.label(p) for p in away) or 'nowhere else'}.")
        reason = "Ted Hinton took a card from the FBI Files without showing it: you know only which cards it may be."
    d = Deduction("fbi_files", text, reason, {"pile": cards, "unseen": unseen})
    if not groups:
        rules.files_cache[("whole", key)] = d
    return d


def _table(rules: "BonnieClydeRules", state: "BonnieClydeState") -> Deduction:
    played: dict[str, dict[int, dict[str, int]]] = {}
    captured: dict[str, list[str]] = {}
    ref = state.knowledge
    for place, stack in state.table.stacks.items():
        if place.owner is None:
            continue
        if place.area in ("played", "sideways"):
            row = played.setdefault(place.owner, {}).setdefault(int(place.slot or 0), {"normal": 0, "sideways": 0})
            row["sideways" if place.area == "sideways" else "normal"] += len(stack)
        elif place.area == "captured":
            captured[place.owner] = sorted(c for t in stack if (c := ref[EVERYONE].card_at(t)))
    parts = []
    for p in state.players:
        mine = []
        for n in sorted(played.get(p, {})):
            row = played[p][n]
            side = f" ({row['sideways']} sideways)" if row["sideways"] else ""
            mine.append(f"{rules.board.name(n)}: {row['normal'] + row['sideways']} cards{side}")
        mine += [rules.deck.name_of(c) for c in captured.get(p, [])]
        parts.append(f"{p}: {'; '.join(mine) if mine else 'nothing yet'}")
    melds = ", ".join(rules.board.name(n) for n in sorted(state.melded)) or "none"
    text = f"The car is on {rules.loc_words(state.car)}. Melds of: {melds}. On the table: " + " | ".join(parts) + "."
    return Deduction("table", text, "Everything on the table was played face up.",
                     {"car": state.car, "melds": sorted(state.melded),
                      "played": {p: {str(n): dict(v) for n, v in rows.items()} for p, rows in played.items()},
                      "captured": captured})


def _score(rules: "BonnieClydeRules", state: "BonnieClydeState") -> Deduction:
    totals = state.scores.totals()
    now = {p: rules.table_points(state, p)["points"] for p in state.players}
    last = state.results[-1] if state.results else None
    if state.phase in ("deal", "over") and last is not None:
        text = (f"Hand {last['hand']} scored: " + ", ".join(f"{p} {last['points'][p]}" for p in state.players)
                + ". Totals: " + ", ".join(f"{p} {totals[p]}" for p in state.players)
                + f" (playing to {state.target}).")
        reason = " / ".join(ln["text"] for ln in last["lines"]) or "Nobody scored."
    else:
        text = (f"Hand {max(state.hand_no, 1)} so far on the table: " + ", ".join(f"{p} {now[p]}" for p in state.players)
                + ". Totals before this hand: " + ", ".join(f"{p} {totals[p]}" for p in state.players)
                + f" (playing to {state.target}).")
        reason = "Sideways Evidence 4, other Evidence 2, Bonnie and Clyde 10 each; cards in hand count nothing."
    data: dict[str, Any] = {"hand": state.hand_no, "table": now, "totals": totals, "target": state.target,
                            "hands": [dict(r["points"]) for r in state.results],
                            "last_hand": [dict(ln) for ln in last["lines"]] if last else None}
    return Deduction("score", text, reason, data)


def _unseen(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction | None:
    if not state.hand_no:
        return None
    know = state.knowledge[player]
    seen = set(know.where)
    for _, cards in state.groups.get(player, ()):
        seen |= cards
    counts = [6] * 11
    location_of = rules.location_of
    for c in seen:
        n = location_of.get(c)
        if n is not None:
            counts[n] -= 1
    key = ("unseen", tuple(counts))
    hit = rules.journal_cache.get(key)
    if hit is None:
        text = "Evidence you have not seen this hand: " + ", ".join(
            f"{rules.board.name(n)} {counts[n]}" for n in rules.board.numbers) + "."
        hit = rules.journal_cache[key] = Deduction(
            "unseen_evidence", text, "Six Evidence cards show each location; these are the ones you have "
            "not seen on the table, in the FBI Files, under a location or in your noted hand.",
            {"counts": {str(n): counts[n] for n in rules.board.numbers}})
    return hit


def _sideways(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction | None:
    if state.phase in ("deal", "over"):
        return None
    from .rules import hand_place
    known = state.knowledge[player].known
    car = state.car
    hand = state.table.stacks.get(hand_place(player), ())
    location_of = rules.location_of
    mine = [c for t in hand if (c := known.get(t)) and location_of.get(c) == car]
    meld_on_table = car in state.melded
    can_meld = len(mine) >= 3 and len(hand) > 3
    can_layoff = meld_on_table and bool(mine) and len(hand) > 1
    key = ("sideways", car, meld_on_table, len(mine), can_meld, can_layoff)
    hit = rules.journal_cache.get(key)
    if hit is not None:
        return hit
    text = (f"The car is on {rules.loc_words(car)}: Evidence of {rules.board.name(car)} played now lies sideways "
            f"(4 points a card), and a look under it captures Bonnie or Clyde.")
    if can_meld:
        text += f" You can meld your {len(mine)} {rules.board.name(car)} cards now."
    if can_layoff:
        text += f" You can lay off on the {rules.board.name(car)} meld now."
    if not meld_on_table:
        text += f" Nobody has a {rules.board.name(car)} meld yet, so only a meld can go there."
    hit = rules.journal_cache[key] = Deduction(
        "sideways", text, "A meld or layoff of the location the car is on lies sideways.",
        {"location": car, "meld_on_table": meld_on_table, "in_your_hand": len(mine),
         "meld_now": can_meld, "layoff_now": can_layoff})
    return hit


def _odds(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction:
    know = state.knowledge[player]
    where = state.table.where
    known_tokens = know.known
    stacks = state.table.stacks
    not_outlaw = state.not_outlaw
    unseen = tuple((n, t in not_outlaw) for n, place in enumerate(rules.board_places, 1)
                   for t in stacks.get(place, ()) if t not in known_tokens)
    known = []
    for outlaw in rules.outlaws:
        tok = know.where.get(outlaw)
        known.append(None if tok is None else str(where[tok]))
    key = (unseen, tuple(known))
    hit = rules.odds_cache.get(key)
    if hit is not None:
        return hit
    odds = rules.outlaw_odds(state, know)
    parts = []
    data: dict[str, dict[str, str]] = {}
    for outlaw, key_name, at in zip(rules.outlaws, ("bonnie", "clyde"), known):
        name = rules.deck.name_of(outlaw)
        by_loc = odds[outlaw]
        data[key_name] = {str(n): f"{p.numerator}/{p.denominator}" for n, p in sorted(by_loc.items()) if p}
        if at is not None and not at.startswith("board"):
            parts.append(f"{name}: captured by {at.split('/')[0]}")
            continue
        ranked = sorted(((n, p) for n, p in by_loc.items() if p), key=lambda kv: (-kv[1], kv[0]))
        parts.append(f"{name}: " + (", ".join(f"{rules.board.name(n)} {p.numerator}/{p.denominator} ({float(p):.0%})"
                                              for n, p in ranked) or "nowhere left"))
    d = Deduction("outlaw_odds", "; ".join(parts) + ".",
                  "Counted over every way the cards you have not identified could lie: Bonnie and Clyde were "
                  "dealt under the board, a card taken from a location or left at the car's location is "
                  "neither, and every arrangement you cannot rule out is equally likely.", data)
    if len(rules.odds_cache) > 4096:
        rules.odds_cache.clear()
    rules.odds_cache[key] = d
    return d
