"""The end of a game with points names everyone's final score (the end screen's "Final score" line):
``Rules.final_scores`` and ``Story.scores``, for each game that keeps points, played to its end by the
simulated table.

- Bonnie and Clyde: the totals over the hands scored (rulebook "Scoring": the first to the target wins).
- The 39 Clues: the points of the stacks scored ("Winning the Game": the first to 39 points).
- Sudds & Malone: the points on each detective's board ("End of Game": the most points wins).
- The Carmen games are won without points: no score line.
"""

from __future__ import annotations

import pytest

from engine.session import Session
from engine.story import tell

PLAYERS = ("Ann", "Bob", "Cyd")


def finished(game: str, seed: int, most: int = 6000) -> Session:
    s = Session.new(game, list(PLAYERS), {})
    sim = s.rules.simulator(s.initial, seed)
    for _ in range(most):
        if s.outcome is not None:
            return s
        try:
            s.apply(sim.random_action(s))
        except Exception as exc:          # a refused simulated move: the simulator picks another
            if type(exc).__name__ not in ("RuleViolation",):
                raise
    raise AssertionError(f"{game} seed {seed}: no end in {most} moves")


@pytest.mark.parametrize("game", ["bonnie-clyde", "39-clues", "sudds-malone"])
def test_a_game_with_points_tells_every_player_s_final_score_highest_first(game):
    s = finished(game, seed=3)
    story = tell(s)
    points = s.rules.final_scores(s.state)
    assert set(points) == set(PLAYERS)
    assert dict(story.scores) == points
    assert [n for _, n in story.scores] == sorted(points.values(), reverse=True)
    # The winners have the best score (a tie broken by the rulebook may leave one of several).
    assert story.winners and all(points[w] == max(points.values()) for w in story.winners)


@pytest.mark.parametrize("game", ["carmen-cards", "carmen-usa"])
def test_a_game_won_without_points_has_no_score_line(game):
    s = Session.new(game, list(PLAYERS), {})
    assert s.rules.final_scores(s.state) is None
