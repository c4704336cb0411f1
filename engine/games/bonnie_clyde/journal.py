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

from typing import TYPE_CHECKING, Any

from ...game import Assist, Deduction, Journal, JournalEntry

if TYPE_CHECKING:
    from .rules import BonnieClydeRules, BonnieClydeState


def build_journal(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str, assist: Assist) -> Journal:
    know = state.knowledge[player]
    where = state.table.where
    label = rules.label
    entries = []
    for cid in rules.order:
        card = rules.deck.cards[cid]
        tok = know.where.get(cid)
        if tok is None:
            entries.append(JournalEntry(cid, card.name, card.kind, "Unknown"))
        else:
            place = where[tok]
            entries.append(JournalEntry(cid, card.name, card.kind, label(place), str(place)))
    out = [*_locations(rules, state, player), _files(rules, state, player), _table(rules, state),
           _score(rules, state)]
    if assist != Assist.NOTES:
        out += [_unseen(rules, state, player), _sideways(rules, state, player)]
    if assist == Assist.FULL and state.hand_no:
        out.append(_odds(rules, state, player))
    return Journal(player, assist, tuple(entries), tuple(d for d in out if d is not None))


def _locations(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> list[Deduction]:
    if not state.hand_no:
        return []
    know = state.knowledge[player]
    dealt = {n: t for t, n in state.origin.items()}
    out = []
    for n in rules.board.numbers:
        tok = dealt.get(n)
        if tok is None:
            continue
        place = state.table.where[tok]
        present = place.area == "board"
        card = know.card_at(tok)
        seen = state.seen_turn.get((player, tok))
        parts = []
        if card is not None:
            when = f" (turn {seen})" if seen is not None else ""
            parts.append(f"{rules.deck.name_of(card)}{when}")
        else:
            parts.append("unseen")
        if not present:
            if place.area == "captured":
                parts.append(f"captured by {place.owner}")
            else:
                taker = next((text.split(" took")[0] for _, text in reversed(state.board_log.get(n, ()))
                              if " took" in text), None)
                parts.append(f"taken by {taker}" if taker else "taken")
                if card is not None:
                    parts.append(f"now at {rules.label(place)}")
                else:
                    parts.append("so it is not Bonnie or Clyde")
        elif tok in state.not_outlaw and card is None:
            parts.append("not Bonnie or Clyde (left at the car's location)")
        history = "; ".join(f"turn {turn}: {text}" for turn, text in state.board_log.get(n, ()))
        out.append(Deduction(
            "location", f"{rules.loc_words(n)}: " + ", ".join(parts) + ".",
            f"History: {history}." if history else "Nobody has looked under it this hand.",
            {"location": n, "card": card, "present": present, "place": str(place),
             "not_outlaw": tok in state.not_outlaw or not present, "seen_turn": seen}))
    return out


def _files(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction | None:
    if not state.hand_no:
        return None
    know = state.knowledge[player]
    from .rules import FILES_PILE
    pile = state.table.at(FILES_PILE)
    cards = [know.card_at(t) for t in pile]
    words = [rules.deck.name_of(c) if c else "?" for c in cards]
    text = "FBI Files, bottom to top: " + (", ".join(words) if words else "empty") + "."
    unseen = []
    reason = "Every card in the FBI Files was discarded face up in front of everyone."
    for tokens, group_cards in state.groups.get(player, ()):
        in_files = sum(1 for t in tokens if state.table.where[t] == FILES_PILE)
        away = sorted({state.table.where[t] for t in tokens if state.table.where[t] != FILES_PILE}, key=str)
        names = sorted(rules.deck.name_of(c) for c in group_cards)
        unseen.append({"cards": sorted(group_cards), "in_files": in_files,
                       "elsewhere": [str(p) for p in away]})
        text += (f" The {len(tokens)} cards {', '.join(names)} lie in some order in the FBI Files ({in_files})"
                 f" and in {', '.join(rules.label(p) for p in away) or 'nowhere else'}.")
        reason = "Ted Hinton took a card from the FBI Files without showing it: you know only which cards it may be."
    return Deduction("fbi_files", text, reason, {"pile": cards, "unseen": unseen})


def _table(rules: "BonnieClydeRules", state: "BonnieClydeState") -> Deduction:
    played: dict[str, dict[int, dict[str, int]]] = {}
    captured: dict[str, list[str]] = {}
    ref = state.knowledge
    from ...knowledge import EVERYONE
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
            side = f", {row['sideways']} sideways" if row["sideways"] else ""
            mine.append(f"{rules.board.name(n)} {row['normal'] + row['sideways']}{side}")
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
    counts = {n: 6 for n in rules.board.numbers}
    for c in seen:
        n = rules.location_of.get(c)
        if n is not None:
            counts[n] -= 1
    text = "Evidence you have not seen this hand: " + ", ".join(
        f"{rules.board.name(n)} {k}" for n, k in counts.items()) + "."
    return Deduction("unseen_evidence", text, "Six Evidence cards show each location; these are the ones you have "
                     "not seen on the table, in the FBI Files, under a location or in your noted hand.",
                     {"counts": {str(n): k for n, k in counts.items()}})


def _sideways(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction | None:
    if state.phase in ("deal", "over"):
        return None
    from .rules import hand_place
    know = state.knowledge[player]
    car = state.car
    hand = state.table.at(hand_place(player))
    mine = [c for t in hand if (c := know.card_at(t)) and rules.location_of.get(c) == car]
    meld_on_table = car in state.melded
    can_meld = len(mine) >= 3 and len(hand) > 3
    can_layoff = meld_on_table and bool(mine) and len(hand) > 1
    text = (f"The car is on {rules.loc_words(car)}: Evidence of {rules.board.name(car)} played now lies sideways "
            f"(4 points a card), and a look under it captures Bonnie or Clyde.")
    if can_meld:
        text += f" You can meld your {len(mine)} {rules.board.name(car)} cards now."
    if can_layoff:
        text += f" You can lay off on the {rules.board.name(car)} meld now."
    if not meld_on_table:
        text += f" Nobody has a {rules.board.name(car)} meld yet, so only a meld can go there."
    return Deduction("sideways", text, "A meld or layoff of the location the car is on lies sideways.",
                     {"location": car, "meld_on_table": meld_on_table, "in_your_hand": len(mine),
                      "meld_now": can_meld, "layoff_now": can_layoff})


def _odds(rules: "BonnieClydeRules", state: "BonnieClydeState", player: str) -> Deduction:
    know = state.knowledge[player]
    odds = rules.outlaw_odds(state, know)
    parts = []
    data: dict[str, dict[str, str]] = {}
    for outlaw, key in ((rules.bonnie, "bonnie"), (rules.clyde, "clyde")):
        name = rules.deck.name_of(outlaw)
        tok = know.token_of(outlaw)
        by_loc = odds[outlaw]
        data[key] = {str(n): f"{p.numerator}/{p.denominator}" for n, p in sorted(by_loc.items()) if p}
        if tok is not None and state.table.where[tok].area == "captured":
            parts.append(f"{name}: captured by {state.table.where[tok].owner}")
            continue
        ranked = sorted(((n, p) for n, p in by_loc.items() if p), key=lambda kv: (-kv[1], kv[0]))
        parts.append(f"{name}: " + (", ".join(f"{rules.board.name(n)} {p.numerator}/{p.denominator} ({float(p):.0%})"
                                              for n, p in ranked) or "nowhere left"))
    return Deduction("outlaw_odds", "; ".join(parts) + ".",
                     "Counted over every way the cards you have not identified could lie: Bonnie and Clyde were "
                     "dealt under the board, a card taken from a location or left at the car's location is "
                     "neither, and every arrangement you cannot rule out is equally likely.", data)
