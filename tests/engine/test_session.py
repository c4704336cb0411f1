"""Session: undo/redo by replay, what each audience sees, saving and resuming."""

from __future__ import annotations

import pytest

from engine.errors import BadInput, RuleViolation
from engine.session import Session
from engine.store import StoreCorrupted, StoreError

from .carmen_table import Table, pair_deal


def test_undo_takes_back_the_last_action_and_redo_reapplies_it():
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.roll("Ann", "loot")
    before = t.snapshot()
    t.peek("Ann", "Ann/loot/top")
    after = t.snapshot()
    assert t.s.undo() == "Ann looked at their own Top Loot card"
    assert t.snapshot() == before
    assert t.where("Ann", "gandhis-glasses") == "Unknown"
    assert t.s.redo_history() == ["Ann looked at their own Top Loot card"]
    t.s.redo()
    assert t.snapshot() == after


def test_a_new_action_clears_redo_and_nothing_to_undo_is_refused():
    t = Table(["Ann", "Bob"])
    with pytest.raises(RuleViolation, match="nothing to undo"):
        t.s.undo()
    t.roll("Ann", "loot")
    t.s.undo()
    t.roll("Ann", "henchman")
    assert t.s.redo_history() == []
    with pytest.raises(RuleViolation, match="nothing to redo"):
        t.s.redo()


def test_undo_history_and_public_log_never_hold_a_private_card():
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.s.undo()                                  # the undone peek sits in the redo list
    shared = t.s.public_log() + t.s.undo_history() + t.s.redo_history() + list(t.s.view(None).log)
    assert not any("Gandhi" in line for line in shared)
    assert all(c.name is None for c in t.s.view("Bob").cards if not c.face_up)


def test_views_show_only_what_each_player_may_see():
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses"})
    t.turn("Ann", "loot", "Ann/loot/top")
    ann = {c.place: c.name for c in t.s.view("Ann").cards}
    bob = {c.place: c.name for c in t.s.view("Bob").cards}
    shared = {c.place: c.name for c in t.s.view(None).cards}
    assert ann["Ann/loot/top"] == "Gandhi's Glasses"
    assert bob["Ann/loot/top"] is None and shared["Ann/loot/top"] is None


def test_malformed_actions_are_refused_clearly():
    t = Table(["Ann", "Bob"])
    with pytest.raises(BadInput, match="Unknown action 'fly'"):
        t.s.apply({"type": "fly", "player": "Ann"})
    with pytest.raises(BadInput, match="missing: face"):
        t.s.apply({"type": "roll", "player": "Ann"})
    with pytest.raises(BadInput, match="unknown field"):
        t.s.apply({"type": "roll", "player": "Ann", "face": 1, "cheat": True})
    assert t.s.done == []
    t.roll("Ann", "loot")
    with pytest.raises(BadInput, match="is not a place"):
        t.s.apply({"type": "peek", "player": "Ann", "slot": "Nobody/loot/top", "card": "carmen.loot.hudson-bay"})
    assert len(t.s.done) == 1


def test_resume_replays_to_the_identical_state(tmp_path):
    path = tmp_path / "game.gumshoe"
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]), path=path)
    t.turn("Ann", "loot", "Ann/loot/top")
    t.turn("Bob", "henchman", "Bob/henchman/top")
    t.roll("Ann", "location")
    t.s.undo()
    t.s.redo()
    t.s.undo()
    t.roll("Ann", "henchman")
    live = t.snapshot()
    journals = {p: t.s.journal(p) for p in t.s.players}
    t.s.close()
    resumed = Session.resume(path)
    assert (resumed.view(None), {p: resumed.view(p) for p in resumed.players}) == live
    assert {p: resumed.journal(p) for p in resumed.players} == journals
    assert resumed.prompt() == t.s.prompt()
    # ...and it keeps saving: a further action is there after another resume.
    resumed.apply({"type": "peek", "player": "Ann", "slot": "Ann/henchman/top", "card": t.card("Ann/henchman/top")})
    resumed.close()
    again = Session.resume(path)
    assert again.journal("Ann").where("carmen.henchman.yul-b-sorry") == "Ann / Top"


def test_refused_actions_are_not_saved(tmp_path):
    path = tmp_path / "game.gumshoe"
    t = Table(["Ann", "Bob"], path=path)
    with pytest.raises(RuleViolation):
        t.s.apply({"type": "roll", "player": "Bob", "face": 1})
    t.s.close()
    assert Session.resume(path).done == []


def test_bad_setup_makes_no_file(tmp_path):
    path = tmp_path / "game.gumshoe"
    with pytest.raises(RuleViolation):
        Session.new("carmen-cards", ["Solo"], path=path)
    assert not path.exists()


def test_corrupted_save_gives_a_clear_error_and_is_left_alone(tmp_path):
    path = tmp_path / "game.gumshoe"
    path.write_bytes(b"this is not a saved game" * 50)
    before = path.read_bytes()
    with pytest.raises(StoreCorrupted) as info:
        Session.resume(path)
    assert "game.gumshoe" in str(info.value)
    assert path.read_bytes() == before


def test_unknown_game_in_a_save_is_a_clear_error(tmp_path):
    from engine.store import EventStore
    path = tmp_path / "game.gumshoe"
    EventStore.create(path, {"game": "chess", "players": ["Ann", "Bob"]}).close()
    with pytest.raises(ValueError, match="Unknown game 'chess'"):
        Session.resume(path)
    assert issubclass(StoreCorrupted, StoreError)


def test_shared_screen_names_a_face_down_card_only_if_everyone_saw_it():
    t = Table(["Ann", "Bob"], deal={"Ann/loot/top": "gandhis-glasses", "Bob/location/top": "lima",
                                    "Bob/loot/top": "hudson-bay"})
    t.turn("Ann", "loot", "Ann/loot/top")
    t.roll("Bob", "loot")
    t.peek("Bob", "Bob/loot/top")
    t.end("Bob")
    t.roll("Ann", "loot")
    t.peek("Ann", "Ann/loot/center")
    t.end("Ann")
    t.roll("Bob", "loot")
    shared = {c.place: c.name for c in t.s.view(None).cards}
    assert shared["Ann/loot/top"] is None and shared["Bob/loot/top"] is None     # private looks only
    t.s.undo()
    t.warrant("Bob", "Ann/loot/top", "Bob/location/top")                        # no match: shown to all
    shared = {c.place: (c.name, c.face_up) for c in t.s.view(None).cards}
    assert shared["Ann/loot/top"] == ("Gandhi's Glasses", False)
    assert shared["Bob/location/top"] == ("Lima", False)


def test_preview_replays_a_saved_game_without_touching_its_file(tmp_path):
    import hashlib
    path = tmp_path / "game.gumshoe"
    t = Table(["Ann", "Bob"], deal=pair_deal(["Ann", "Bob"]), path=path)
    t.warrant("Ann", "Ann/loot/top", "Bob/location/top")
    t.flip("Ann", "Bob/henchman/top")                      # Carmen too early: the game is over
    t.s.close()
    before = hashlib.sha256(path.read_bytes()).hexdigest()
    seen = Session.preview(path)
    assert seen.outcome is not None and seen.outcome.winners == ()
    assert seen.store is None
    assert hashlib.sha256(path.read_bytes()).hexdigest() == before
