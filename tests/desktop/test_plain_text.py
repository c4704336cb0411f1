"""Issue 11, defect 5: player and card names are shown as written, never as markup.

A player called ``<b>Ann & Co`` must read exactly so on every screen: labels are plain
text, buttons and titles keep the '&' (no keyboard-shortcut underline), tooltips are escaped.
"""

from __future__ import annotations

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QAbstractButton, QGroupBox, QLabel, QWidget

ODD = "<b>Ann & Co"        # no "/": a name may not hold one (it writes places)


def shown(root: QWidget) -> list[str]:
    """What a person reads on each visible widget, as Qt will draw it."""
    out = []
    for w in root.findChildren(QWidget):
        if not w.isVisible():
            continue
        if hasattr(w, "drawn_texts"):            # painted words (desktop/drawn) are drawn as written
            out += [t.text.replace("\n", " ") for t in w.drawn_texts()]
        elif isinstance(w, QLabel) and w.text():
            assert w.textFormat() == Qt.PlainText or "<" not in w.text(), f"rich label: {w.text()!r}"
            out.append(w.text())
        elif isinstance(w, QAbstractButton) and w.text():
            out.append(w.text().replace("&&", "\0").replace("&", "").replace("\0", "&"))
        elif isinstance(w, QGroupBox) and w.title():
            out.append(w.title().replace("&&", "\0").replace("&", "").replace("\0", "&"))
        if w.toolTip() and ODD.split()[0] in w.toolTip():
            assert w.toolTip().startswith("<p>") and "<b>" not in w.toolTip(), w.toolTip()
    return out


def test_a_player_name_with_markup_and_an_ampersand_reads_as_written(table):
    t = table
    t.new_game([(ODD, 8), ("Bob", 10)])
    texts = shown(t.window)
    assert any(text.startswith(f"{ODD}'s turn") for text in texts)          # the turn line
    assert any(ODD in text and "playing now" in text for text in texts)    # the board's frame
    assert ODD in texts                                                     # the journal button
    t.roll("loot")
    assert any(text.startswith(f"{ODD}, look at") for text in shown(t.window))
    place = sorted(t.legal_slots())[0]
    t.click(f"slot:{place}")                                                # the privacy gate
    gate = shown(t.window)
    assert f"Pass the laptop to {ODD} \u2014 everyone else look away." in gate
    assert f"I am {ODD} \u2014 show me" in gate
