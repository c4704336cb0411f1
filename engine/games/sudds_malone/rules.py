"""Sudds & Malone: four rounds of dice, the whole economy, the Conspiracy and the final scoring.

Rulebook: ``shared/rulebooks/sudds-and-malone.txt``; our reading of every ambiguous point is in
``docs/rules/sudds-malone.md``. Every printed value (costs, rewards, the calendar, the map, the
cards) comes from the box data (:mod:`.box`). Chance and hidden cards arrive in actions.

>>> from engine.session import Session
>>> s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
>>> s.prompt().text
'Ann, deal: a Flimflam card on each location and the Conspiracy, 4 Case cards.'
"""

from __future__ import annotations

from collections import Counter
from itertools import product
from pathlib import Path
from typing import Any, Mapping

from ...cards import Deck, load_game_deck
from ...errors import BadInput, RuleViolation
from ...game import Action, Assist, GameState, Journal, Outcome, Prompt, Rules
from ...knowledge import REFEREE, private
from ...table import Place
from . import actions as A
from .box import (DAYS, EVIDENCE, LEVELS, PLAIN_EVIDENCE, TABS, TRACKS, WEEKS, Box, BoxError, Question,
                  load_box, save_answer)
from .scoring import hunch_points, matchbook_points, token_points, winner_by_badge
from .state import (AFTER, BOX_PLACE, COLOURS, DEAL, DIE, HUNCH_PILE, LIMIT, LIMITS, OVER, PENDING, PERSONAL,
                    REVEAL, ROLL, SuddsState, city_place, conspiracy_place, drawn_place, found_place,
                    hunches_place)

# Rulebook sections, as printed.
SETUP, PSETUP, HOW, DICE, OFFICE, CALENDAR, INVESTIGATE, FLIMFLAM, CASES, MOXIE, NEWS, CLOSE, EOT, EOR, END = (
    "Game Setup", "Player Setup", "How to Play", "Dice Action", "The Office", "Calendar", "Investigate",
    "Flimflam", "Take Cases", "Moxie", "Read the News", "Close Cases", "End of Turn", "End of Round",
    "End of Game")
ACTION_OF = {"office": "improve", "calendar": "calendar", "investigate": "investigate",
             "flimflam": "take_flimflam", "cases": "take_cases", "moxie": "moxie"}
TRACK_NAME = {"office": "The Office", "calendar": "Calendar", "investigate": "Investigate",
              "flimflam": "Flimflam", "cases": "Take Cases", "moxie": "Moxie", "news": "Read the News"}
DAY_NAME = ("Sunday",) + tuple(d.capitalize() for d in DAYS)
RESERVED = {"city", "conspiracy", "found", "box", "pile"}
TURNS_PER_ROUND = 4
ROUNDS = 4


def short(card: str) -> str:
    return card.rsplit(".", 1)[-1]


