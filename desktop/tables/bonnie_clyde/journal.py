"""A player's Evidence Journal for Bonnie and Clyde, as a detective's notebook in the game's words.

Two tables on the shell's notebook page (``desktop.private``): one row per location of the road
(its number and name, where its six Evidence cards are as far as the player knows, alike places
counted, and what lies under it), then the Outlaws and the Ted Hinton cards (the fifteen alike
cards counted by where they are). Every word is the engine's (``engine/games/bonnie_clyde/
journal.py``): the place words of the journal's lines, the location lines of what was worked out.
A card's own id (the tag printed for the camera) is never shown: six Kaufman cards are alike to a
player, so the notebook counts them.
"""

from __future__ import annotations

from PySide6.QtWidgets import QHBoxLayout, QWidget

from engine.game import Journal, JournalEntry

from ...card_entry import counted_names
from ...private import journal_table

UNKNOWN = "Unknown"


def _where(entry: JournalEntry) -> str:
    """Where a card lies, in its own location's row: "Ann's table, sideways" (the location's name
    is the row's), else the journal's words ("FBI Files", "Bob's hand", "Under Sherman, Texas (2)")."""
    parts = (entry.place or "").split("/")
    if len(parts) == 3 and parts[1] in ("played", "sideways"):
        return f"{parts[0]}'s table" + (", sideways" if parts[1] == "sideways" else "")
    return entry.where


def counted_places(entries: list[JournalEntry], where=_where) -> str:
    """Where some alike cards are, alike places counted, the unknown ones last:
    "Ann's table, sideways ×3; FBI Files; 2 not seen yet"."""
    known = [where(e) for e in entries if e.where != UNKNOWN]
    unseen = len(entries) - len(known)
    words = counted_names(known)
    if unseen:
        words += ("; " if words else "") + (f"{unseen} not seen yet" if known or unseen > 1 else "not seen yet")
    return words


def location_rows(journal: Journal, names: dict[int, str], location_of: dict[str, int]) -> list[list[str]]:
    """One row per location: "1 Kaufman, Texas", where its Evidence cards are, what lies under it."""
    under: dict[int, str] = {}
    for d in journal.deductions:
        if d.kind == "location":
            n = d.data["location"]
            head = f"{names[n]} ({n}): "
            words = d.text[len(head):] if d.text.startswith(head) else d.text
            under[n] = words[:1].upper() + words[1:]
    by_location: dict[int, list[JournalEntry]] = {n: [] for n in names}
    for e in journal.entries:
        if e.kind == "evidence":
            by_location[location_of[e.card]].append(e)
    return [[f"{n} {names[n]}", counted_places(by_location[n]), under.get(n, "Not dealt yet.")] for n in names]


def other_rows(journal: Journal) -> list[list[str]]:
    """Bonnie and Clyde by name; the Ted Hinton cards counted by where they are ("Ted Hinton ×3")."""
    rows = [[e.name, e.where] for e in journal.entries if e.kind == "outlaw"]
    groups: dict[str, list[JournalEntry]] = {}
    for e in journal.entries:
        if e.kind == "hinton":
            groups.setdefault(e.where, []).append(e)
    for where in sorted(groups, key=lambda w: (w == UNKNOWN, w)):
        cards = groups[where]
        rows.append([cards[0].name + (f" \u00d7{len(cards)}" if len(cards) > 1 else ""), where])
    return rows


def notebook(journal: Journal, names: dict[int, str], location_of: dict[str, int],
             kind_names: dict[str, str]) -> QWidget:
    """The journal's tables: the locations (``journal:locations``), then the Outlaws and Ted
    Hinton (``journal:others``)."""
    body = QWidget()
    row = QHBoxLayout(body)
    row.setContentsMargins(0, 0, 0, 0)
    table = journal_table(["Location", f"Its {kind_names['evidence']} cards", "Under it"],
                          location_rows(journal, names, location_of))
    table.setObjectName("journal:locations")
    row.addWidget(table, 3)
    table = journal_table(["Card", "Where"], other_rows(journal))
    table.setObjectName("journal:others")
    row.addWidget(table, 1)
    return body
