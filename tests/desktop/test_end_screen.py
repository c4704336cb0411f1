"""Issue 10, "the end of a game tells the story": the verdict, then where every card was, what
each player knew and since when, what each journal concluded; cards nobody saw can be flipped."""

from __future__ import annotations

from PySide6.QtWidgets import QTableWidget

from .test_game_flow import game  # noqa: F401  (fixture)


def rows(t, name: str) -> list[list[str]]:
    tabs = t.window.end.tabs                    # the pages now on the end screen (old ones await deletion)
    table = next(tabs.widget(i) for i in range(tabs.count()) if tabs.widget(i).objectName() == name)
    assert isinstance(table, QTableWidget)
    return [[table.item(r, c).text() for c in range(table.columnCount())] for r in range(table.rowCount())]


def test_the_end_screen_tells_who_knew_what_and_lets_the_family_flip_the_rest(game):  # noqa: F811
    t = game
    t.warrant("Julie/loot/top", "Mark/location/top")           # Julie's move 1: flipped for all
    t.flip_henchman("Amberley/henchman/bottom")                # Carmen, too early: game over
    assert t.window.stack.currentWidget() is t.window.end
    assert t.text("end:verdict").startswith("Carmen was flipped too early")
    # Everyone learned the flipped pair at move 1, and it is written as a place, not a code.
    for player in ("Mark", "Julie", "Amberley"):
        learned = rows(t, f"end:timeline:{player}")
        assert ["move 1", "Gandhi's Glasses", "Julie's Top Loot card"] in learned
    cards = rows(t, "end:cards")
    assert ["Carmen Sandiego", "Amberley's Bottom Henchman card", "Mark, Julie, Amberley"] in cards
    assert not any("draw pile" in r[1] for r in cards if r[0] == "never seen")   # piles are not listed
    before = t.text("end:unknown")
    n = int(before.split()[0])
    t.click("end:reveal")                                      # flip the first unknown card
    place = t.window.entry.choosers[0].place
    t.choose("card", t.card_at(place))
    t.click("entry:submit")
    assert t.window.stack.currentWidget() is t.window.end
    assert t.text("end:unknown").startswith(f"{n - 1} card")
    assert [t.name(t.card_at(place)), t.session.rules.place_words(t.session.state, place), "nobody"] in rows(t, "end:cards")
    assert not t.window.end.scores.isVisible()                 # a game won without points: no score line


def test_a_game_with_points_ends_on_everyone_s_final_score(window, qtbot):
    """A family plays "start to final score": the end screen of a game that keeps points (The 39
    Clues: first to 39) names every player's score, highest first, as the engine counted them."""
    from tests.desktop.driver import open_demo_table, play_on

    t = open_demo_table(window, qtbot, "39-clues", ["Ann", "Bob", "Cyd"])
    for _ in play_on(window, 3000):
        pass
    session = window.controller.session
    assert session.outcome is not None
    qtbot.waitUntil(lambda: window.stack.currentWidget() is window.end)
    scores = session.rules.final_scores(session.state)
    line = t.text("end:scores")
    assert t.find("end:scores").isVisible()
    order = sorted(scores, key=lambda p: -scores[p])
    assert line.startswith(f"Final score: {order[0]} {scores[order[0]]} point")
    assert all(f"{p} {n} point" in line for p, n in scores.items())
    assert [line.index(f"{p} ") for p in order] == sorted(line.index(f"{p} ") for p in order)
