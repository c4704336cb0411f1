"""Face -> engine action, and the reasons a roll is ignored."""

from __future__ import annotations

import pytest

from desktop.die.mapping import explain_roll, face_label, roll_action_for
from engine.session import Session


@pytest.fixture
def session():
    return Session.new("carmen-cards", ["Julie", "Mark"], {"ages": {"Julie": 8, "Mark": 12}})


@pytest.mark.parametrize("face,symbol", [(1, "loot"), (2, "location"), (3, "henchman"), (4, "loot"),
                                         (5, "location"), (6, "henchman")])
def test_faces_map_through_the_die_data(session, face, symbol):
    assert face_label(session, face)[0] == symbol
    assert roll_action_for(session, None, face) == {"type": "roll", "player": "Julie", "face": face}


def test_the_action_is_what_the_engine_applies(session):
    events = session.apply(roll_action_for(session, "Julie", 3))
    assert [e.text for e in events][0] == "Julie rolled Henchman."


def test_a_face_the_die_does_not_have_is_ignored(session):
    decision = explain_roll(session, None, 7)
    assert decision.action is None and "has no face 7" in decision.reason


def test_a_roll_for_the_wrong_player_is_ignored(session):
    decision = explain_roll(session, "Mark", 1)
    assert decision.action is None and "Julie's turn" in decision.reason


def test_a_second_roll_in_a_turn_is_ignored_and_changes_nothing(session):
    session.apply(roll_action_for(session, None, 1))
    before = (len(session.done), session.prompt())
    assert roll_action_for(session, None, 1) is None
    assert "no roll is expected" in explain_roll(session, None, 1).reason
    assert (len(session.done), session.prompt()) == before
