"""What one player's phone shows, built only from that player's own view of the game.

:func:`player_snapshot` reads ``Session.journal(player)``, ``Session.log_for(player)`` and the
public words of the table (whose turn, the prompt, the outcome): never the referee's knowledge,
never another player's journal. It is called on the desktop's thread (the session is not
thread-safe); the JSON it returns is all the server ever sends to that player.
"""

from __future__ import annotations

from typing import Any

from engine.game import Assist
from engine.session import Session

from phones.questions import PhoneQuestion

#: the newest lines of the player's log the page shows
LOG_LINES = 40


def player_snapshot(session: Session, player: str, assist: Assist | str,
                    question: PhoneQuestion | None = None, hand: str | None = None) -> dict[str, Any]:
    """``player``'s page: their journal (cards by type, then what was worked out, with reasons),
    the newest lines of what they saw happen, whose turn it is, their open question, and the words
    the rules give this player alone now (``Rules.private_note``: the answer on the card they read).
    ``hand``: on a demo's simulated table, what this player really holds, in words (the desktop's
    simulator knows it; a real player sees their own hand): shown above their journal."""
    journal = session.journal(player, assist)
    deck = session.rules.deck
    groups = []
    for kind, info in deck.kinds.items():
        entries = [{"name": e.name, "where": e.where, "known": e.where != "Unknown"}
                   for e in journal.entries if e.kind == kind]
        if entries:
            groups.append({"kind": info.name, "entries": entries})
    outcome = session.outcome
    prompt = session.prompt()
    if outcome is not None:
        turn = "Game over"
    elif prompt.player and prompt.player != session.current:
        turn = f"{session.current}'s turn \u2014 {prompt.player} to act"
    else:
        turn = f"{session.current}'s turn"
    return {
        "game": session.rules.title,
        "player": player,
        "turn": turn,
        "prompt": prompt.text if outcome is None else outcome.reason,
        "journal": {
            "title": f"{player}'s Evidence Journal",
            "assist": journal.assist.value,
            "groups": groups,
            "deductions": [{"text": d.text, "reason": d.reason} for d in journal.deductions],
        },
        "hand": hand,
        # words for this player alone now (the answer on the question card they read out)
        "note": session.rules.private_note(session.state, player) if outcome is None else None,
        "log": session.log_for(player)[-LOG_LINES:],
        "question": question.to_json() if question is not None and question.player == player else None,
    }
