"""Sounds follow what happens: a tick for a card read, a chime or a buzz for a verdict,
a fanfare or a sad tune at the end; none at all when the family switches them off."""

from __future__ import annotations

import wave

from desktop.sounds import NAMES, Sounds
from engine.paths import assets_dir

from .test_game_flow import DEAL, PLAYERS


def test_every_sound_file_is_a_short_wav():
    for name in NAMES:
        with wave.open(str(assets_dir() / "sounds" / f"{name}.wav")) as w:
            assert 0.03 < w.getnframes() / w.getframerate() < 1.5


def capture_sounds(window) -> list[str]:
    played: list[str] = []
    window.sounds.player = lambda path: played.append(path.stem)
    return played


def test_verdicts_and_the_end_have_their_sounds(table):
    t = table
    played = capture_sounds(t.window)
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.roll("loot")
    assert played == []                                     # an ordinary move is quiet
    t.peek("Julie/loot/top")
    t.end_turn()
    t.roll("loot")
    t.peek(sorted(t.legal_slots())[0])
    t.end_turn()
    t.roll("loot")
    t.peek(sorted(t.legal_slots())[0])
    t.end_turn()
    t.warrant("Julie/loot/top", "Mark/location/top")
    assert played == ["match"]
    t.flip_henchman("Amberley/henchman/bottom")             # Carmen, too early
    assert played == ["match", "lose"]


def test_a_failed_warrant_buzzes_and_switched_off_means_silence(table):
    t = table
    played = capture_sounds(t.window)
    t.new_game(PLAYERS)
    t.deal(DEAL)
    t.warrant("Julie/loot/top", "Julie/location/top")      # Gandhi's Glasses and London
    assert played == ["no-match"]
    t.window.start.sound.setChecked(False)
    t.click("action:decline_swap")                          # Amberley declines; her turn now
    t.warrant("Amberley/loot/top", "Mark/location/top")     # Pizarro's Sword and New Delhi: no match
    assert "No match" in t.banner
    assert played == ["no-match"]


def test_sounds_off_means_no_fallback_beep_either():
    beeps = []
    sounds = Sounds(enabled=lambda: False, player=lambda path: beeps.append(path), fallback=lambda: beeps.append("beep"))
    sounds.play("tick")
    assert beeps == []
    sounds.enabled = lambda: True
    sounds.player = None                     # a system with no audio player: Qt's beep instead
    sounds.play("win")
    assert beeps == ["beep"]
