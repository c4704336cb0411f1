"""phones: each player's phone as their private screen (issue 22). Never Qt; depends on engine and vision.

A small web server on the laptop's home network serves one page per player, reached by a link
with a secret (a QR code on the laptop). The page shows that player's Evidence Journal live and
asks that player's private questions (a peek, a card drawn): answered by picking the card from a
list or by photographing it (the photo is read here by ``vision``, in memory).

Threads: the server runs its own asyncio loop in its own thread and never touches the engine's
``Session``. The desktop builds each player's snapshot (:func:`player_snapshot`) from that
player's own view after every change and hands it over (:meth:`PhoneServer.publish`); answers
come back through a callback the desktop runs on its own thread. See docs/phones.md.
"""

from phones.links import PlayerLinks
from phones.questions import AnswerRefused, PhoneQuestion, ReadSpec
from phones.snapshot import player_snapshot

__all__ = ["AnswerRefused", "PhoneQuestion", "PlayerLinks", "ReadSpec", "player_snapshot"]
