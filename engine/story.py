"""The story of a finished game: where every card was, who knew what and since when.

Told only once the game is over (it names every private look). Any game works: the story
is read off the engine's own records, replaying the accepted actions and watching each
player's knowledge grow. Cards nobody ever saw can be revealed after the game (flipped in
front of the camera or picked), which completes the picture without changing the game.

>>> from engine.session import Session
>>> s = Session.new("carmen-cards", ["Ann", "Bob"])
>>> sim = s.rules.simulator(s.initial, 7)
>>> _ = sim.play(s, 3000)
>>> story = tell(s)
>>> story.verdict == s.outcome.reason
True
>>> sorted(story.timelines) == ["Ann", "Bob"]
True
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Mapping

from .errors import BadInput
from .game import Assist, Deduction, GameState
from .knowledge import REFEREE


@dataclass(frozen=True)
class Learned:
    """One thing a player came to know: at which move, which card, where it lay then."""

    move: int                  # 1 = the first action of the game
    card: str
    name: str
    where: str                 # where it lay when it was seen, as that player would say it


@dataclass(frozen=True)
class CardFate:
    """Where a card ended the game, and who knew it by then."""

    card: str | None           # None: nobody ever saw it (and it was not revealed afterwards)
    name: str
    place: str
    known_by: tuple[str, ...]


@dataclass(frozen=True)
class Story:
    verdict: str
    winners: tuple[str, ...]
    cards: tuple[CardFate, ...]
    timelines: Mapping[str, tuple[Learned, ...]]
    conclusions: Mapping[str, tuple[Deduction, ...]] = field(default_factory=dict)
    #: places of single cards still unknown to everyone (to flip after the game; piles are left)
    unknown_places: tuple[str, ...] = ()
    #: (player, points), highest first (seat order between equals); empty for a game without points
    scores: tuple[tuple[str, int], ...] = ()


def tell(session: Any, revealed: Mapping[str, str] | None = None) -> Story:
    """The story of ``session``'s finished game; ``revealed``: place -> card flipped afterwards."""
    if session.outcome is None:
        raise BadInput("The story is told only when the game is over.")
    revealed = dict(revealed or {})
    rules, players = session.rules, session.players
    deck = rules.deck
    timelines: dict[str, list[Learned]] = {p: [] for p in players}
    state: GameState = session.initial
    known = {p: dict(state.knowledge[p].known) for p in players}
    for move, action in enumerate(session.done, 1):
        new = state.clone()
        rules.apply(new, action)
        for p in players:
            now = new.knowledge[p].known
            for token, card in now.items():
                if known[p].get(token) != card:
                    # Where it lay when it was seen (a flipped pair then leaves the table).
                    before = token in state.table.tokens
                    where = str((state if before else new).table.place_of(token))
                    timelines[p].append(Learned(move, card, deck.name_of(card),
                                                rules.place_words(state if before else new, where)))
            known[p] = dict(now)
        state = new
    final = session.state
    ref = final.knowledge[REFEREE]
    fates, unknown = [], []
    for token in sorted(final.table.tokens, key=lambda t: str(final.table.place_of(t))):
        where = final.table.place_of(token)
        place = str(where)
        card = ref.known.get(token) or revealed.get(place)
        if card is None and final.table.count(where) > 1:
            continue          # an unseen card in a pile: nothing to tell, nothing to flip one by one
        if card is None:
            unknown.append(place)
        knew = tuple(p for p in players if final.knowledge[p].known.get(token) == card and card is not None)
        fates.append(CardFate(card, deck.name_of(card) if card else "never seen", rules.place_words(final, place),
                              knew))
    conclusions = {p: tuple(rules.journal(final, p, Assist.FULL).deductions) for p in players}
    points = rules.final_scores(final) or {}
    scores = tuple(sorted(((p, points[p]) for p in players if p in points), key=lambda ps: -ps[1]))
    return Story(session.outcome.reason, tuple(session.outcome.winners), tuple(fates),
                 {p: tuple(t) for p, t in timelines.items()}, conclusions, tuple(unknown), scores)
