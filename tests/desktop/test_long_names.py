"""Issue 23: a family types the names it uses, up to the engine's 24 letters (engine/names.py).
Every table, with its fewest and its most players, shows such names without cutting any text at
1280x680 and 1366x768, through the opening and a stretch of play (names in the turn line, on
plates, in the prompt, in the recent events). A painted name may be wrapped or shortened with
"…" where its room is too small (the full name stays on the player's journal button), never cut.
"""

from __future__ import annotations

import os
import tempfile

import pytest

from .driver import open_demo_table, play_on
from .test_fit import clipped

#: long names as families write them, each at most 24 letters, the wide capitals included
LONG_NAMES = ["Bartholomew Montgomery-J", "MARGARET WOLLSTONECRAFT", "Alexandrina Wilhelmina F",
              "Maximilian Worthingtonne", "Wolfgang Mwangi-Wembley", "Henrietta Marlborough-Q"]
MOVES = 25
SIZES = [(1280, 680), (1366, 728)]


def _installed():
    from desktop.tables import installed_games
    return installed_games()


@pytest.mark.parametrize("size", SIZES, ids=lambda s: f"{s[0]}x{s[1]}")
@pytest.mark.parametrize("game", _installed())
def test_long_names_are_never_cut(window, qtbot, game, size):
    from engine.games import game_info
    from engine.names import MAX_PLAYER_NAME

    assert all(len(n) <= MAX_PLAYER_NAME for n in LONG_NAMES)
    info = game_info(game)
    problems: list[str] = []
    for count in sorted({min(info.players), max(info.players)}):
        options = {o.id: o.default for o in info.options}
        open_demo_table(window, qtbot, game, LONG_NAMES[:count], options)
        window.resize(*size)
        qtbot.wait(40)
        problems += [f"{count} players, opening: {p}" for p in clipped(window)]
        for move in play_on(window, MOVES):
            qtbot.wait(5)
            problems += [f"{count} players, move {move}: {p}" for p in clipped(window)]
        hint = window.minimumSizeHint()
        if hint.width() > size[0] or hint.height() > size[1]:
            problems.append(f"{count} players: the window needs {hint.width()}x{hint.height()}")
        window.leave_game()
    if os.environ.get("LONG_DUMP"):         # every problem written out, to work through them
        path = os.path.join(tempfile.gettempdir(), f"ln-{game}-{size[0]}.txt")
        with open(path, "w", encoding="utf-8") as out:
            out.write("\n".join(sorted(set(problems))))
    assert sorted(set(problems)) == []
