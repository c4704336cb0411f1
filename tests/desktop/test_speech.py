"""Issue 14 (and every game): the table can read aloud what it asks, through the system's voice;
off by default, a switch on the start screen; never a private screen's words."""

from __future__ import annotations

from desktop.speech import Speaker, voice_command

from .test_game_flow import PLAYERS


def test_each_system_has_its_voice_and_the_text_never_goes_through_a_shell():
    found = lambda name: f"/usr/bin/{name}"                                   # noqa: E731
    assert voice_command("Ann; rm -rf /", "darwin", found) == (["say", "Ann; rm -rf /"], None)
    command, stdin = voice_command("Ann's turn", "win32", found)
    assert command[0] == "powershell" and stdin == "Ann's turn" and "Ann" not in " ".join(command)
    assert voice_command("Ann", "linux", lambda n: "/usr/bin/espeak-ng" if n == "espeak-ng" else None) \
        == (["espeak-ng", "--", "Ann"], None)
    assert voice_command("Ann", "linux", lambda n: None) is None


def test_the_prompt_is_read_aloud_only_when_switched_on(table, monkeypatch):
    t = table
    heard: list[str] = []
    monkeypatch.setattr("desktop.speech.voice_command", lambda text: (["voice", text], None))
    t.window.table.speaker = Speaker(enabled=t.window.start.read_aloud.isChecked,
                                     run=lambda command, stdin: heard.append(command[1]))
    assert not t.window.start.read_aloud.isChecked()                         # off by default
    t.new_game(PLAYERS)
    assert heard == []
    t.click("leave")
    t.window.start.read_aloud.setChecked(True)
    t.new_game(PLAYERS)
    t.deal({})
    assert heard and heard[-1] == t.prompt                                   # "Julie, roll the die..."
    t.roll("loot")
    assert heard[-1] == "Julie, look at one of your own Loot cards: Top or Bottom."
    place = sorted(t.legal_slots())[0]
    t.click(f"slot:{place}")
    t.click("gate:reveal")                                                   # a private screen:
    before = list(heard)
    t.choose("card", t.card_at(place))
    assert heard == before                                                   # nothing private is read