class SuddsRules(Rules):
    game_id = "sudds-malone"
    title = "Sudds & Malone"
    actions = A.ACTIONS

    def __init__(self, deck: Deck, box: Box | None = None) -> None:
        super().__init__(deck)
        for kind in ("suspect", "flimflam", "case", "hunch"):
            if kind not in deck.kinds:
                raise RuleViolation(f"The deck {deck.source} has no {kind!r} cards.", SETUP)
        self.card_ids = {k: tuple(c.key for c in deck.of_kind(k)) for k in ("flimflam", "case", "hunch")}
        self.box = box or load_box(card_ids=self.card_ids)
        self.role = {c.id: c.role for c in deck.of_kind("suspect")}
        roles = Counter(self.role.values())
        if roles != Counter({"mole": 3, "rat": 3, "frog": 3, "stoolie": 3}):
            raise RuleViolation(f"{deck.source}: the suspects must be 3 Moles, 3 Rats, 3 Frogs and 3 stoolies.", SETUP)
        self.prefix = {k: f"{deck.id}.{k}." for k in ("flimflam", "case", "hunch")}

    @classmethod
    def load(cls, decks_dir: Path | None = None) -> "SuddsRules":
        deck = load_game_deck(cls.game_id, decks_dir)
        ids = {k: tuple(c.key for c in deck.of_kind(k)) for k in ("flimflam", "case", "hunch")}
        try:
            box = load_box(card_ids=ids)
        except BoxError as exc:
            raise BadInput(f"The box file cannot be used: {exc}", SETUP) from None
        return cls(deck, box)

    # --- card contents -------------------------------------------------------------------
    def ff(self, card: str):
        return self.box.flimflams[short(card)]

    def case(self, card: str):
        return self.box.cases[short(card)]

    def hunch(self, card: str):
        return self.box.hunches[short(card)]

    def kind_of(self, card: str) -> str | None:
        return self.deck.cards[card].kind if card in self.deck else None

    def loc_name(self, loc: str) -> str:
        return self.box.locations.get(loc, loc)

    # --- learn your box ---------------------------------------------------------------------
    def needed(self, state: GameState) -> list[Question]:
        """Values of the family's box not yet checked that the table needs now, most urgent first.

        The cards face up (display, Conspiracy), the cards above the acting player's file cabinet
        and in their hunch draw, their columns' next steps, the calendar days ahead of them and the
        map around their badge.
        """
        assert isinstance(state, SuddsState)
        keys: list[str] = []
        if state.phase in (DEAL, OVER):
            keys.append("count.cases")
        keys += [f"flimflam.{short(c)}" for c in state.covers.values()]
        keys += [f"case.{short(c)}" for c in state.display]
        p = self._actor(state)
        if p is not None:
            b = state.boards[p]
            keys += [f"{self.kind_of(c)}.{short(c)}" for c in b.above]
            keys += [f"hunch.{short(c)}" for c in (*state.drawn, *b.hunches)]
            for t in TRACKS:
                keys.append(f"track.{t}.{b.levels[t]}")
                if b.levels[t] < LEVELS:
                    keys.append(f"track.{t}.{b.levels[t] + 1}")
            if b.calendar:
                week, day = b.calendar
                keys += [f"calendar.{week}.{d}" for d in DAYS[day:]]
            keys.append(f"map.{b.location}")
            keys += [f"map.{n}" for n in self.box.neighbours[b.location]]
            if state.snitch_at or b.snitches:
                keys.append("snitches")
        seen, out = set(), []
        for k in keys:
            if k not in seen and not self.box.is_verified(k):
                seen.add(k)
                out.append(self.box.question(k))
        return out

    def card_question(self, card: str) -> Question | None:
        """The form for a card read by the camera whose content this box has not checked yet."""
        kind = self.kind_of(card)
        if kind not in ("flimflam", "case", "hunch"):
            return None
        key = f"{kind}.{short(card)}"
        return None if self.box.is_verified(key) else self.box.question(key)

    def learn(self, key: str, answer: Mapping[str, Any], path: Path | None = None) -> None:
        """Store the family's answer in their box file; the rules use it from now on."""
        try:
            self.box = save_answer(self.box, key, answer, path)
        except BoxError as exc:
            raise BadInput(str(exc)) from None

    def check_in_game(self, initial: GameState, actions: list[Action], key: str, answer: Mapping[str, Any]) -> None:
        """An answer given during a game is taken only if the game's moves so far play out the same with it
        (undo and resume replay them with today's box): otherwise ``BadInput`` names the first move it changes."""
        from .box import _apply_one, check_box
        try:
            new = _apply_one(self.box, key, answer, "your answer")
            check_box(new, f"your answer for {key}")
        except (BoxError, KeyError, TypeError, ValueError) as exc:
            raise BadInput(str(exc)) from None
        old, self.box = self.box, new
        states = [initial]
        try:
            for n, action in enumerate(actions, 1):
                nxt = states[-1].clone()
                try:
                    self.apply(nxt, action)
                except RuleViolation as exc:
                    raise BadInput(f"This game already played with the value your box had: move {n} could not be "
                                   f"played again ({exc.message}). Correct it on the 'Your box' screen after the "
                                   f"game.") from None
                states.append(nxt)
        finally:
            self.box = old
        played = [initial]
        for action in actions:
            nxt = played[-1].clone()
            self.apply(nxt, action)
            played.append(nxt)
        for n, (a, b) in enumerate(zip(states[1:], played[1:]), 1):
            if _summary(a) != _summary(b):
                raise BadInput(f"This game already used that value (move {n} would have gone otherwise). Correct "
                               f"it on the 'Your box' screen after the game.")

    # --- setup ----------------------------------------------------------------------------
    def setup(self, players: tuple[str, ...], options: Mapping[str, Any]) -> SuddsState:
        """Game and Player Setup: boards, $1 and one of each evidence, badges on East Side, scores by
        turn order, calendar disks on the first Sunday, 2 bullets each and 4 on the board, the dice
        pool. The first listed player reads mysteries last: they take the badge and go first.

        The family's box file is used unless ``options["box_file"]`` says another (``None``: none).
        """
        if not 2 <= len(players) <= 4:
            raise RuleViolation("Sudds & Malone is for 2 to 4 players.", SETUP)
        for name in players:
            if not isinstance(name, str) or not name.strip() or "/" in name or name.startswith("~") \
                    or name.lower() in RESERVED:
                raise BadInput(f"{name!r} cannot be a player's name (no '/', not city, conspiracy, found, box).")
        if len(set(players)) != len(players):
            raise BadInput("Two players have the same name; add an initial to tell them apart.")
        if "box_file" in options:
            path = options["box_file"]
            try:
                self.box = load_box(card_ids=self.card_ids, user_file=Path(path) if path else None)
            except BoxError as exc:
                raise BadInput(f"The box file cannot be used: {exc}", SETUP) from None
        box = self.box
        state = SuddsState(tuple(players), self.deck, box.snitch_evidence)
        for b in state.boards.values():
            b.location = "east-side"
        t = state.table
        for pos in (1, 2, 3, 4):
            t.add("suspect", conspiracy_place(pos))
        for loc in box.locations:
            t.add("suspect", city_place(loc))
        state.cases_in_play = tuple(c.id for c in self.deck.of_kind("case"))[:box.cases_in_play]
        n = len(players)
        marks = {"all"} | ({"3+"} if n >= 3 else set()) | ({"4"} if n == 4 else set())
        state.hunches_in_play = tuple(c.id for c in self.deck.of_kind("hunch") if self.hunch(c.id).players in marks)
        for _ in state.hunches_in_play:
            t.add("hunch", HUNCH_PILE)
        state.ff_deck = [c.id for c in self.deck.of_kind("flimflam")]
        state.case_deck = len(state.cases_in_play)
        extra = 1 if n == 2 else 0
        for colour in COLOURS:
            for i in range(1, n + extra + 1):
                state.dice[f"{colour}-{i}"] = None
        for p in players:
            state.dice[f"{PERSONAL}-{p}"] = None
        for p in players:
            state.boards[p].hand_unknown = 3         # Player Setup 15: 3 Case cards, drawn face down
        state.case_deck -= 3 * n
        state.current = state.badge
        state.emit("setup", f"{n} detectives; {state.badge} has the badge and goes first. Each takes $1, one of "
                            f"each evidence, 2 bullets and 3 Case cards; 4 bullets on the board.",
                   players=list(players), badge=state.badge, hunches=len(state.hunches_in_play),
                   cases=len(state.cases_in_play), dice=sorted(state.dice))
        return state

    # --- who acts ---------------------------------------------------------------------------
    def _actor(self, state: SuddsState) -> str | None:
        if state.phase == OVER:
            return None
        if state.phase in (DEAL, ROLL, REVEAL):
            return state.badge
        return state.current

    def apply(self, state: GameState, action: Action) -> None:
        assert isinstance(state, SuddsState)
        if state.phase == OVER:
            raise RuleViolation("The game is over.", END)
        actor = self._actor(state)
        if action.player != actor:
            if action.player not in state.players:
                raise BadInput(f"{action.player!r} is not playing in this game.")
            raise RuleViolation(f"It is {actor}'s move now, not {action.player}'s.", HOW)
        handler = getattr(self, f"_do_{action.type}", None)
        if handler is None or not isinstance(action, A.ACTIONS[action.type]):
            raise BadInput(f"Sudds & Malone has no action {action.type!r}.")
        handler(state, action)

    # --- checks ------------------------------------------------------------------------------
    def _phase(self, state: SuddsState, *phases: str, what: str, section: str) -> None:
        if state.phase not in phases:
            raise RuleViolation(f"{what} is not possible now: {self.prompt(state).text}", section)

    def _pending(self, state: SuddsState, kind: str, section: str) -> dict[str, Any]:
        head = self._head(state)
        if state.phase != PENDING or head is None or head["kind"] != kind:
            raise RuleViolation(f"That is not the step now: {self.prompt(state).text}", section)
        return head

    def _head(self, state: SuddsState) -> dict[str, Any] | None:
        """The next step of the turn: any reward choice first, a bonus action last."""
        for item in state.pending:
            if item["kind"] != "bonus":
                return item
        return state.pending[0] if state.pending else None

    def _pop(self, state: SuddsState, item: dict[str, Any]) -> None:
        state.pending.remove(item)
        self._settle(state)

    def _settle(self, state: SuddsState) -> None:
        """Skip steps that cannot be done; when none are left the turn goes on to Close Cases."""
        while True:
            head = self._head(state)
            if head is None:
                if state.phase == PENDING:
                    state.phase = AFTER
                    state.doing = None
                return
            reason = self._impossible(state, head)
            if reason is None:
                state.phase = PENDING
                if head["kind"] == "action":
                    state.doing = head["track"]
                return
            state.pending.remove(head)
            state.emit("skipped", reason, kind=head["kind"])

    def _impossible(self, state: SuddsState, item: dict[str, Any]) -> str | None:
        p = state.current
        b = state.boards[p]
        kind = item["kind"]
        if kind == "snitch":
            if not b.snitches:
                return f"{p} has no snitch left to place."
            if len(state.snitch_at) >= len(self.box.locations):
                return "Every location already has a snitch."
        if kind == "peek" and not self._uncovered(state):
            return "Every suspect in the Conspiracy is covered: no peek."
        if kind == "case" and not state.display and not state.case_deck:
            return "No Case card is left to take."
        if kind == "action":
            why = self._cannot(state, p, item["track"])
            if why:
                return why
        return None

    def _cannot(self, state: SuddsState, p: str, track: str) -> str | None:
        """Why ``p`` cannot do this column's action now (None when they can)."""
        b = state.boards[p]
        if track == "calendar" and (b.calendar is None or b.calendar_done):
            return (f"{p} has passed Saturday this round: no more Calendar until the next round."
                    if b.calendar else f"{p}'s calendar disk has left the calendar.")
        if track == "flimflam" and not state.covers:
            return "No Flimflam card is in the Conspiracy: no Flimflam action."
        if track == "flimflam" and not any((b.cash if self.ff(c).cost == "cash" else b.bullets) >= 1
                                           for c in state.covers.values()):
            return f"{p} cannot pay for any Flimflam card in the Conspiracy."
        if track == "cases" and not state.display and not state.case_deck:
            return "No Case card is left to take."
        if track == "investigate" and state.phase != DIE and all(
                n in b.visited for n in self.box.neighbours[b.location]):
            return f"Every location next to {self.loc_name(b.location)} was visited this turn: nowhere new to go."
        return None

    def _uncovered(self, state: SuddsState) -> list[int]:
        return [pos for pos in (1, 2, 3, 4) if pos not in state.covers]

    def _card(self, state: SuddsState, card: Any, kind: str, section: str) -> str:
        if not isinstance(card, str) or card not in self.deck or self.deck.cards[card].kind != kind:
            raise BadInput(f"{card!r} is not a {self.deck.kinds[kind].name} card of Sudds & Malone.", section)
        return card

    # --- the deal and the roll ------------------------------------------------------------------
    def _do_deal(self, state: SuddsState, a: A.Deal) -> None:
        self._phase(state, DEAL, what="The deal", section=SETUP)
        city = dict(a.city)
        if set(city) != set(self.box.locations):
            raise BadInput("Name the Flimflam card on each of the 8 locations.", SETUP)
        cards = [self._card(state, c, "flimflam", SETUP) for c in (*city.values(), a.conspiracy)]
        if len(set(cards)) != len(cards):
            raise BadInput("The same Flimflam card cannot lie in two places.", SETUP)
        display = [self._card(state, c, "case", SETUP) for c in a.display]
        if len(display) != 4 or len(set(display)) != 4 or any(c not in state.cases_in_play for c in display):
            raise BadInput("Turn up 4 different Case cards of the deck in play for the display.", SETUP)
        for loc, card in city.items():
            state.city[loc] = card
            state.ff_deck.remove(card)
        state.ff_deck.remove(a.conspiracy)
        pos = self.ff(a.conspiracy).cover
        state.covers[pos] = a.conspiracy
        state.display = display
        state.case_deck -= 4
        state.emit("deal", f"Flimflam cards lie on the 8 locations; {self.deck.name_of(a.conspiracy)} covers "
                           f"suspect {pos} of the Conspiracy. Display: "
                           f"{', '.join(self.deck.name_of(c) for c in display)}.",
                   covers={str(pos): a.conspiracy}, display=display,
                   backs={loc: self._back_words(c) for loc, c in city.items()})
        state.phase = ROLL

    def _back_words(self, card: str) -> str:
        f = self.ff(card)
        return "2 bullets" if f.back == "bullets" else f"a {f.back}"

    def _do_roll(self, state: SuddsState, a: A.Roll) -> None:
        self._phase(state, ROLL, what="Rolling the dice", section=HOW)
        dice = dict(a.dice)
        if set(dice) != set(state.dice):
            raise BadInput(f"Give a value for every die of the pool: {', '.join(sorted(state.dice))}.", PSETUP)
        for die, v in dice.items():
            if type(v) is not int or not 1 <= v <= 6:
                raise BadInput(f"Die {die} shows {v!r}: a die shows 1 to 6.", DICE)
        state.dice = {d: dice[d] for d in state.dice}      # the pool's own order, whatever the input's
        state.taken = {}
        for b in state.boards.values():
            b.colours = set()
            b.dice = []
        state.turn = 0
        state.current = state.badge
        state.phase = DIE
        # The values first, then a short line: the shared screen's message area shows the last lines.
        state.emit("roll", f"Round {state.round}: {a.player} rolled " +
                   ", ".join(f"{d} {v}" for d, v in sorted(dice.items())) + ".", dice=dice, round=state.round)
        state.emit("rolled", f"Round {state.round}: {a.player} rolled all {len(dice)} dice.", round=state.round)
        self._start_turn(state)

    def _start_turn(self, state: SuddsState) -> None:
        state.emit("turn", f"{state.current}'s turn: take a die.", player=state.current)

    # --- taking a die ----------------------------------------------------------------------------
    def die_colour(self, die: str) -> str:
        return PERSONAL if die.startswith(PERSONAL + "-") else die.split("-")[0]

    def legal_dice(self, state: SuddsState, player: str) -> list[str]:
        b = state.boards[player]
        out = []
        for die in state.dice:
            if die in state.taken:
                continue
            colour = self.die_colour(die)
            if colour == PERSONAL and die != f"{PERSONAL}-{player}":
                continue
            if colour in b.colours:
                continue
            out.append(die)
        return out

    def _do_take_die(self, state: SuddsState, a: A.TakeDie) -> None:
        self._phase(state, DIE, what="Taking a die", section=DICE)
        p = a.player
        b = state.boards[p]
        if a.die not in state.dice:
            raise BadInput(f"There is no die {a.die!r} in the pool.", DICE)
        if a.die in state.taken:
            raise RuleViolation(f"{state.taken[a.die]} already took that die this round.", DICE)
        colour = self.die_colour(a.die)
        if colour == PERSONAL and a.die != f"{PERSONAL}-{p}":
            raise RuleViolation("Only its owner may take a personal die.", DICE)
        if colour in b.colours:
            raise RuleViolation(f"You already used a {colour} die this round: each colour once per round.", DICE)
        if type(a.shift) is not int or abs(a.shift) > b.bullets:
            raise RuleViolation(f"Changing the die by {a.shift} costs {abs(a.shift) if type(a.shift) is int else '?'} "
                                f"bullets; you have {b.bullets}.", DICE)
        if a.news and a.shift:
            raise RuleViolation("Any die can Read the News: there is no need to spend bullets on it.", NEWS)
        value = state.dice[a.die]
        assert value is not None
        new = (value - 1 + a.shift) % 6 + 1
        track = TRACKS[new - 1]
        b.office_level = b.levels["office"]    # this turn's Office allowance (The Office note)
        b.visited = [b.location]                # Investigate: no location twice in a turn
        b.bullets -= abs(a.shift)              # (a refused action changes nothing: this is a private copy)
        state.board_bullets += abs(a.shift)
        if not a.news:
            why = self._cannot(state, p, track)
            if why:
                raise RuleViolation(why + " Choose another die or Read the News.", TRACK_NAME[track])
        state.taken[a.die] = p
        b.colours.add(colour)
        b.dice.append(a.die)
        shifted = f" and spent {abs(a.shift)} bullet{'s' if abs(a.shift) != 1 else ''} to make it {new}" if a.shift else ""
        what = TRACK_NAME["news"] if a.news else TRACK_NAME[track]
        state.emit("take_die", f"{p} took the {a.die} die ({value}){shifted}: {what}.", die=a.die, value=value,
                   shift=a.shift, action="news" if a.news else track)
        if a.news:
            self._news(state, p)
        else:
            state.pending.append({"kind": "action", "track": track, "forced": False})
        self._settle(state)

    def _news(self, state: SuddsState, p: str) -> None:
        """Read the News: $1, a glass/notebook/telephone (chosen next), one bullet from the board."""
        b = state.boards[p]
        b.cash += 1
        got = self._take_bullets(state, p, 1)
        state.emit("news", f"{p} read the news: $1{' and a bullet' if got else ' (no bullet left on the board)'}.",
                   player=p, bullets=got)
        state.pending.insert(0, {"kind": "evidence", "why": "news"})

    def _take_bullets(self, state: SuddsState, p: str, n: int) -> int:
        got = min(n, state.board_bullets)
        state.board_bullets -= got
        state.boards[p].bullets += got
        return got

    # --- rewards ------------------------------------------------------------------------------------
    def _reward(self, state: SuddsState, p: str, parts: tuple[str, ...], source: str) -> list[str]:
        """Give a reward now, or queue the choice it needs; returns words for it."""
        b = state.boards[p]
        words = []
        for part in parts:
            name, _, n = part.partition(":")
            if name == "points":
                state.add_score(p, int(n), source)
                words.append(f"{n} point{'s' if n != '1' else ''}")
            elif name == "cash":
                b.cash += int(n)
                words.append(f"${n}")
            elif name == "bullets":
                got = self._take_bullets(state, p, int(n))
                words.append(f"{got} bullet{'s' if got != 1 else ''}")
            elif name == "fedora":
                b.evidence["fedora"] += 1
                words.append("a fedora")
            elif name == "news":
                b.cash += 1
                got = self._take_bullets(state, p, 1)
                state.pending.append({"kind": "evidence", "why": "news"})
                words.append("Read the News ($1" + (", a bullet" if got else "") + ", evidence to choose)")
            elif name == "bonus":
                state.pending.append({"kind": "bonus"})
                words.append("a bonus action")
            elif name in ("snitch", "peek", "case", "evidence", "cash_or_points"):
                state.pending.append({"kind": name})
                words.append({"snitch": "a snitch to place", "peek": "a peek", "case": "a Case card",
                              "evidence": "evidence to choose", "cash_or_points": "$1 or 2 points"}[name])
        return words

    # --- 1 The Office ---------------------------------------------------------------------------------
    def _action_item(self, state: SuddsState, track: str) -> dict[str, Any]:
        head = self._pending(state, "action", TRACK_NAME[track])
        if head["track"] != track:
            raise RuleViolation(f"Your die says {TRACK_NAME[head['track']]}, not {TRACK_NAME[track]}.", DICE)
        return head

    def _do_improve(self, state: SuddsState, a: A.Improve) -> None:
        item = self._action_item(state, "office")
        p = a.player
        b = state.boards[p]
        allowed = self.box.allowance("office", b.office_level)
        tracks = list(a.tracks)
        if len(tracks) > allowed:
            raise RuleViolation(f"Your Office level allows {allowed} improvement{'s' if allowed != 1 else ''} "
                                f"this turn (new Office levels count from your next turn).", OFFICE)
        levels = dict(b.levels)
        cost = 0
        for t in tracks:
            if t not in TRACKS:
                raise BadInput(f"{t!r} is not a column of the player board ({', '.join(TRACKS)}).", OFFICE)
            if levels[t] >= LEVELS:
                raise RuleViolation(f"{TRACK_NAME[t]} is at the 4th level already: no improving past it.", OFFICE)
            levels[t] += 1
            cost += self.box.step_cost(t, levels[t])
        if cost > b.cash:
            raise RuleViolation(f"Those improvements cost ${cost}; you have ${b.cash}.", OFFICE)
        state.pending.remove(item)
        for t in tracks:
            b.levels[t] += 1
            lv = self.box.level(t, b.levels[t])
            b.cash -= lv.cost
            got = self._reward(state, p, lv.reward, "office")
            state.emit("improve", f"{p} paid ${lv.cost} to move {TRACK_NAME[t]} up to level {lv.level}"
                       + (f": {', '.join(got)}." if got else "."), track=t, level=lv.level, cost=lv.cost)
        if not tracks:
            state.emit("improve", f"{p} improved nothing.", track=None)
        self._settle(state)

    # --- 2 Calendar ------------------------------------------------------------------------------------
    def _do_calendar(self, state: SuddsState, a: A.CalendarMove) -> None:
        item = self._action_item(state, "calendar")
        p = a.player
        b = state.boards[p]
        assert b.calendar is not None
        days = self.box.allowance("calendar", b.levels["calendar"])
        week, day = b.calendar
        blocked = {state.boards[q].calendar for q in state.players
                   if q != p and state.boards[q].calendar is not None}
        state.pending.remove(item)
        moved, got, path = 0, [], []
        while moved < days:
            day += 1
            if day > 6:                       # passed Saturday: stop on Sunday
                b.calendar_done = True
                if week >= WEEKS:
                    b.calendar = None
                    path.append("off the calendar")
                else:
                    week, day = week + 1, 0
                    path.append(f"Sunday of week {week}")
                break
            if (week, day) in blocked:
                path.append(f"{DAY_NAME[day]} (blocked)")
                continue
            moved += 1
            reward = self.box.day(week, DAYS[day - 1])
            words = self._reward(state, p, reward, "calendar")
            got += words
            path.append(f"{DAY_NAME[day]} ({', '.join(words)})")
        if b.calendar is not None:
            b.calendar = (week, day)
        state.emit("calendar", f"{p} moved on the calendar: {'; '.join(path)}.", player=p,
                   to=list(b.calendar) if b.calendar else None, days=moved, done=b.calendar_done)
        self._settle(state)

    # --- 3 Investigate ---------------------------------------------------------------------------------
    def _do_investigate(self, state: SuddsState, a: A.Investigate) -> None:
        item = self._action_item(state, "investigate")
        p = a.player
        b = state.boards[p]
        allowed = self.box.allowance("investigate", b.levels["investigate"])
        path = list(a.path)
        if not path:
            raise RuleViolation("Move at least to one adjacent location.", INVESTIGATE)
        if len(path) > allowed:
            raise RuleViolation(f"Your Investigate level lets you visit {allowed} location"
                                f"{'s' if allowed != 1 else ''}.", INVESTIGATE)
        here = b.location
        visited = {here, *b.visited}           # a bonus or Moxie Investigate continues the same turn
        for loc in path:
            if loc not in self.box.locations:
                raise BadInput(f"{loc!r} is not a location of the board.", INVESTIGATE)
            if loc not in self.box.neighbours[here]:
                raise RuleViolation(f"{self.loc_name(loc)} is not next to {self.loc_name(here)}.", INVESTIGATE)
            if loc in visited:
                raise RuleViolation(f"You cannot visit {self.loc_name(loc)} twice in a turn.", INVESTIGATE)
            visited.add(loc)
            here = loc
        snitches = list(a.snitches)
        if len(set(snitches)) != len(snitches) or any(s not in path for s in snitches):
            raise RuleViolation("Pay only snitches at locations you visit, each once.", INVESTIGATE)
        cash = b.cash
        for s in snitches:
            at = state.snitch_at.get(s)
            if at is None:
                raise RuleViolation(f"There is no snitch at {self.loc_name(s)}.", INVESTIGATE)
            if at[2]:
                raise RuleViolation(f"The snitch at {self.loc_name(s)} was already used this round.", INVESTIGATE)
            if at[0] != p:
                cash -= 1
                if cash < 0:
                    raise RuleViolation("You need $1 for each other player's snitch you use.", INVESTIGATE)
        final = path[-1]
        token = state.table.top(city_place(final))
        if token is not None:
            found = self._card(state, a.found, "suspect", INVESTIGATE)
        elif a.found:
            raise RuleViolation(f"No suspect or stoolie is left at {self.loc_name(final)}.", INVESTIGATE)
        moving = state.city.get(final)
        swap = self.face_swap(state, final, a.face) if a.face else None
        ff_deck = list(state.ff_deck)
        if swap is not None and swap[1] == "deck":
            ff_deck[ff_deck.index(a.face)] = moving
        returned = state.covers.get(self.ff(moving).cover) if moving else None
        deck_then = [*ff_deck, *([returned] if returned else [])]
        needs_draw = bool(deck_then)
        if needs_draw:
            draw = self._card(state, a.draw, "flimflam", INVESTIGATE)
            if draw not in deck_then:
                raise RuleViolation(f"{self.deck.name_of(draw)} is not in the Flimflam deck.", INVESTIGATE)
        elif a.draw:
            raise RuleViolation("The Flimflam deck is empty: nothing is drawn.", INVESTIGATE)
        # Everything checked: now change the table.
        state.pending.remove(item)
        if swap is not None:
            self._swap_face(state, final, a.face, swap)
        words = []
        for loc in path:
            card = state.city.get(loc)
            if card is not None:
                back = self.ff(card).back
                if back == "bullets":
                    got = self._take_bullets(state, p, 2)
                    words.append(f"{self.loc_name(loc)}: {got} bullet{'s' if got != 1 else ''}")
                else:
                    b.evidence[back] += 1
                    words.append(f"{self.loc_name(loc)}: a {back}")
            else:
                words.append(f"{self.loc_name(loc)}: nothing (no Flimflam card)")
            if loc in snitches:
                owner, ev, _ = state.snitch_at[loc]
                if owner != p:
                    b.cash -= 1
                    state.boards[owner].cash += 1
                b.evidence[ev] += 1
                state.snitch_at[loc] = (owner, ev, True)
                words.append(f"{owner}'s snitch: a {ev}" + ("" if owner == p else f" for $1 to {owner}"))
        b.location = final
        b.visited += path
        state.emit("investigate", f"{p} investigated {' -> '.join(self.loc_name(x) for x in path)}: "
                   f"{'; '.join(words)}.", player=p, path=path, snitches=snitches)
        card = state.city.get(final)
        if card is not None:
            pos = self.ff(card).cover
            old = state.covers.get(pos)
            if old is not None:
                state.ff_deck.append(old)
            state.covers[pos] = card
            state.city[final] = None
            state.emit("cover", f"{self.deck.name_of(card)} from {self.loc_name(final)} now covers suspect {pos}"
                       + (f"; {self.deck.name_of(old)} goes to the bottom of the Flimflam deck." if old else "."),
                       card=card, position=pos, returned=old)
        if token is not None:
            state.table.move(token, found_place(p))
            state.observe(token, found, private(p), confirm=bool(a.confirm))
            state.emit("take_suspect", f"{p} took the face-down card at {self.loc_name(final)}.", player=p,
                       location=final)
            what = "a stoolie" if self.role[found] == "stoolie" else f"the {self.role[found].capitalize()}"
            state.emit("saw_suspect", f"{p} found {what}: {self.deck.name_of(found)}.", private(p), card=found,
                       location=final)
        if needs_draw:
            state.ff_deck.remove(a.draw)
            state.city[final] = a.draw
            state.emit("draw_flimflam", f"A new Flimflam card lies face down at {self.loc_name(final)} "
                       f"(its back shows {self._back_words(a.draw)}).", location=final,
                       back=self.ff(a.draw).back)
        self._settle(state)

    def face_candidates(self, state: GameState, location: str) -> list[str]:
        """The cards the face-down Flimflam at ``location`` can turn out to be: the cards with its back
        (evidence or bullets, and the suspect it covers) that nobody has seen where they lie now, face
        down on a location or in the deck (its order is unknown). The card noted there is one of them."""
        assert isinstance(state, SuddsState)
        card = state.city.get(location)
        if card is None:
            return []
        back = (self.ff(card).back, self.ff(card).cover)
        unseen = [c for c in state.city.values() if c] + list(state.ff_deck)
        return sorted(c for c in unseen if (self.ff(c).back, self.ff(c).cover) == back)

    def face_swap(self, state: SuddsState, location: str, face: Any) -> tuple[str, str] | None:
        """Check the face read of the Flimflam turned up from ``location`` (Investigate): None when it is
        the card noted there, else (the card noted there, where ``face`` was noted: a location or "deck").
        Cards with the same back are alike until turned up (Game Setup 4-5: the family picked this one by
        its back), so the two notes are exchanged; a face with another back is a misread, refused."""
        noted = state.city.get(location)
        if noted is None:
            raise RuleViolation(f"No Flimflam card lies at {self.loc_name(location)} to turn face up.", INVESTIGATE)
        face = self._card(state, face, "flimflam", INVESTIGATE)
        if face == noted:
            return None
        f, n = self.ff(face), self.ff(noted)
        if (f.back, f.cover) != (n.back, n.cover):
            raise RuleViolation(
                f"{self.deck.name_of(face)} has a back showing {self._back_words(face)} and suspect {f.cover}; the "
                f"card at {self.loc_name(location)} shows {self._back_words(noted)} and suspect {n.cover} on its "
                f"back. Read the face again.", INVESTIGATE)
        where = next((loc for loc, c in state.city.items() if c == face), None)
        if where is None and face not in state.ff_deck:
            raise RuleViolation(f"{self.deck.name_of(face)} is already face up (or above a file cabinet): it "
                                f"cannot be the card turned up at {self.loc_name(location)}. Read the face again.",
                                INVESTIGATE)
        return noted, where or "deck"

    def _swap_face(self, state: SuddsState, location: str, face: str, swap: tuple[str, str]) -> None:
        noted, where = swap
        if where == "deck":
            state.ff_deck[state.ff_deck.index(face)] = noted
        else:
            state.city[where] = noted
        state.city[location] = face
        # The card first noted there is face down again somewhere (or in the deck): never named.
        state.emit("flimflam_face", f"The Flimflam card turned up at {self.loc_name(location)} is "
                   f"{self.deck.name_of(face)}, not the card first noted there: cards with the same back are "
                   f"alike until turned up, so the app exchanges its notes of the two.",
                   location=location, card=face)

    # --- 4 Flimflam --------------------------------------------------------------------------------------
    def _do_take_flimflam(self, state: SuddsState, a: A.TakeFlimflam) -> None:
        item = self._action_item(state, "flimflam")
        p = a.player
        b = state.boards[p]
        allowed = self.box.allowance("flimflam", b.levels["flimflam"])
        positions = list(a.positions)
        if not positions:
            raise RuleViolation("Take at least one Flimflam card.", FLIMFLAM)
        if len(positions) > allowed:
            raise RuleViolation(f"Your Flimflam level lets you take {allowed} card{'s' if allowed != 1 else ''}.",
                                FLIMFLAM)
        if len(set(positions)) != len(positions) or any(pos not in state.covers for pos in positions):
            raise RuleViolation("Take Flimflam cards that lie on the Conspiracy, each once.", FLIMFLAM)
        cash = sum(1 for pos in positions if self.ff(state.covers[pos]).cost == "cash")
        bullets = len(positions) - cash
        if cash > b.cash or bullets > b.bullets:
            raise RuleViolation(f"Those cards cost ${cash} and {bullets} bullet{'s' if bullets != 1 else ''}; "
                                f"you have ${b.cash} and {b.bullets}.", FLIMFLAM)
        state.pending.remove(item)
        for pos in positions:
            card = state.covers.pop(pos)
            f = self.ff(card)
            if f.cost == "cash":
                b.cash -= 1
            else:
                b.bullets -= 1
                state.board_bullets += 1
            got = self._reward(state, p, f.reward, "flimflam")
            b.above.append(card)
            state.emit("take_flimflam", f"{p} paid {'$1' if f.cost == 'cash' else 'a bullet'} for "
                       f"{self.deck.name_of(card)} (suspect {pos} is uncovered): {', '.join(got)}.",
                       card=card, position=pos)
        self._settle(state)

    # --- 5 Take Cases -------------------------------------------------------------------------------------
    def case_pool(self, state: SuddsState) -> set[str]:
        """Case cards in play whose place the table does not know: in the deck or drawn face down."""
        known = set(state.display)
        for b in state.boards.values():
            known.update(b.hand_known, b.filed, (c for c in b.above if self.kind_of(c) == "case"))
        return set(state.cases_in_play) - known

    def _take_cases(self, state: SuddsState, p: str, picks: list[str], refill: list[str], section: str) -> list[str]:
        """Check picks and refills; then move the cards. Returns public words."""
        display = list(state.display)
        deck = state.case_deck
        for pick in picks:
            if pick == "deck":
                if deck <= 0:
                    raise RuleViolation("The Case deck is empty.", section)
                deck -= 1
            elif pick in display:
                display.remove(pick)
            else:
                raise RuleViolation(f"{pick!r} is not a Case card of the display (or 'deck').", section)
        need = min(4 - len(display), deck)
        if len(refill) != need:
            raise RuleViolation(f"Turn up {need} Case card{'s' if need != 1 else ''} to refill the display.", section)
        pool = self.case_pool(state)
        for c in refill:
            self._card(state, c, "case", section)
            if c not in pool or refill.count(c) > 1:
                raise RuleViolation(f"{self.deck.name_of(c)} cannot be on top of the Case deck: the table knows "
                                    f"where it is.", section)
        b = state.boards[p]
        words = []
        for pick in picks:
            if pick == "deck":
                state.case_deck -= 1
                b.hand_unknown += 1
                words.append("one from the deck")
            else:
                state.display.remove(pick)
                b.hand_known.append(pick)
                words.append(self.deck.name_of(pick))
        for c in refill:
            state.display.append(c)
            state.case_deck -= 1
        return words

    def _do_take_cases(self, state: SuddsState, a: A.TakeCases) -> None:
        item = self._action_item(state, "cases")
        p = a.player
        allowed = self.box.allowance("cases", state.boards[p].levels["cases"])
        picks = list(a.picks)
        if not 1 <= len(picks) <= allowed:
            raise RuleViolation(f"Your Cases level lets you take 1 to {allowed} card{'s' if allowed != 1 else ''}.",
                                CASES)
        words = self._take_cases(state, p, picks, list(a.refill), CASES)
        state.pending.remove(item)
        state.emit("take_cases", f"{p} took {', '.join(words)}"
                   + (f"; the display gets {', '.join(self.deck.name_of(c) for c in a.refill)}." if a.refill else "."),
                   player=p, picks=picks, refill=list(a.refill))
        self._settle(state)

    def _do_take_case(self, state: SuddsState, a: A.TakeCase) -> None:
        item = self._pending(state, "case", OFFICE)
        p = a.player
        refill = [a.refill] if a.refill else []
        words = self._take_cases(state, p, [a.source], refill, OFFICE)
        state.emit("take_case", f"{p} took a Case card: {words[0]}"
                   + (f"; the display gets {self.deck.name_of(a.refill)}." if a.refill else "."), player=p)
        self._pop(state, item)

    # --- 6 Moxie -----------------------------------------------------------------------------------------
    def _do_moxie(self, state: SuddsState, a: A.Moxie) -> None:
        item = self._action_item(state, "moxie")
        p = a.player
        n = self.box.allowance("moxie", state.boards[p].levels["moxie"])
        got = self._take_bullets(state, p, n)
        state.pending.remove(item)
        state.pending.insert(0, {"kind": "reroll"})
        state.emit("moxie", f"{p} reloaded: {got} bullet{'s' if got != 1 else ''} "
                   f"({state.board_bullets} left on the board). Re-roll the die.", player=p, bullets=got)
        self._settle(state)

    def _do_reroll(self, state: SuddsState, a: A.Reroll) -> None:
        item = self._pending(state, "reroll", MOXIE)
        if type(a.value) is not int or not 1 <= a.value <= 6:
            raise BadInput("A die shows 1 to 6.", MOXIE)
        state.pending.remove(item)
        if a.value == 6:
            state.emit("reroll", f"{a.player} re-rolled a 6: nothing more happens.", value=6)
        else:
            track = TRACKS[a.value - 1]
            state.emit("reroll", f"{a.player} re-rolled a {a.value}: {TRACK_NAME[track]} at their level, no bullets, "
                       f"no Read the News.", value=a.value, track=track)
            state.pending.insert(0, {"kind": "action", "track": track, "forced": True})
        self._settle(state)

    # --- reward choices --------------------------------------------------------------------------------
    def _do_place_snitch(self, state: SuddsState, a: A.PlaceSnitch) -> None:
        item = self._pending(state, "snitch", OFFICE)
        b = state.boards[a.player]
        if a.location not in self.box.locations:
            raise BadInput(f"{a.location!r} is not a location of the board.", OFFICE)
        if a.location in state.snitch_at:
            raise RuleViolation(f"A snitch is already at {self.loc_name(a.location)}.", OFFICE)
        if a.evidence not in b.snitches:
            raise RuleViolation(f"You have no snitch showing a {a.evidence} in your supply "
                                f"({', '.join(b.snitches)}).", OFFICE)
        b.snitches.remove(a.evidence)
        state.snitch_at[a.location] = (a.player, a.evidence, False)
        state.emit("place_snitch", f"{a.player} placed a snitch ({a.evidence}) at {self.loc_name(a.location)}.",
                   player=a.player, location=a.location, evidence=a.evidence)
        self._pop(state, item)

    def _do_peek(self, state: SuddsState, a: A.Peek) -> None:
        item = self._pending(state, "peek", OFFICE)
        self._look(state, a.player, a.position, a.card, item.get("why", "peek"), a.confirm)
        self._pop(state, item)
        if item.get("back") == DIE and state.phase == AFTER and not state.pending:
            state.phase = DIE           # a stoolie's peek before the die was taken: now take a die

    def _look(self, state: SuddsState, p: str, position: Any, card: str, why: str, confirm: bool = False) -> None:
        section = INVESTIGATE if why == "stoolie" else CALENDAR
        if position not in (1, 2, 3, 4):
            raise BadInput("The Conspiracy has positions 1 to 4.", section)
        if position in state.covers:
            raise RuleViolation(f"Suspect {position} is covered by a Flimflam card: you cannot peek at it.", section)
        card = self._card(state, card, "suspect", section)
        if self.role[card] == "stoolie":
            raise BadInput("Only suspects lie in the Conspiracy, never a stoolie: show the card again.", SETUP)
        token = state.table.top(conspiracy_place(position))
        assert token is not None
        state.observe(token, card, private(p), confirm=bool(confirm))
        state.emit("peek", f"{p} peeked at suspect {position} of the Conspiracy.", player=p, position=position, why=why)
        state.emit("saw", f"{p} saw suspect {position}: the {self.role[card].capitalize()} "
                          f"({self.deck.name_of(card)}).", private(p), position=position, card=card)

    def _do_pick_evidence(self, state: SuddsState, a: A.PickEvidence) -> None:
        item = self._pending(state, "evidence", NEWS)
        if a.evidence not in PLAIN_EVIDENCE:
            raise RuleViolation("Choose a glass, a notebook or a telephone.", NEWS)
        state.boards[a.player].evidence[a.evidence] += 1
        state.emit("evidence", f"{a.player} took a {a.evidence}.", player=a.player, evidence=a.evidence)
        self._pop(state, item)

    def _do_cash_or_points(self, state: SuddsState, a: A.CashOrPoints) -> None:
        item = self._pending(state, "cash_or_points", CALENDAR)
        if a.choice == "cash":
            state.boards[a.player].cash += 1
        elif a.choice == "points":
            state.add_score(a.player, 2, "calendar")
        else:
            raise BadInput("Choose 'cash' ($1) or 'points' (2 points).", CALENDAR)
        state.emit("cash_or_points", f"{a.player} took {'$1' if a.choice == 'cash' else '2 points'}.",
                   choice=a.choice)
        self._pop(state, item)

    def _do_bonus(self, state: SuddsState, a: A.Bonus) -> None:
        item = self._pending(state, "bonus", OFFICE)
        if a.action == "news":
            state.pending.remove(item)
            state.emit("bonus", f"{a.player}'s bonus action: Read the News.", action="news")
            self._news(state, a.player)
            self._settle(state)
            return
        if a.action not in TRACKS:
            raise BadInput(f"A bonus action is one of {', '.join(TRACKS)} or news.", OFFICE)
        why = self._cannot(state, a.player, a.action)
        if why:
            raise RuleViolation(why, TRACK_NAME[a.action])
        state.pending.remove(item)
        state.pending.insert(0, {"kind": "action", "track": a.action, "forced": False})
        state.emit("bonus", f"{a.player}'s bonus action: {TRACK_NAME[a.action]}.", action=a.action)
        self._settle(state)

    # --- after the action: close cases, hunches, stoolies --------------------------------------------
    def _do_close_case(self, state: SuddsState, a: A.CloseCase) -> None:
        self._phase(state, AFTER, what="Closing a case", section=CLOSE)
        p = a.player
        b = state.boards[p]
        card = self._card(state, a.card, "case", CLOSE)
        if card in b.hand_known:
            from_known = True
        elif b.hand_unknown and card in self.case_pool(state):
            from_known = False
        else:
            raise RuleViolation(f"{self.deck.name_of(card)} is not a card in your hand.", CLOSE)
        pay = Counter(a.pay)
        if any(e not in EVIDENCE for e in pay):
            raise BadInput("Pay with glass, notebook, telephone or fedora.", CLOSE)
        if any(pay[e] > b.evidence[e] for e in pay):
            raise RuleViolation("You do not have that evidence.", CLOSE)
        content = self.case(card)
        if not self.pays(content.cost, pay):
            need = ", ".join(content.cost).replace("any", "any evidence")
            raise RuleViolation(f"{self.deck.name_of(card)} needs {need} (a fedora can stand for any one).", CLOSE)
        for e, n in pay.items():
            b.evidence[e] -= n
        if from_known:
            b.hand_known.remove(card)
        else:
            b.hand_unknown -= 1
        state.add_score(p, content.points, "cases")
        b.cash += content.cash
        b.above.append(card)
        gain = [w for w in (f"{content.points} points" if content.points else "",
                            f"${content.cash}" if content.cash else "") if w]
        state.emit("close_case", f"{p} closed {self.deck.name_of(card)} paying {', '.join(sorted(pay.elements()))}"
                   + (f": {', '.join(gain)}." if gain else "."), player=p, card=card, pay=sorted(pay.elements()))

    @staticmethod
    def pays(cost: tuple[str, ...], pay: Counter) -> bool:
        """Does ``pay`` (evidence -> count) settle ``cost`` exactly? A fedora stands for any one.

        >>> SuddsRules.pays(("telephone", "glass", "any"), Counter(telephone=1, fedora=1, notebook=1))
        True
        >>> SuddsRules.pays(("telephone",), Counter(glass=1))
        False
        """
        if sum(pay.values()) != len(cost):
            return False
        left = Counter(pay)
        for need in cost:
            if need == "any":
                continue
            if left[need]:
                left[need] -= 1
            elif left["fedora"]:
                left["fedora"] -= 1
            else:
                return False
        return sum(left.values()) == sum(1 for c in cost if c == "any")

    def tabs_of(self, card: str) -> str:
        kind = self.kind_of(card)
        return self.ff(card).tabs if kind == "flimflam" else self.case(card).tabs

    def snitch_as_tab(self) -> str:
        """The tab a placed snitch counts as for a hunch: '*' (wild: any one letter) or its letter (box value)."""
        return "*" if self.box.snitch_tab == "wild" else self.box.snitch_tab

    def hunch_items(self, cards: list[str], snitches: int) -> list[str]:
        """The tabs of each item offered for a hunch: the cards' printed tabs, then one tab per snitch."""
        return [self.tabs_of(c) for c in cards] + [self.snitch_as_tab()] * snitches

    @staticmethod
    def set_problem(tabs: list[str]) -> str | None:
        """Why these items (each its tabs: printed letters, '*' a wild tab) make no A-B-C set; None if they do.

        Close Cases, Gain a hunch: a card gives the letters printed on it; a wild tab (and a snitch, one
        more tab) stands for any ONE letter; every item used must give a letter no other item gives
        (extra tabs are ignored). So a wild card alone gives one letter, not three.

        >>> SuddsRules.set_problem(["AB", "*"]) is None, SuddsRules.set_problem(["A", "A", "BC"]) is None
        (True, False)
        >>> SuddsRules.set_problem(["*"])
        'These give only 1 of the letters A, B and C: a wild tab or a snitch stands for one letter only.'
        """
        best, complete = 0, False
        for giver in product((None, *range(len(tabs))), repeat=len(TABS)):     # who gives A, B, C (None: nobody)
            fits = True
            for item, printed in enumerate(tabs):
                mine = [TABS[i] for i, g in enumerate(giver) if g == item]
                if sum(1 for t in mine if t not in printed) > printed.count("*"):
                    fits = False
                    break
            if not fits:
                continue
            best = max(best, sum(g is not None for g in giver))
            if None not in giver and set(giver) == set(range(len(tabs))):
                complete = True
                break
        if complete:
            return None
        if best < len(TABS):
            wild = any("*" in t for t in tabs)
            return (f"These give only {best} of the letters A, B and C"
                    + (": a wild tab or a snitch stands for one letter only." if wild else "."))
        return ("Every card or snitch used must give a letter of A, B and C that the others do not: leave out "
                "the one that adds nothing.")

    @staticmethod
    def makes_set(tabs: list[str]) -> bool:
        """Can these items (each its tabs, '*' wild) give A, B and C with every item giving one at least?

        >>> SuddsRules.makes_set(["AB", "*"]), SuddsRules.makes_set(["A", "A", "BC"]), SuddsRules.makes_set(["*"])
        (True, False, False)
        """
        return bool(tabs) and SuddsRules.set_problem(tabs) is None

    def _do_hunch(self, state: SuddsState, a: A.GainHunch) -> None:
        self._phase(state, AFTER, what="Gaining a hunch", section=CLOSE)
        p = a.player
        b = state.boards[p]
        cards, snitches = list(a.cards), list(a.snitches)
        if not cards:
            raise RuleViolation("Use at least one card above your file cabinet for a hunch.", CLOSE)
        if len(set(cards)) != len(cards) or any(c not in b.above for c in cards):
            raise RuleViolation("Use cards that lie above your file cabinet, each once.", CLOSE)
        if len(set(snitches)) != len(snitches) or any(state.snitch_at.get(s, ("",))[0] != p for s in snitches):
            raise RuleViolation("Use only your own snitches placed on the board.", CLOSE)
        problem = self.set_problem(self.hunch_items(cards, len(snitches)))
        if problem:
            raise RuleViolation(problem, CLOSE)
        drawn = list(a.drawn)
        need = min(3, state.table.count(HUNCH_PILE))
        if need == 0:
            raise RuleViolation("The hunch deck is empty.", CLOSE)
        self._check_hunch_draw(state, drawn, need)
        state.drawn = []
        self._draw_hunches(state, p, drawn, bool(a.confirm))
        state.hunch_set = {"cards": tuple(cards), "snitches": tuple(snitches)}
        state.pending.append({"kind": "hunch"})
        state.phase = PENDING
        state.emit("hunch", f"{p} used {', '.join(self.deck.name_of(c) for c in cards)}"
                   + (f" and snitches at {', '.join(self.loc_name(s) for s in snitches)}" if snitches else "")
                   + f" for a hunch and drew {len(drawn)} hunch cards.", player=p, cards=cards, snitches=snitches)
        state.emit("hunch_drawn", f"{p} drew {', '.join(self.deck.name_of(c) for c in drawn)}.", private(p),
                   cards=drawn)

    def _check_hunch_draw(self, state: SuddsState, drawn: list[str], need: int) -> None:
        for c in drawn:
            self._card(state, c, "hunch", CLOSE)
            self._hunch_in_play(state, c)
        if len(drawn) != need or len(set(drawn)) != need or set(drawn) & set(state.drawn):
            raise BadInput(f"Show the {need} hunch card{'s' if need != 1 else ''} you drew.", CLOSE)

    def _hunch_in_play(self, state: SuddsState, card: str) -> None:
        """Game Setup 7: a hunch card left in the box for this number of players cannot be drawn or kept."""
        if card in state.hunches_in_play:
            return
        n = len(state.players)
        mark = self.hunch(card).players
        why = (f'it is marked "{mark}", kept only with {"3 or 4" if mark == "3+" else "4"} players'
               if mark != "all" else "it was left out when this game was set up")
        raise RuleViolation(f"{self.deck.name_of(card)} is not in this game's hunch deck: {why}, so with {n} "
                            f"players it stays in the box. Read the card again.", SETUP)

    def _draw_hunches(self, state: SuddsState, p: str, cards: list[str], confirm: bool) -> None:
        """Take the top hunch cards into the player's hand; each is read privately (the privacy gate).

        A card read that clashes with the player's own notes is asked about (``confirm``); one that
        clashes with another player's notes is held by the referee (nobody is told).
        """
        know = state.knowledge[p]
        # The cards drawn are a set (shown in any order), and cards put back under the deck together lie
        # in an order nobody noted: the top cards, and a run of cards this player put back that reaches
        # into them, are matched to this player's notes first; another card is the top one not noted.
        top = list(reversed(state.table.at(HUNCH_PILE)))
        window = top[:len(cards)]
        while len(window) < len(top) and know.card_at(window[-1]) and know.card_at(top[len(window)]):
            window.append(top[len(window)])
        for card in cards:
            token = next((t for t in window if know.card_at(t) == card), None)
            if token is None:
                token = next((t for t in window if know.card_at(t) is None), window[0] if window else None)
            assert token is not None
            window.remove(token)
            state.table.move(token, drawn_place(p))
            state.observe(token, card, private(p), confirm=confirm)
            state.drawn.append(card)

    def _do_buy_hunch(self, state: SuddsState, a: A.BuyHunch) -> None:
        self._pending(state, "hunch", CLOSE)
        b = state.boards[a.player]
        if b.cash < 1:
            raise RuleViolation("Another hunch card costs $1.", CLOSE)
        if not state.table.count(HUNCH_PILE):
            raise RuleViolation("The hunch deck is empty.", CLOSE)
        self._check_hunch_draw(state, [a.card], 1)
        b.cash -= 1
        self._draw_hunches(state, a.player, [a.card], bool(a.confirm))
        state.emit("buy_hunch", f"{a.player} paid $1 for another hunch card.", player=a.player)
        state.emit("hunch_drawn", f"{a.player} drew {self.deck.name_of(a.card)}.", private(a.player), cards=[a.card])

    def _do_keep_hunch(self, state: SuddsState, a: A.KeepHunch) -> None:
        item = self._pending(state, "hunch", CLOSE)
        p = a.player
        b = state.boards[p]
        if isinstance(a.card, str) and self.kind_of(a.card) == "hunch":
            self._hunch_in_play(state, a.card)
        if a.card not in state.drawn:
            raise RuleViolation("Keep one of the hunch cards you just drew.", CLOSE)
        b.hunches.append(a.card)
        know = state.knowledge[p]
        back = []
        moved = list(state.table.at(drawn_place(p)))
        for token in moved:
            if know.card_at(token) == a.card:
                state.table.move(token, hunches_place(p))
            else:
                state.table.move(token, HUNCH_PILE, bottom=True)     # in the order drawn
                back.append(token)
        # Which card was kept is the keeper's secret: nobody else can follow these cards now, not even one
        # they saw before (and put under the deck), or their journal would say whether it was kept.
        for observer, k in state.knowledge.items():
            if observer not in (p, REFEREE):
                for token in moved:
                    k.forget(token)
        state.drawn = []
        state.emit("keep_hunch", f"{p} kept one hunch card face down and put {len(back)} under the hunch deck.",
                   player=p, returned=len(back))
        state.emit("kept", f"{p} kept {self.deck.name_of(a.card)}.", private(p), card=a.card)
        words = []
        for c in state.hunch_set["cards"]:
            b.above.remove(c)
            if self.kind_of(c) == "case":
                b.filed.append(c)
                bottom = self.case(c).bottom
                if bottom.startswith("matchbook:"):
                    words.append(f"filed {self.deck.name_of(c)} (a matchbook)")
                elif bottom == "cash:1":
                    b.cash += 1
                    words.append(f"filed {self.deck.name_of(c)} ($1)")
                else:
                    b.evidence[bottom] += 1
                    words.append(f"filed {self.deck.name_of(c)} (a {bottom})")
            else:
                state.ff_deck.append(c)
                words.append(f"{self.deck.name_of(c)} to the bottom of the Flimflam deck")
        for loc in state.hunch_set["snitches"]:
            _, ev, _ = state.snitch_at.pop(loc)
            b.snitches.append(ev)
            words.append(f"the snitch at {self.loc_name(loc)} back to the supply")
        state.hunch_set = {}
        state.emit("file", f"{p}: {'; '.join(words)}.", player=p)
        self._pop(state, item)

    def _do_use_stoolie(self, state: SuddsState, a: A.UseStoolie) -> None:
        """Investigate, step 2. Which card a player took is theirs alone, so the table offers "Use a
        stoolie" to whoever holds a card taken while investigating, and the taker says behind the privacy
        gate which stoolie they reveal (``stoolie``; a refusal is shown there only). The peek follows as
        its own private step. (``position`` and ``card`` given: reveal and peek in one move, as games
        saved before issue 27 did.)"""
        p = a.player
        if state.phase not in (DIE, AFTER):
            # Before taking a die or after the action: not in the middle of an action or a hunch draw
            # (paying $1 then could leave an action already chosen impossible to pay for).
            raise RuleViolation("Use a stoolie before you take a die or once your action is done.", INVESTIGATE)
        b = state.boards[p]
        know = state.knowledge[p]
        held = [t for t in state.table.at(found_place(p)) if know.card_at(t) is not None]
        if not held:
            raise RuleViolation("You have no card taken while investigating: no stoolie to reveal.", INVESTIGATE)
        stoolies = [t for t in held if self.role.get(know.card_at(t) or "") == "stoolie"]
        if a.stoolie:
            mine = [t for t in held if know.card_at(t) == a.stoolie]
            if not mine:
                raise RuleViolation(f"{self.deck.name_of(a.stoolie)} is not among the cards you took.", INVESTIGATE)
            if self.role.get(a.stoolie) != "stoolie":
                raise RuleViolation(f"{self.deck.name_of(a.stoolie)} is a suspect, not a stoolie: only a stoolie "
                                    f"is revealed for a peek. Keep it face down.", INVESTIGATE)
            stoolies = mine
        if not stoolies:
            raise RuleViolation("None of the cards you took is a stoolie: you have none to reveal.", INVESTIGATE)
        if b.cash < 1:
            raise RuleViolation("Using a stoolie costs $1.", INVESTIGATE)
        two_steps = not a.position and not a.card
        if two_steps and not self._uncovered(state):
            raise RuleViolation("Every suspect in the Conspiracy is covered: there is nothing to peek at.",
                                INVESTIGATE)
        token = stoolies[0]
        card = know.card_at(token)
        assert card is not None
        if not two_steps:
            self._look(state.clone(), p, a.position, a.card, "stoolie", a.confirm)   # check first
        b.cash -= 1
        state.reveal(token, card)
        state.table.move(token, BOX_PLACE)
        state.emit("stoolie", f"{p} revealed {self.deck.name_of(card)}, paid $1 and returns it to the box.",
                   player=p, card=card)
        if two_steps:
            # The peek is the next step, asked privately like any peek; then back to where the turn was.
            state.pending.insert(0, {"kind": "peek", "why": "stoolie", "back": state.phase})
            state.phase = PENDING
            return
        self._look(state, p, a.position, a.card, "stoolie", a.confirm)

    # --- end of turn ----------------------------------------------------------------------------------
    def over_limits(self, state: SuddsState, p: str) -> dict[str, int]:
        b = state.boards[p]
        have = {"above": len(b.above), "hand": b.hand, "bullets": b.bullets, "evidence": b.evidence_total}
        return {k: have[k] - LIMITS[k] for k in LIMITS if have[k] > LIMITS[k]}

    def _do_end_turn(self, state: SuddsState, a: A.EndTurn) -> None:
        self._phase(state, AFTER, what="Ending the turn", section=EOT)
        over = self.over_limits(state, a.player)
        if over:
            state.phase = LIMIT
            state.emit("limits", f"{a.player} is over the end-of-turn limits: "
                       + ", ".join(f"{n} too many {k}" for k, n in over.items()) + ".", over=over)
            return
        self._next_turn(state)

    def _do_discard(self, state: SuddsState, a: A.Discard) -> None:
        self._phase(state, LIMIT, what="Discarding", section=EOT)
        p = a.player
        b = state.boards[p]
        over = self.over_limits(state, p)
        above, hand = list(a.above), list(a.hand)
        ev = dict(a.evidence)
        if len(above) != over.get("above", 0) or len(set(above)) != len(above) or any(c not in b.above for c in above):
            raise RuleViolation(f"Put back exactly {over.get('above', 0)} card(s) from above your file cabinet.", EOT)
        if len(hand) != over.get("hand", 0):
            raise RuleViolation(f"Put back exactly {over.get('hand', 0)} card(s) from your hand.", EOT)
        known = list(b.hand_known)
        unknown = b.hand_unknown
        pool = self.case_pool(state)
        for c in hand:
            self._card(state, c, "case", EOT)
            if c in known:
                known.remove(c)
            elif unknown and c in pool:
                unknown -= 1
                pool.discard(c)
            else:
                raise RuleViolation(f"{self.deck.name_of(c)} is not in your hand.", EOT)
        if a.bullets != over.get("bullets", 0):
            raise RuleViolation(f"Put back exactly {over.get('bullets', 0)} bullet(s).", EOT)
        if any(k not in EVIDENCE or type(n) is not int or n < 0 or n > b.evidence[k] for k, n in ev.items()) \
                or sum(ev.values()) != over.get("evidence", 0):
            raise RuleViolation(f"Put back exactly {over.get('evidence', 0)} evidence token(s) you have.", EOT)
        for c in above:
            b.above.remove(c)
            if self.kind_of(c) == "flimflam":
                state.ff_deck.append(c)
            else:
                state.case_deck += 1
        b.hand_known, b.hand_unknown = known, unknown
        state.case_deck += len(hand)
        b.bullets -= a.bullets
        state.board_bullets += a.bullets
        for k, n in ev.items():
            b.evidence[k] -= n
        state.emit("discard", f"{p} put back the extras: " + ", ".join(
            w for w in (f"{len(above)} card(s) from above the file cabinet" if above else "",
                        f"{len(hand)} card(s) from the hand" if hand else "",
                        f"{a.bullets} bullet(s)" if a.bullets else "",
                        f"{sum(ev.values())} evidence" if ev and sum(ev.values()) else "") if w) + ".", player=p)
        self._next_turn(state)

    def _next_turn(self, state: SuddsState) -> None:
        state.turn += 1
        order = state.order()
        if state.turn >= TURNS_PER_ROUND * len(order):
            self._end_round(state)
            return
        state.current = order[state.turn % len(order)]
        state.phase = DIE
        self._start_turn(state)

    # --- end of round ------------------------------------------------------------------------------------
    def leader(self, state: SuddsState) -> str:
        """Furthest ahead on the score track; a tie goes to the disk on top (the most recent arrival)."""
        return max(state.players, key=lambda p: (state.boards[p].score, state.arrival[p]))

    def badge_after(self, state: SuddsState) -> str:
        """Fewest bullets; on a tie the badge passes left from the holder to the first tied player."""
        fewest = min(state.boards[p].bullets for p in state.players)
        holder = state.badge
        if state.boards[holder].bullets == fewest and \
                sum(1 for p in state.players if state.boards[p].bullets == fewest) == 1:
            return holder
        p = holder
        for _ in range(len(state.players)):
            p = state.left_of(p)
            if state.boards[p].bullets == fewest:
                return p
        return holder

    def _end_round(self, state: SuddsState) -> None:
        cats = sum(1 for c in state.covers.values() if self.ff(c).cat)
        if cats:
            victim = self.leader(state)
            state.add_score(victim, -2 * cats, "cats")
            state.emit("cats", f"Cat attack: {cats} cat{'s' if cats != 1 else ''} in the Conspiracy; {victim}, "
                       f"furthest ahead, loses {2 * cats} points.", victim=victim, points=-2 * cats)
        else:
            state.emit("cats", "No cat in the Conspiracy: no penalty.", points=0)
        for b in state.boards.values():
            if b.calendar is not None:
                b.calendar = (state.round + 1, 0) if state.round < ROUNDS else None
            b.calendar_done = False
        for loc, (owner, ev, _) in list(state.snitch_at.items()):
            state.snitch_at[loc] = (owner, ev, False)
        if state.round >= ROUNDS:
            state.phase = REVEAL
            state.emit("round_over", "The fourth week is over: reveal the Conspiracy.", round=state.round)
            return
        state.round += 1
        new = self.badge_after(state)
        state.emit("badge", f"Round {state.round}: {new} has the fewest bullets and takes the badge"
                   + (" (a tie: passed to the left)." if sum(1 for p in state.players if state.boards[p].bullets ==
                                                             state.boards[new].bullets) > 1 else "."),
                   badge=new, round=state.round)
        state.badge = new
        state.current = new
        state.dice = {d: None for d in state.dice}
        state.taken = {}
        state.phase = ROLL

    def _do_reveal(self, state: SuddsState, a: A.Reveal) -> None:
        self._phase(state, REVEAL, what="Revealing the Conspiracy", section=END)
        cards = [self._card(state, c, "suspect", END) for c in a.cards]
        if len(cards) != 4 or len(set(cards)) != 4 or any(self.role[c] == "stoolie" for c in cards):
            raise BadInput("Turn up the 4 Conspiracy suspects, positions 1 to 4.", END)
        for pos, card in enumerate(cards, 1):
            state.reveal(state.table.top(conspiracy_place(pos)), card, confirm=bool(a.confirm))
        state.conspiracy = tuple(cards)
        makeup = Counter(self.role[c] for c in cards)
        state.emit("reveal", "The Conspiracy: " + ", ".join(self.deck.name_of(c) for c in cards) + ".", cards=cards)
        for p in state.players:
            b = state.boards[p]
            tokens = token_points(b.cash, b.bullets, b.evidence_total)
            books = matchbook_points(self.case(c).bottom.split(":", 1)[1] for c in b.filed
                                     if self.case(c).bottom.startswith("matchbook:"))
            for token in state.table.at(hunches_place(p)):        # hunch cards are turned up to score
                card = state.knowledge[p].card_at(token)
                if card is not None:
                    state.reveal(token, card)
            hunches = sum(hunch_points(self.hunch(h).points, makeup) for h in b.hunches)
            for source, pts in (("tokens", tokens), ("matchbooks", books), ("hunches", hunches)):
                b.score += pts
                b.sources[source] += pts
            state.final[p] = {"tokens": tokens, "matchbooks": books, "hunches": hunches}
            counted = b.cash + b.bullets + b.evidence_total
            state.emit("final", f"{p}: {tokens} for {counted} tokens (${b.cash} cash, each dollar one token; "
                       f"{b.bullets} bullets; {b.evidence_total} evidence), {books} for matchbooks, "
                       f"{hunches} for hunches ({', '.join(self.deck.name_of(h) for h in b.hunches) or 'no hunches'}): {b.score} points.",
                       player=p, tokens=tokens, matchbooks=books, hunches=hunches, score=b.score,
                       hunch_cards=list(b.hunches))
        scores = {p: state.boards[p].score for p in state.players}
        win = winner_by_badge(scores, state.players, state.badge)
        tied = [p for p in state.players if scores[p] == scores[win]]
        reason = f"{win} wins with {scores[win]} points" + (
            f" (a tie, broken in favour of the player nearest the badge holder, {state.badge})." if len(tied) > 1
            else ".")
        state.outcome = Outcome((win,), tuple(p for p in state.players if p != win), reason)
        state.phase = OVER
        state.emit("game_over", reason, winners=[win], scores=scores)

    # --- prompt --------------------------------------------------------------------------------------------
    def prompt(self, state: GameState) -> Prompt:
        from .view import prompt
        assert isinstance(state, SuddsState)
        return prompt(self, state)

    def final_scores(self, state: GameState) -> dict[str, int]:
        """Each detective's points on their board (hunch points included once the Conspiracy is revealed)."""
        return {p: state.boards[p].score for p in state.players}

    def journal(self, state: GameState, player: str, assist: Assist) -> Journal:
        from .view import journal
        assert isinstance(state, SuddsState)
        return journal(self, state, player, assist)

    def public_table(self, state: GameState) -> dict[str, Any]:
        """Everything on the table that everyone can see, for the shared screen (never a face-down
        suspect, a kept or drawn hunch card, or a Case card drawn face down).

        >>> from engine.session import Session
        >>> s = Session.new("sudds-malone", ["Ann", "Bob"], {"box_file": None})
        >>> t = s.rules.public_table(s.state)
        >>> t["players"]["Bob"]["score"], t["board_bullets"], t["players"]["Ann"]["hand"]
        (2, 4, 3)
        """
        assert isinstance(state, SuddsState)
        city = {}
        for loc in self.box.locations:
            card = state.city.get(loc)
            snitch = state.snitch_at.get(loc)
            city[loc] = {"name": self.loc_name(loc), "back": self.ff(card).back if card else None,
                         "cover": self.ff(card).cover if card else None,
                         "card_under": state.table.top(city_place(loc)) is not None,
                         "snitch": list(snitch) if snitch else None,
                         "badges": [p for p in state.players if state.boards[p].location == loc]}
        players = {}
        for p in state.players:
            b = state.boards[p]
            players[p] = {**b.to_json(), "hunches": state.table.count(hunches_place(p)),
                          "calendar_done": b.calendar_done,
                          "suspects": state.table.count(found_place(p)), "sources": dict(b.sources)}
            players[p].pop("hand", None)
            players[p]["hand"] = b.hand
            players[p]["hand_known"] = list(b.hand_known)
        return {"round": state.round, "phase": state.phase, "badge": state.badge, "current": state.current,
                "board_bullets": state.board_bullets,
                "dice": [{"die": d, "value": v, "taken_by": state.taken.get(d)} for d, v in state.dice.items()],
                "covers": {str(pos): card for pos, card in sorted(state.covers.items())},
                "display": list(state.display), "case_deck": state.case_deck, "ff_deck": len(state.ff_deck),
                "hunch_deck": state.table.count(HUNCH_PILE), "city": city, "players": players,
                "conspiracy": list(state.conspiracy), "final": {p: dict(v) for p, v in state.final.items()}}

    def layout(self, state: GameState) -> Mapping[str, tuple[str, ...]]:
        """Locations, columns, Conspiracy positions, die ids: the fixed shape of the table."""
        assert isinstance(state, SuddsState)
        return {"locations": tuple(self.box.locations), "tracks": TRACKS, "conspiracy": ("1", "2", "3", "4"),
                "dice": tuple(state.dice)}

    def describe(self, state: GameState, action: Action) -> str:
        from .view import describe
        assert isinstance(state, SuddsState)
        return describe(self, state, action)

    VALUE_WORDS = {"cash": "$1", "points": "2 points", "news": "Read the News", **TRACK_NAME,
                   "glass": "a glass", "notebook": "a notebook", "telephone": "a telephone", "fedora": "a fedora"}

    def place_words(self, state: GameState, place: str, viewer: str | None = None) -> str:
        """A place, or a value the shell shows on a button (a location, an evidence, a column)."""
        if place in self.box.locations:
            return self.loc_name(place)
        if place in self.VALUE_WORDS:
            return self.VALUE_WORDS[place]
        try:
            where = Place.parse(place, state.players)
        except ValueError:
            return place
        if where.area == "conspiracy":
            return f"suspect {where.slot} of the Conspiracy"
        if where.area == "city":
            return f"the card at {self.loc_name(where.slot or '')}"
        if where.area == "found":
            return "your suspects" if where.owner == viewer else f"{where.owner}'s suspects"
        if where.area == "pile" and where.slot == "hunch":
            return "the top of the hunch deck"
        if where.area == "drawn":
            return "the hunch cards you drew" if where.owner == viewer else f"the hunch cards {where.owner} drew"
        if where.area == "hunches":
            return "your hunch cards" if where.owner == viewer else f"{where.owner}'s hunch cards"
        return place

    def fits(self, state: GameState, card: str, action: Mapping[str, Any] | None, field: str | None) -> bool:
        """A stoolie is revealed with a stoolie card."""
        if (action or {}).get("type") == "use_stoolie" and field == "stoolie":
            return self.role.get(card) == "stoolie"
        return True

    def hand_places(self, state: GameState, player: str) -> tuple[str, ...]:
        """What a player holds: their hunch cards (those just drawn, then those kept) and the
        suspects they found."""
        return tuple(str(p) for p in (drawn_place(player), hunches_place(player), found_place(player))
                     if state.table.count(p))

    def cards_in_play(self, state: GameState) -> frozenset[str]:
        """Every card but the Case cards past the box's count (Game Setup 8) and the hunch cards left in the
        box for this number of players (Game Setup 7)."""
        assert isinstance(state, SuddsState)
        kept = {c for c, card in self.deck.cards.items() if card.kind not in ("case", "hunch")}
        return frozenset(kept | set(state.cases_in_play) | set(state.hunches_in_play))

    def simulator(self, initial: GameState, seed: int):
        from .sim import SuddsSimulator
        return SuddsSimulator(self, initial, seed)


def _summary(state: SuddsState) -> tuple:
    """What a move changed: the boards, the bullets on the board, the phase and what is pending."""
    return (tuple((p, sorted(b.to_json().items(), key=str), sorted(b.sources.items())) for p, b in state.boards.items()),
            state.board_bullets, state.phase, str(state.pending), state.round)
