"""Where in the USA is Carmen Sandiego: the 24 Landmark Boxes on a drawn map of the USA, the
agents' pieces on it, the question card, and the Catch Carmen finale with its countdown ring.

Drawn from the engine's shared view (and the public facts of the game: the question being read,
where the pieces stand). The map is our own drawing: a grid of tiles over the outline of the
country, each landmark on the tile nearest to where it lies (``assets/boards/carmen-usa-map.toml``).
Clicks on highlighted landmarks and states go to the shell's action flow
(``desktop/table_base.py``). The table takes over reading a question (the next card is drawn at
random from those not read yet) and shows it as a large card whose choices an agent may tap. A
piece that moves is seen moving from one landmark to the other. In the finale it runs the big
countdown; when it reaches zero it sends "time ran out".
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Mapping

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer, Signal
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.games.carmen_usa.data import CHOICES_PER_QUESTION
from engine.paths import assets_dir, read_toml
from engine.session import PlayerView

from .. import style
from ..drawn import Clickable, DrawnCard, Piece, FlightLayer, MotionQueue, PlayerName, Step, player_colours
from ..drawn import paint as pt
from ..drawn import text as txt
from ..drawn.palette import named_colour, readable_ink
from ..private import journal_table
from ..table_base import GameTable, TableShell
from ..widgets import label, plain_tip

MAP_FILE = Path("boards") / "carmen-usa-map.toml"
KIND_INDEX = {"warrant": 0, "loot": 1, "crook": 2}
BACK = "#A8392B"             # a face-down Clue Card, the Carmen logo up: the box's red
SEA, LAND, SHORE = "#D3E6F2", "#EFE5C8", "#9C9276"
PLACED = "#BFE3C9"           # a state with its capital token on it
TOKEN = "#E8C15A"            # a Capital Token's back
LABEL_PX = 34                # a landmark's name on a roomy screen; smaller (never below 15 px) on a small one


class MapDataError(ValueError):
    """The map layout file is malformed (the message names the file)."""


@dataclass(frozen=True)
class MapLayout:
    """Where the map puts things, in tiles of a grid ``columns`` x ``rows`` (from the top left)."""

    columns: int
    rows: int
    frame: tuple[float, float, float, float]          # west, east, north, south of the outline
    tiles: Mapping[str, tuple[float, float]]          # landmark -> (column, row)
    insets: tuple[str, ...]                           # landmarks boxed apart from the outline
    pile: tuple[float, float, float, float]           # the question pile: column, row, width, height
    card: tuple[float, float, float, float]           # the question card while a question is read
    labels: Mapping[str, tuple[str, str]]             # landmark -> (the name it shortens, the label)
    outline: tuple[tuple[float, float], ...]          # (longitude, latitude) of the 48 states' outline

    def label(self, landmark: str, name: str) -> str:
        """The landmark's words on the map: the shorter label while the name is the one it shortens."""
        shortens, words = self.labels.get(landmark, ("", ""))
        return words if shortens == name else name

    def project(self, lon: float, lat: float) -> tuple[float, float]:
        """Where a longitude and latitude fall on the grid (in tiles, from the top left)."""
        west, east, north, south = self.frame
        return (lon - west) / (east - west) * self.columns, (north - lat) / (north - south) * self.rows


def _box(value, path: Path, what: str) -> tuple[float, float, float, float]:
    if not (isinstance(value, list) and len(value) == 4 and all(isinstance(v, (int, float)) for v in value)):
        raise MapDataError(f"{path}: {what} must be [column, row, columns wide, rows high]")
    return tuple(float(v) for v in value)        # type: ignore[return-value]


def load_map(landmarks: Iterable[str], path: Path | None = None) -> MapLayout:
    """The map layout for these landmark ids, checked: every landmark on a tile of its own, inside
    the grid, none under the question pile."""
    path = path or assets_dir() / MAP_FILE
    raw = read_toml(path, MapDataError)
    try:
        columns, rows = int(raw["grid"]["columns"]), int(raw["grid"]["rows"])
        f = raw["frame"]
        frame = (float(f["west"]), float(f["east"]), float(f["north"]), float(f["south"]))
        tiles = {str(k): (float(v[0]), float(v[1])) for k, v in raw["tiles"].items()}
        outline = tuple((float(lon), float(lat)) for lon, lat in raw["outline"]["points"])
        labels = {str(item["landmark"]): (str(item["name"]), str(item["label"])) for item in raw.get("labels", [])}
    except (KeyError, TypeError, ValueError, IndexError) as exc:
        raise MapDataError(f"{path}: a missing or malformed entry ({exc})") from None
    pile = _box(raw.get("pile", {}).get("at"), path, "[pile] at")
    card = _box(raw.get("card", {}).get("at"), path, "[card] at")
    insets = tuple(str(x) for x in raw.get("insets", {}).get("landmarks", []))
    wanted = set(landmarks)
    if set(tiles) != wanted:
        missing, unknown = sorted(wanted - set(tiles)), sorted(set(tiles) - wanted)
        raise MapDataError(f"{path}: [tiles] must place every landmark once (missing: {', '.join(missing) or 'none'};"
                           f" not a landmark: {', '.join(unknown) or 'none'})")
    spots = list(tiles.items()) + [("the question pile", (pile[0], pile[1]))]
    for i, (a, (ca, ra)) in enumerate(spots):
        wide, high = (pile[2], pile[3]) if a == "the question pile" else (1.0, 1.0)
        if not (0 <= ca and ca + wide <= columns and 0 <= ra and ra + high <= rows):
            raise MapDataError(f"{path}: {a} lies off the {columns} x {rows} grid")
        for b, (cb, rb) in spots[i + 1:]:
            bw, bh = (pile[2], pile[3]) if b == "the question pile" else (1.0, 1.0)
            if ca < cb + bw and cb < ca + wide and ra < rb + bh and rb < ra + high:
                raise MapDataError(f"{path}: {a} and {b} lie on the same tile")
    if len(outline) < 3 or set(insets) - wanted or set(labels) - wanted:
        raise MapDataError(f"{path}: the outline needs 3 points or more; insets and labels name landmarks")
    return MapLayout(columns, rows, frame, tiles, insets, pile, card, labels, outline)


def _fit_lines(text: str, width: float, height: float, largest: int, *, bold: bool, family: str = "",
               max_lines: int = 3) -> tuple[int, tuple[str, ...], bool]:
    return txt.fit(text, int(width), int(height), largest, bold=bold, family=family, max_lines=max_lines)


def _draw(p: QPainter, drawn: txt.DrawnText, *, bold: bool, ink: str, family: str = "",
          align: Qt.AlignmentFlag = Qt.AlignHCenter) -> None:
    p.setPen(QColor(ink))
    txt.draw_lines(p, drawn.rect, tuple(drawn.text.split("\n")), drawn.px, bold=bold, align=align, family=family)


# --- the board: landmarks on a map ------------------------------------------------------------
class LandmarkTile(Piece):
    """One landmark and its Landmark Box, drawn as the card lying on it: face down (the red back),
    face up (its colour and its type's symbol, its name in words), or an empty box; the agents'
    pieces standing there. A click chooses the landmark (a move, a piece placed) or its box (a
    look, a call), whichever is legal now."""

    GAP = 2           # the map draws a legal tile's halo in the gaps between tiles
    PAD = 3

    def __init__(self, landmark: str, name: str, words: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.landmark = self.place = landmark
        self.name, self.words = name, words            # its full name, and its words on the map
        self.setObjectName(f"slot:{landmark}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.legal = self.chosen = False
        self.card: str | None = None                   # the card's name, when everyone may see it
        self.face_up = False
        self.present = True
        self.colour = BACK
        self.symbol = ""
        self.status = ""                               # the words under the name: the card seen, an empty box
        self.pieces: list[tuple[str, str]] = []        # (agent, colour) standing here, in seating order
        self.arriving: set[str] = set()                # agents whose piece is on its way here
        #: the largest size for the name: the map gives every tile the same, so the names read alike
        self.largest = LABEL_PX
        self.align = Qt.AlignHCenter
        self._layout: tuple | None = None

    def set_largest(self, px: int) -> None:
        if px != self.largest:
            self.largest = px
            self._layout = None
            self.update()

    def name_room(self) -> QRectF:
        return self.card_rect().adjusted(self.PAD + 1, self.PAD, -self.PAD - 1, -self.PAD)

    def best_size(self) -> int:
        """The largest size at which the name alone fills the tile."""
        room = self.name_room()
        return _fit_lines(self.words, room.width(), room.height(), LABEL_PX, bold=True,
                          family=txt.narrow_family())[0]

    def show_box(self, *, card: str | None, face_up: bool, present: bool, colour: str, symbol: str,
                 pieces: list[tuple[str, str]], legal_place: str | None, chosen: bool) -> None:
        self.place = legal_place or self.landmark
        short = (card or "").split(":")[0]             # "Orange Warrant" (a Crook's name is on the card)
        # A card everyone saw that lies face down again keeps its name under the landmark's (the
        # tile shows its back: face down is told by the back's weave, not by colour).
        status = "empty box" if not present else short if card else ""
        state = (card, face_up, present, colour, symbol, status, pieces, legal_place is not None, chosen)
        if state == (self.card, self.face_up, self.present, self.colour, self.symbol, self.status, self.pieces,
                     self.legal, self.chosen):
            return
        (self.card, self.face_up, self.present, self.colour, self.symbol, self.status, self.pieces,
         self.legal, self.chosen) = state
        self._layout = None
        who = ", ".join(agent for agent, _ in pieces)
        mark = ", can be chosen" if self.legal else ", chosen" if chosen else ""
        self.setAccessibleName(f"{self.name}: {status or 'face down'}" + (f"; here: {who}" if who else "") + mark)
        self.setToolTip(plain_tip(f"{self.name}: {card}" if card else self.name))
        self.update()

    def text(self) -> str:
        """The tile's words as a button's text would be: name, the card seen, who stands here."""
        who = ", ".join(agent for agent, _ in self.pieces)
        return " ".join(part for part in (self.name, self.status, f"\u25CF {who}" if who else "") if part)

    # --- movements ----------------------------------------------------------------------
    def hold_piece(self, agent: str) -> None:
        self.arriving.add(agent)
        self.update()

    def land_piece(self, agent: str) -> None:
        self.arriving.discard(agent)
        self.update()

    # --- layout -------------------------------------------------------------------------
    def card_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(self.GAP, self.GAP, -self.GAP, -self.GAP)

    def _pawn_size(self, room: QRectF) -> QSize:
        h = int(min(max(room.height() * 0.36, 24), 40))
        return QSize(int(h * 0.75), h)

    def layout(self) -> tuple[list[txt.DrawnText], list[QRectF]]:
        """The name (the legal choice's words), the words under it, and a rectangle per piece.

        With pieces here the name keeps its size: it moves to the left and the pieces stand at the
        right of its last line (or of the words under it, or of its first line); only when none
        leaves room do they get a line of their own and the name makes way."""
        if self._layout is not None:
            return self._layout
        room = self.name_room()
        family = txt.narrow_family()
        pawn = self._pawn_size(room)
        step = pawn.width() * (0.7 if len(self.pieces) <= 2 else 0.45)     # many agents: closer together
        pawns_w = pawn.width() + step * (len(self.pieces) - 1) if self.pieces else 0.0
        self.align = Qt.AlignLeft if self.pieces else Qt.AlignHCenter

        def fit_name(height: float) -> tuple[int, tuple[str, ...], bool, int]:
            px, lines, fits = _fit_lines(self.words, room.width(), height, self.largest, bold=True, family=family)
            return px, lines, fits, len(lines) * txt.line_height(px, True, family)

        status = None
        bottom = 0
        if self.status:
            # Small beside the name (the legal choice's words), larger on a roomy screen.
            largest = min(max(int(room.height() * 0.2), txt.LEAST_PX), 22)
            spx, slines, sfits = _fit_lines(self.status, room.width(), room.height() / 2, largest, bold=False,
                                            family=family, max_lines=2)
            status = (spx, slines, sfits)
            bottom = len(slines) * txt.line_height(spx, False, family)
        px, lines, fits, name_h = fit_name(room.height() - bottom)
        top = room.top() + max(room.height() - bottom - name_h, 0) / 2

        def widths(size: int, rows: tuple[str, ...], bold: bool) -> list[int]:
            metrics = QFontMetrics(txt.font(size, bold, QFont(family)))
            return [metrics.horizontalAdvance(row) for row in rows]

        rects: list[QRectF] = []
        if self.pieces:
            line_h = txt.line_height(px, True, family)
            spots = []                          # (free width, the bottom of the line) where they may stand
            if status:
                spx, slines, _ = status
                spots.append((room.width() - widths(spx, slines, False)[-1], room.bottom()))
            name_w = widths(px, lines, True)
            spots.append((room.width() - name_w[-1], top + name_h))
            spots.append((room.width() - name_w[0], top + line_h))
            spot = next((base for free, base in spots if free >= pawns_w + 6), None)
            if spot is None:                    # a line of their own under the name
                smaller = fit_name(room.height() - bottom - pawn.height())
                if smaller[2]:
                    px, lines, fits, name_h = smaller
                    top = room.top() + max(room.height() - bottom - pawn.height() - name_h, 0) / 2
                    spot = top + name_h + pawn.height()
                else:                           # no room at all: they stand over the name's corner
                    spot = room.bottom()
            y = min(spot, room.bottom()) - pawn.height()
            x = room.right() - pawns_w
            rects = [QRectF(x + i * step, y, pawn.width(), pawn.height()) for i in range(len(self.pieces))]
        texts = [txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(top), int(room.width()), name_h),
                               fits, key=True)]
        if status:
            spx, slines, sfits = status
            sh = len(slines) * txt.line_height(spx, False, family)
            texts.append(txt.DrawnText("\n".join(slines), spx, QRect(int(room.left()), int(room.bottom() - sh),
                                                                      int(room.width()), sh), sfits))
        self._layout = (texts, rects)
        return self._layout

    def pawn_rect(self, agent: str) -> QRectF:
        """Where ``agent``'s piece stands on this tile (its middle when the agent is not here)."""
        _, rects = self.layout()
        for (who, _), rect in zip(self.pieces, rects):
            if who == agent:
                return rect
        room = self.card_rect()
        size = self._pawn_size(room)
        return QRectF(room.center().x() - size.width() / 2, room.center().y() - size.height() / 2,
                      size.width(), size.height())

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self.layout()[0]

    def resizeEvent(self, event) -> None:
        self._layout = None
        super().resizeEvent(event)

    def sizeHint(self) -> QSize:
        return QSize(120, 80)

    def minimumSizeHint(self) -> QSize:
        return QSize(40, 30)

    # --- painting -----------------------------------------------------------------------
    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        card = self.card_rect()
        named = bool(self.card) and self.face_up
        if not self.present:
            p.setPen(QPen(QColor(pt.EMPTY), 2, Qt.DashLine))
            p.setBrush(QColor("#F7F3EA"))
            p.drawRoundedRect(card, 8, 8)
            ink = "#333333"
        elif named:
            pt.paint_face(p, card, pt.CardLook(caption=self.name, colour=self.colour, symbol=self.symbol,
                                               name=self.card, face_up=True))
            ink = style.INK
        else:
            pt.paint_back(p, card, BACK)
            ink = readable_ink(BACK)
        texts, rects = self.layout()
        family = txt.narrow_family()
        _draw(p, texts[0], bold=True, ink=ink, family=family, align=self.align)
        for drawn in texts[1:]:
            _draw(p, drawn, bold=False, ink=ink, family=family, align=Qt.AlignLeft)
        for (agent, colour), rect in zip(self.pieces, rects):
            if agent not in self.arriving:
                pt.paint_piece(p, rect, colour, agent)
        if self.legal and not self.chosen:
            # Besides the halo the map draws around it: a blue edge and an arrow (not colour alone).
            pt.paint_legal_edge(p, card)
        pt.paint_chosen_and_focus(p, card, chosen=self.chosen, focused=self.hasFocus(), radius=8)
        p.end()


class ChoiceButton(Clickable):
    """One of a question's three choices on the question card: its letter and its words."""

    def __init__(self, index: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.index = index
        self.letter = chr(ord("A") + index)
        self.words = ""
        self.legal = False               # an agent may tap it now
        self.setObjectName(f"usa:choice{index}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)

    def set_words(self, words: str, legal: bool) -> None:
        if (words, legal) != (self.words, self.legal):
            self.words, self.legal = words, legal
            self.setAccessibleName(self.text())
            self.setEnabled(legal)
            self.update()

    def text(self) -> str:
        return f"{self.letter}: {self.words}"

    def _texts(self) -> list[txt.DrawnText]:
        h = self.height()
        disc = QRect(6, 5, h - 10, h - 10)
        room = QRect(h + 6, 2, self.width() - h - 14, h - 4)
        px, lines, fits = txt.fit(self.words, room.width(), room.height(), 30, bold=True, max_lines=2)
        top = room.top() + (room.height() - len(lines) * txt.line_height(px, True)) // 2
        letter_px = min(max(int(disc.height() * 0.6), txt.LEAST_PX), 30)
        return [txt.DrawnText(self.letter, letter_px, disc, txt.line_height(letter_px, True) <= disc.height() + 4),
                txt.DrawnText("\n".join(lines), px, QRect(room.left(), top, room.width(),
                                                          len(lines) * txt.line_height(px, True)), fits, key=True)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(1.5, 1.5, -1.5, -1.5)
        p.setPen(QPen(QColor(style.HIGHLIGHT if self.legal else "#8A8A8A"), 3 if self.legal else 2))
        p.setBrush(QColor("#E4F0F8" if self.isDown() else "#FFFFFF"))
        p.drawRoundedRect(r, 10, 10)
        letter, words = self._texts()
        disc = QRectF(letter.rect)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(style.HIGHLIGHT if self.legal else "#6B6B6B"))
        p.drawEllipse(disc)
        p.setPen(QColor("#FFFFFF"))
        p.setFont(txt.font(letter.px, True))
        p.drawText(disc, int(Qt.AlignCenter), self.letter)
        p.setPen(QColor(style.INK))
        txt.draw_lines(p, words.rect, tuple(words.text.split("\n")), words.px, bold=True, align=Qt.AlignLeft)
        if self.hasFocus():
            pt.paint_focus(p, r.adjusted(3, 3, -3, -3), 8)
        p.end()


class QuestionCard(QWidget):
    """The question being read, as a large card over the map: who reads to whom, the question,
    and, once heard, its three choices A to C (tapped by the answering agent)."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:question")
        self.header = ""
        self.question = ""
        self.colour = "#D0D0D0"
        self.choices = [ChoiceButton(i, self) for i in range(CHOICES_PER_QUESTION)]
        self._texts: list[txt.DrawnText] | None = None

    def show_question(self, header: str, question: str, colour: str, options: list[str] | None,
                      tappable: bool) -> None:
        if (header, question, colour) != (self.header, self.question, self.colour):
            self.header, self.question, self.colour = header, question, colour
            self._texts = None
            self.setAccessibleName(f"{header}: {question}")
            self.update()
        for button, words in zip(self.choices, options or ()):
            button.set_words(words, tappable)
        for button in self.choices:
            button.setVisible(bool(options))
        self._place_choices()

    def card_rect(self) -> QRectF:
        return QRectF(self.rect()).adjusted(4, 4, -8, -8)

    def _header_px(self) -> int:
        return int(min(max(self.card_rect().height() * 0.06, 18), 28))

    def _header(self) -> txt.DrawnText:
        """Who reads to whom, in the band: on one line (a narrow face if need be), else on two, else
        shortened with "\u2026" (long names); its rect starts at the band's top left."""
        card = self.card_rect()
        width = int(card.width() - 24)
        for lines_allowed in (1, 2):
            for family in ("", txt.narrow_family()):
                px, lines, fits = txt.fit(self.header, width, 1000, self._header_px(), bold=True, family=family,
                                          max_lines=lines_allowed)
                if fits:
                    high = len(lines) * txt.line_height(px, True, family)
                    return txt.DrawnText("\n".join(lines), px, QRect(int(card.left() + 12), int(card.top() + 5),
                                                                     width, high), True, family=family)
        family = txt.narrow_family()
        metrics = QFontMetrics(txt.font(txt.LEAST_PX, True, QFont(family)))
        short = metrics.elidedText(self.header, Qt.ElideRight, width)
        return txt.DrawnText(short, txt.LEAST_PX, QRect(int(card.left() + 12), int(card.top() + 5), width,
                                                        txt.line_height(txt.LEAST_PX, True, family)), True,
                             family=family)

    def _band_height(self) -> int:
        return self._header().rect.height() + 10

    def _choice_height(self) -> float:
        card = self.card_rect()
        return min(max(card.height() * 0.17, 40.0), 64.0)

    def _place_choices(self) -> None:
        card = self.card_rect()
        h = self._choice_height()
        shown = [b for b in self.choices if not b.isHidden()]
        y = card.bottom() - 10 - len(shown) * (h + 6) + 6
        for b in shown:
            b.setGeometry(QRect(int(card.left() + 14), int(y), int(card.width() - 28), int(h)))
            y += h + 6
        self._texts = None

    def resizeEvent(self, event) -> None:
        self._place_choices()
        super().resizeEvent(event)

    def drawn_texts(self) -> list[txt.DrawnText]:
        if self._texts is None:
            card = self.card_rect()
            header = self._header()
            shown = [b for b in self.choices if not b.isHidden()]
            bottom = min((b.geometry().top() for b in shown), default=int(card.bottom() - 8)) - 6
            room = QRectF(card.left() + 18, card.top() + self._band_height() + 6, card.width() - 36,
                          bottom - card.top() - self._band_height() - 6)
            largest = int(min(max(card.height() * 0.12, 30), 50))
            qpx, qlines, qfits = txt.fit(self.question, int(room.width()), int(room.height()), largest, bold=True,
                                         max_lines=5)
            qh = len(qlines) * txt.line_height(qpx, True)
            top = room.top() + max(room.height() - qh, 0) / 2
            self._texts = [header,
                           txt.DrawnText("\n".join(qlines), qpx, QRect(int(room.left()), int(top), int(room.width()),
                                                                        int(qh)), qfits)]
        return self._texts

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        card = self.card_rect()
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(0, 0, 0, 60))
        p.drawRoundedRect(card.translated(4, 5), 14, 14)
        p.setPen(QPen(QColor("#333333"), 2))
        p.setBrush(QColor(pt.FACE))
        p.drawRoundedRect(card, 14, 14)
        band = QPainterPath()
        band.addRoundedRect(card.adjusted(1, 1, -1, 0), 13, 13)
        top = QPainterPath()
        top.addRect(QRectF(card.left(), card.top(), card.width(), self._band_height()))
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(self.colour))
        p.drawPath(band.intersected(top))
        header, question = self.drawn_texts()
        _draw(p, header, bold=True, ink=readable_ink(self.colour), align=Qt.AlignLeft, family=header.family)
        _draw(p, question, bold=True, ink=style.INK)
        p.end()


class QuestionPile(QWidget):
    """The pile of question cards of the game's colour, and what everyone should remember: the
    last answer, the Warrants out of play."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:status")
        self.colour = "#D0D0D0"
        self.lines: list[tuple[str, bool, int]] = []
        self._texts: list[tuple[txt.DrawnText, bool]] | None = None

    def set_lines(self, colour: str, lines: list[tuple[str, bool, int]]) -> None:
        """Each line: its words, bold or not, and how long it is kept when the pile has no room
        for every line (the lowest is left out first)."""
        if (colour, lines) != (self.colour, self.lines):
            self.colour, self.lines = colour, lines
            self._texts = None
            self.setAccessibleName(" ".join(words for words, _, _ in lines))
            self.setToolTip(plain_tip("\n".join(words for words, _, _ in lines)))
            self.update()

    def text(self) -> str:
        return "\n".join(words for words, _, _ in self.lines)

    def resizeEvent(self, event) -> None:
        self._texts = None
        super().resizeEvent(event)

    def _layout(self) -> list[tuple[txt.DrawnText, bool]]:
        if self._texts is None:
            room = QRectF(self.rect()).adjusted(10, 12, -14, -12)
            family = txt.narrow_family()
            shown = [(words, bold) for words, bold, _ in self.lines]
            keep = [k for _, _, k in self.lines]
            grow = min(max(room.height() / 150, 1.0), 1.5)       # a roomy screen: larger words
            sizes = [int((26 if bold else 22) * grow) for _, bold in shown]
            while True:
                placed = [txt.fit(words, int(room.width()), 10_000, px, px, bold=bold, family=family, max_lines=6)
                          for (words, bold), px in zip(shown, sizes)]
                total = sum(len(lines) * txt.line_height(px, bold, family)
                            for (px, lines, _), (_, bold) in zip(placed, shown)) + 4 * len(shown)
                if (total <= room.height() and all(ok for _, _, ok in placed)) or not shown:
                    break                           # (a word wider than the pile makes its line smaller too)
                if max(sizes) > txt.LEAST_PX:
                    i = sizes.index(max(sizes))
                    sizes[i] -= 1
                elif len(shown) > 1:                 # at the least size: the line kept least goes
                    i = keep.index(min(keep))
                    del shown[i], sizes[i], keep[i]
                elif len(shown[0][0].split()) > 1:   # one line left: its first word (the pile's colour)
                    shown[0] = (shown[0][0].split()[0], shown[0][1])
                else:
                    break
            y = room.top()
            out = []
            for (px, lines, ok), (_, bold) in zip(placed, shown):
                h = len(lines) * txt.line_height(px, bold, family)
                out.append((txt.DrawnText("\n".join(lines), px, QRect(int(room.left()), int(y), int(room.width()),
                                                                       int(h)),
                                          ok and y + h <= room.bottom() + 1), bold))
                y += h + 4
            self._texts = out
        return self._texts

    def drawn_texts(self) -> list[txt.DrawnText]:
        return [drawn for drawn, _ in self._layout()]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        card = QRectF(self.rect()).adjusted(4, 4, -10, -4)
        for i in (3, 2, 1):        # the pile's thickness
            p.setPen(QPen(QColor("#444444"), 1))
            p.setBrush(QColor(self.colour).darker(105 + 8 * i))
            p.drawRoundedRect(card.translated(i * 2, i * 1.5), 10, 10)
        p.setPen(QPen(QColor("#333333"), 2))
        p.setBrush(QColor(pt.FACE))
        p.drawRoundedRect(card, 10, 10)
        p.setPen(Qt.NoPen)
        p.setBrush(QColor(self.colour))
        p.drawRoundedRect(QRectF(card.left() + 1, card.top() + 1, 8, card.height() - 2), 4, 4)
        family = txt.narrow_family()
        for drawn, bold in self._layout():
            _draw(p, drawn, bold=bold, ink=style.INK, family=family, align=Qt.AlignLeft)
        p.end()


def sea_painter(widget: QWidget) -> QPainter:
    """A painter on ``widget`` whose whole room is already painted as the sea, the maps' ground."""
    p = QPainter(widget)
    p.setRenderHint(QPainter.Antialiasing)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor(SEA))
    p.drawRoundedRect(QRectF(widget.rect()), 12, 12)
    return p


class UsaMap(QWidget):
    """The map: sea, the outline of the 48 states, Alaska's and Hawaii's inset boxes, the
    landmark tiles on it, the question pile, and the question card while a question is read."""

    def __init__(self, layout: MapLayout, tiles: dict[str, LandmarkTile], parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:map")
        self.map = layout
        self.tiles = tiles
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        self.setMinimumSize(320, 160)
        for tile in tiles.values():
            tile.setParent(self)
        self.pile = QuestionPile(self)
        self.card = QuestionCard(self)
        self.card.hide()
        self.flights = FlightLayer(self)

    def cell(self, column: float, row: float, wide: float = 1.0, high: float = 1.0) -> QRectF:
        w, h = self.width() / self.map.columns, self.height() / self.map.rows
        return QRectF(column * w, row * h, wide * w, high * h)

    def resizeEvent(self, event) -> None:
        for lm, tile in self.tiles.items():
            tile.setGeometry(self.cell(*self.map.tiles[lm]).toAlignedRect())
        common = min(tile.best_size() for tile in self.tiles.values())
        for tile in self.tiles.values():
            tile.set_largest(common)
        self.pile.setGeometry(self.cell(*self.map.pile).toAlignedRect().adjusted(3, 3, -3, -3))
        self.card.setGeometry(self.cell(*self.map.card).toAlignedRect())
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        p = sea_painter(self)
        land = QPolygonF([QPointF(*self._point(lon, lat)) for lon, lat in self.map.outline])
        p.setPen(QPen(QColor(SHORE), 2))
        p.setBrush(QColor(LAND))
        p.drawPolygon(land)
        # Alaska and Hawaii: boxed apart, as on most maps of the USA.
        p.setPen(QPen(QColor(SHORE), 2, Qt.DashLine))
        p.setBrush(QColor(LAND))
        for lm in self.map.insets:
            p.drawRoundedRect(self.cell(*self.map.tiles[lm]).adjusted(1, 1, -1, -1), 6, 6)
        # A legal tile's halo, in the gaps around it.
        for tile in self.tiles.values():
            if tile.legal and not tile.chosen and tile.isVisible():
                card = tile.card_rect().translated(QPointF(tile.pos()))
                for grow, alpha, width in ((3.5, 70, 4), (1.5, 160, 3)):
                    c = QColor(style.HIGHLIGHT)
                    c.setAlpha(alpha)
                    p.setPen(QPen(c, width))
                    p.setBrush(Qt.NoBrush)
                    p.drawRoundedRect(card.adjusted(-grow, -grow, grow, grow), 10, 10)
        p.end()

    def _point(self, lon: float, lat: float) -> tuple[float, float]:
        x, y = self.map.project(lon, lat)
        return x * self.width() / self.map.columns, y * self.height() / self.map.rows


# --- the finale: a map of the states, the countdown, the tokens --------------------------------
class Countdown(QWidget):
    """The Catch Carmen timer as a ring that empties, the seconds left in large type in the middle.
    ``time_source`` is replaceable (tests)."""

    expired = Signal()

    def __init__(self, time_source: Callable[[], float] = time.monotonic, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:countdown")
        self.time_source = time_source
        self.deadline: float | None = None
        self.total = 0
        self.fired = False
        self.setSizePolicy(QSizePolicy.Fixed, QSizePolicy.Fixed)
        self.timer = QTimer(self)
        self.timer.setInterval(200)
        self.timer.timeout.connect(self.update_clock)

    def set_total(self, seconds: int) -> None:
        if seconds != self.total:
            self.total = seconds
            self.update()

    def start(self, seconds: int) -> None:
        self.total = seconds
        self.deadline = self.time_source() + seconds
        self.fired = False
        self.timer.start()
        self.update_clock()

    def stop(self) -> None:
        self.timer.stop()
        self.deadline = None
        self.update()

    @property
    def running(self) -> bool:
        return self.deadline is not None

    def left(self) -> int:
        if self.deadline is None:
            return self.total
        return max(0, int(self.deadline - self.time_source() + 0.999))

    def text(self) -> str:
        return f"Time left: {self.left()} s"

    def update_clock(self) -> None:
        if self.deadline is None:
            return
        self.setAccessibleName(self.text())
        self.update()
        if self.left() == 0 and not self.fired:
            self.fired = True
            self.timer.stop()
            self.expired.emit()

    def _texts(self) -> list[txt.DrawnText]:
        side = min(self.width(), self.height())
        inner = QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side).adjusted(
            side * 0.17, side * 0.2, -side * 0.17, -side * 0.2)
        number = str(self.left())
        word_px = int(min(max(side * 0.07, txt.LEAST_PX), 24))
        word_h = txt.line_height(word_px, True)
        npx, nlines, nfits = txt.fit(number, int(inner.width()), int(inner.height() - word_h), 120, bold=True,
                                     max_lines=1)
        nh = txt.line_height(npx, True)
        top = inner.top() + (inner.height() - nh - word_h) / 2
        return [txt.DrawnText(number, npx, QRect(int(inner.left()), int(top), int(inner.width()), nh), nfits,
                              key=True),
                txt.DrawnText("seconds", word_px, QRect(int(inner.left()), int(top + nh), int(inner.width()),
                                                        word_h), True)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        side = min(self.width(), self.height())
        thick = max(side * 0.11, 8)
        ring = QRectF((self.width() - side) / 2, (self.height() - side) / 2, side, side).adjusted(
            thick / 2 + 2, thick / 2 + 2, -thick / 2 - 2, -thick / 2 - 2)
        p.setPen(QPen(QColor("#DDD6C8"), thick))
        p.setBrush(QColor("#FFFFFF"))
        p.drawEllipse(ring)
        share = self.left() / self.total if self.total else 0.0
        # Green while there is time, orange under a half, vermillion in the last fifth.
        colour = style.GREEN if share > 0.5 else style.ORANGE if share > 0.2 else style.VERMILLION
        p.setPen(QPen(QColor(colour), thick, Qt.SolidLine, Qt.FlatCap))
        p.drawArc(ring, 90 * 16, int(-360 * 16 * share))
        number, word = self._texts()
        p.setPen(QColor(style.INK))
        txt.draw_lines(p, number.rect, (number.text,), number.px, bold=True)
        txt.draw_lines(p, word.rect, (word.text,), word.px, bold=True)
        p.end()


class StateTile(Piece):
    """One state on the finale's map: its two letters; a tick once its capital's token lies on it."""

    def __init__(self, state: str, name: str, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.place = self.state = state
        self.name = name
        self.setObjectName(f"slot:{state}")
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.legal = self.chosen = False
        self.capital: str | None = None

    def show_state(self, capital: str | None, legal: bool, chosen: bool) -> None:
        if (capital, legal, chosen) != (self.capital, self.legal, self.chosen):
            self.capital, self.legal, self.chosen = capital, legal, chosen
            self.setToolTip(plain_tip(f"{self.name}: {capital}" if capital else self.name))
            self.setAccessibleName(f"{self.name}" + (f", {capital} placed" if capital else "")
                                   + (", can be chosen" if legal else ""))
            self.update()

    def text(self) -> str:
        return self.state + (" \u2714" if self.capital else "")

    def _texts(self) -> list[txt.DrawnText]:
        room = QRectF(self.rect()).adjusted(5, 3, -5, -3)
        family = txt.narrow_family()
        px, lines, fits = txt.fit(self.state, int(room.width()), int(room.height()), 30, bold=True, family=family,
                                  max_lines=1)
        h = txt.line_height(px, True, family)
        return [txt.DrawnText(self.state, px, QRect(int(room.left()), int(room.top() + (room.height() - h) / 2),
                                                    int(room.width()), h), fits, key=True)]

    def drawn_texts(self) -> list[txt.DrawnText]:
        return self._texts()

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        p.setRenderHint(QPainter.Antialiasing)
        r = QRectF(self.rect()).adjusted(2, 2, -2, -2)
        p.setPen(QPen(QColor(style.HIGHLIGHT) if self.legal else QColor(SHORE), 3 if self.legal else 1.5))
        p.setBrush(QColor(PLACED if self.capital else LAND))
        p.drawRoundedRect(r, 6, 6)
        (drawn,) = self._texts()
        p.setPen(QColor(style.INK))
        txt.draw_lines(p, drawn.rect, (drawn.text,), drawn.px, bold=True, family=txt.narrow_family())
        if self.capital:             # a tick: placed, told by shape as well as by the green
            s = min(r.width(), r.height()) * 0.22
            c = QPointF(r.right() - s - 2, r.top() + s + 2)
            tick = QPainterPath(QPointF(c.x() - s * 0.6, c.y()))
            tick.lineTo(c.x() - s * 0.1, c.y() + s * 0.5)
            tick.lineTo(c.x() + s * 0.7, c.y() - s * 0.6)
            p.setPen(QPen(QColor(style.GREEN).darker(130), max(s / 3, 2), Qt.SolidLine, Qt.RoundCap))
            p.setBrush(Qt.NoBrush)
            p.drawPath(tick)
        pt.paint_chosen_and_focus(p, r, chosen=self.chosen, focused=self.hasFocus(), radius=5)
        p.end()


class StateMap(QWidget):
    """The finale's tile map of the 50 states (one square each, where they lie)."""

    def __init__(self, tiles: dict[str, tuple[int, int]], states: dict[str, StateTile],
                 parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:states")
        self.grid = tiles
        self.states = states
        self.rows = max(r for r, _ in tiles.values()) + 1
        self.columns = max(c for _, c in tiles.values()) + 1
        self.setSizePolicy(QSizePolicy.Expanding, QSizePolicy.Expanding)
        for tile in states.values():
            tile.setParent(self)

    def resizeEvent(self, event) -> None:
        w, h = self.width() / self.columns, self.height() / self.rows
        for st, tile in self.states.items():
            r, c = self.grid[st]
            tile.setGeometry(QRectF(c * w, r * h, w, h).toAlignedRect())
        super().resizeEvent(event)

    def paintEvent(self, event) -> None:
        p = sea_painter(self)
        p.end()


class FittedWords(QWidget):
    """Words fitted to their room: as large as it allows (``largest``), never below the least size."""

    def __init__(self, largest: int, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.words = ""
        self.largest = largest
        self.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Ignored)
        self.setMinimumHeight(txt.line_height(txt.LEAST_PX, True) * 2)

    def setText(self, words: str) -> None:        # the QLabel spelling: the tests read it alike
        if words != self.words:
            self.words = words
            self.setAccessibleName(words)
            self.update()

    def text(self) -> str:
        return self.words

    def drawn_texts(self) -> list[txt.DrawnText]:
        if not self.words:
            return []
        room = self.rect().adjusted(4, 2, -4, -2)
        px, lines, fits = txt.fit(self.words, room.width(), room.height(), self.largest, bold=True, max_lines=8)
        h = len(lines) * txt.line_height(px, True)
        return [txt.DrawnText("\n".join(lines), px, QRect(room.left(), room.top() + max(room.height() - h, 0) // 2,
                                                           room.width(), min(h, room.height())), fits)]

    def paintEvent(self, event) -> None:
        p = QPainter(self)
        for drawn in self.drawn_texts():
            _draw(p, drawn, bold=True, ink=style.INK, align=Qt.AlignLeft)
        p.end()


class FinalePage(QWidget):
    """Catch Carmen: the states' map at the left; the countdown ring, what happens now, and the
    tokens of the agent placing them at the right."""

    def __init__(self, tiles: dict[str, tuple[int, int]], state_names: dict[str, str], players: list[str],
                 colours: dict[str, str], per_agent: int, place_clicked: Signal, place_refused: Signal) -> None:
        super().__init__()
        self.state_tiles = {st: StateTile(st, state_names.get(st, st)) for st in tiles}
        for tile in self.state_tiles.values():
            tile.picked.connect(place_clicked)
            tile.refused.connect(place_refused)
        self.map = StateMap(tiles, self.state_tiles)
        row = QHBoxLayout(self)
        row.setContentsMargins(0, 0, 0, 0)
        row.addWidget(self.map, 3)
        side = QVBoxLayout()
        side.setContentsMargins(0, 0, 0, 0)
        top = QHBoxLayout()
        self.countdown = Countdown()
        top.addWidget(self.countdown)
        self.status = FittedWords(26)
        self.status.setObjectName("usa:finale-status")
        top.addWidget(self.status, 1)
        side.addLayout(top)
        self.names: dict[str, PlayerName] = {}
        self.tokens: dict[str, DrawnCard] = {}
        for player in players:
            name = PlayerName(player, colours[player])
            self.names[player] = name
            side.addWidget(name)
        self.rack = QHBoxLayout()
        self.rack.setSpacing(2)
        for player in players:
            for n in range(1, per_agent + 1):
                card = DrawnCard(f"{player}/capital/{n}")
                card.picked.connect(place_clicked)
                card.refused.connect(place_refused)
                card.setMinimumSize(60, 60)
                self.tokens[card.place] = card
                self.rack.addWidget(card, 1)
        side.addLayout(self.rack, 1)
        self.others = label("")
        self.others.setObjectName("usa:tokens-left")
        self.others.setStyleSheet("font-size: 14pt;")
        side.addWidget(self.others)
        row.addLayout(side, 2)

    def resizeEvent(self, event) -> None:
        side = int(min(self.height() * 0.42, self.width() * 0.17))
        self.countdown.setFixedSize(max(side, 90), max(side, 90))
        # A token is a card: no taller than about one and a half times its width.
        tall = max(int(self.width() * 0.4 / 3 * 1.5), 60)
        for card in self.tokens.values():
            card.setMaximumHeight(tall)
        super().resizeEvent(event)


# --- the table ------------------------------------------------------------------------------
class CarmenUsaTable(GameTable):
    """The map with the 24 landmarks and the question card; the finale's map, countdown and tokens."""

    def __init__(self, shell: TableShell, rng: random.Random | None = None) -> None:
        super().__init__(shell)
        self.rng = rng or random.SystemRandom()
        session = self.controller.session
        rules = session.rules
        self.rules = rules
        layout = session.layout()
        self.colours = player_colours(session.players)
        self.layout_map = load_map(rules.board.ids)
        self.tiles: dict[str, LandmarkTile] = {}
        for lm in rules.board.ids:
            name = rules.landmark_name[lm]
            tile = LandmarkTile(lm, name, self.layout_map.label(lm, name))
            tile.picked.connect(self.place_clicked)
            tile.refused.connect(self.place_refused)
            self.tiles[lm] = tile
        outer = QVBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        self.pages = QStackedWidget()
        outer.addWidget(self.pages)
        self.map = UsaMap(self.layout_map, self.tiles)
        self.card_box = self.map.card
        self.choice_buttons = self.map.card.choices
        for button in self.choice_buttons:
            button.clicked.connect(lambda _=False, n=button.index: self.choice_tapped(n))
        self.pages.addWidget(self.map)
        tiles = {}
        for item in layout["tiles"]:
            st, r, c = item.split(":")
            tiles[st] = (int(r), int(c))
        self.finale = FinalePage(tiles, rules.state_names, list(session.players), self.colours,
                                 rules.board.tokens_per_agent, self.place_clicked,
                                 self.place_refused)
        self.state_tiles = self.finale.state_tiles
        self.token_slots = self.finale.tokens
        self.countdown = self.finale.countdown
        self.countdown.expired.connect(self.time_ran_out)
        self.pages.addWidget(self.finale)
        self.motion = MotionQueue(self)
        self._pieces_seen: dict[str, str | None] | None = None
        #: movements made while the table was hidden (behind the privacy gate): played when it shows
        self._deferred: list[Step] = []
        self._spoken_question: str | None = None

    # --- the contract ----------------------------------------------------------------
    def shows(self, place: str) -> bool:
        if place.startswith("box/"):
            return place[4:] in self.tiles
        return place in self.tiles or place in self.state_tiles or place in self.token_slots

    def handles(self, option: Option) -> bool:
        return option.action == "ask"

    def start(self, option: Option, player: str) -> None:
        """Read the next question: the top card of the pile is any one not read yet (chance)."""
        questions = option.targets["question"]
        if self.shell.send({"type": "ask", "player": player, "question": self.rng.choice(list(questions))}):
            # The question is on the card over the map: the message says who reads it to whom,
            # it does not repeat it (the full log keeps the engine's words, question and all).
            state = self.controller.session.state
            self.shell.say([f"{player} reads {state.answerer} a {state.colour} question."])

    def field_words(self, option: Option, field: str) -> str:
        words = {"landmark": "the landmark you reached (highlighted), or No landmark",
                 "box": "the landmark (highlighted)", "token": "your Capital Token (highlighted)",
                 "state": "its state on the map"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        state = self.controller.session.state
        finale = state.phase.startswith("finale") or (view.outcome is not None and state.winner is not None)
        self.pages.setCurrentIndex(1 if finale else 0)
        by_place = {card.place: card for card in view.cards}
        pieces: dict[str, list[tuple[str, str]]] = {}
        for player in self.controller.session.players:
            lm = state.pieces.get(player)
            if lm:
                pieces.setdefault(lm, []).append((player, self.colours[player]))
        for lm, tile in self.tiles.items():
            box = f"box/{lm}"
            card = by_place.get(box)
            legal_place = box if box in legal else lm if lm in legal else None
            named = card.name if card else None
            kind = self.rules.kind_of(card.card) if card and card.card else (card.kind if card else None)
            index = KIND_INDEX.get(kind or "", 0)
            colour = named_colour(named.split()[0], style.kind_colour(index)) if named else BACK
            tile.show_box(card=named, face_up=bool(card and card.face_up), present=card is not None, colour=colour,
                          symbol=style.kind_symbol(index) if named else "", pieces=pieces.get(lm, []),
                          legal_place=legal_place, chosen=box in chosen or lm in chosen)
        self.map.update()                 # the halos of the legal tiles
        self._refresh_question(state)
        self._refresh_finale(state, view, by_place, legal, chosen, finale)
        self._follow_pieces(dict(state.pieces))

    def _refresh_question(self, state) -> None:
        bank = self.rules.bank
        asking = state.phase in ("answering", "backup") and state.question
        q = bank.question(state.question) if state.question else None
        colour = named_colour(state.colour, "#D0D0D0")
        if asking and q is not None:
            listener = state.backup if state.phase == "backup" else state.answerer
            heard = bool(state.choices or (state.phase == "backup" and state.first_choices))
            tappable = heard and self.controller.session.prompt().option("answer") is not None
            self.map.card.show_question(f"{state.colour.capitalize()} question: {state.reader} reads to {listener}",
                                        q.text, colour, list(q.options) if heard else None, tappable)
            self.map.card.show()
            self.map.card.raise_()
            if state.question != self._spoken_question:
                # Read aloud once, when it is drawn (the prompt no longer carries it).
                self._spoken_question = state.question
                self.shell.speak(q.text)
        else:
            self.map.card.hide()
            self._spoken_question = None
        left = len(self.rules.sets[state.colour]) - len(state.asked)
        out = ", ".join(state.warrants_out) if state.warrants_out else "none"
        # (words, bold, kept: the lower, the sooner it is left out when the pile has no room)
        lines = [(f"{state.colour.capitalize()} questions", True, 3), (f"{left} left", False, 0)]
        if q is not None and not asking:
            lines.append((f"The last answer: {q.answer}", False, 1))
        lines.append((f"Warrants out of play: {out}", False, 4))
        if state.variant == "bigger":
            lines.append(("A bigger challenge: Loot goes back face down.", False, 2))
        self.map.pile.set_lines(colour, lines)

    def _refresh_finale(self, state, view: PlayerView, by_place, legal: set[str], chosen: set[str],
                        finale: bool) -> None:
        placed = {card.place[4:]: card.name for card in view.cards if card.place.startswith("map/")}
        for st, tile in self.state_tiles.items():
            tile.show_state(placed.get(st), st in legal, st in chosen)
        seconds = self.rules.board.timer_seconds[len(state.players)]
        self.countdown.set_total(seconds)
        if state.phase == "finale_place" and not self.countdown.running:
            self.countdown.start(seconds)
        elif state.phase != "finale_place" and self.countdown.running:
            self.countdown.stop()
        # The tokens of the agent placing them (or taking them) are on the rack; the others' count.
        prompt = self.controller.session.prompt()
        holder = state.placer if state.phase == "finale_place" else prompt.player
        for place, slot in self.token_slots.items():
            owner, _, n = place.split("/")
            card = by_place.get(place)
            words = f"Token {n}" if card is None or not (card.face_up and card.name) else card.name
            slot.setVisible(owner == holder and finale)
            slot.show_card("Capital", f"Token {n}", TOKEN, name=card.name if card and card.face_up else None,
                           present=card is not None, legal=place in legal, chosen=place in chosen,
                           face_up=bool(card and card.face_up))
            slot.setAccessibleName(f"{owner}'s {words}" if card else f"{owner}'s token {n}: placed")
        for player, name in self.finale.names.items():
            name.setVisible(player == holder and finale)
            name.set_state(note="" if view.outcome else "\u25C0 playing now", current=player == holder)
        left = {p: sum(1 for place in self.token_slots if place.startswith(f"{p}/") and place in by_place)
                for p in state.players}
        others = [f"{p} {n}" for p, n in left.items() if p != holder]
        self.finale.others.setText(f"Tokens still to place: {', '.join(others)}" if others and finale else "")
        if view.outcome is not None:
            self.finale.status.setText(view.outcome.reason)
        elif state.phase == "finale_place":
            self.finale.status.setText(f"{state.placer} flips a token and puts it on its state. "
                                       f"Tokens still to place: {sum(left.values())}.")
        elif finale:
            self.finale.status.setText(f"Everyone takes three tokens; then {state.order[-1]} starts "
                                       f"the {seconds}-second timer.")

    # --- movements ----------------------------------------------------------------------
    def _follow_pieces(self, now: dict[str, str | None]) -> None:
        """Each piece that moved is seen going from its old landmark to its new one (one at a time)."""
        before, self._pieces_seen = self._pieces_seen, now
        if before is None:
            return
        steps = []
        for player in self.controller.session.players:
            src, dst = before.get(player), now.get(player)
            if dst and src != dst and dst in self.tiles:
                steps.append(self._piece_step(player, src, dst))
        if steps and self.map.isVisible():
            self.motion.play(steps)
        elif steps:
            for step in steps:
                step.hold()
            self._deferred += steps

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._deferred and self.map.isVisible():
            steps, self._deferred = self._deferred, []
            self.motion.play(steps)

    def _piece_step(self, player: str, src: str | None, dst: str) -> Step:
        target = self.tiles[dst]
        colour = self.colours[player]
        flight: list[int] = []

        def rect_on_map(tile: LandmarkTile) -> QRectF:
            return tile.pawn_rect(player).translated(QPointF(tile.pos()))

        def progress(t: float) -> None:
            end = rect_on_map(target)
            # A piece put down for the first time comes down from above its landmark.
            start = rect_on_map(self.tiles[src]) if src in self.tiles else end.translated(0, -end.height() * 2.5)
            where = pt.lerp_rect(start, end, t, lift=end.height() * 1.2)
            if not flight and t < 1.0:
                flight.append(self.map.flights.add(lambda p, r: pt.paint_piece(p, r, colour, player), where))
            elif flight:
                self.map.flights.move(flight[0], where)

        def land() -> None:
            for f in flight:
                self.map.flights.remove(f)
            flight.clear()
            target.land_piece(player)

        return Step(progress=progress, hold=lambda: target.hold_piece(player), land=land, what="piece")

    # --- the table's own actions ------------------------------------------------------
    def choice_tapped(self, n: int) -> None:
        """The answering agent taps a choice: the app marks it right or wrong."""
        session = self.controller.session
        state = session.state
        player = session.prompt().player
        if state.question is None or player is None or session.prompt().option("answer") is None:
            return
        q = self.rules.bank.question(state.question)
        self.shell.send({"type": "answer", "player": player, "correct": q.options[n] == q.answer})

    def time_ran_out(self) -> None:
        session = self.controller.session
        option = session.prompt().option("time_up")
        if option is not None and session.prompt().player is not None:
            self.shell.send({"type": "time_up", "player": session.prompt().player})

    def setup_widget(self) -> QWidget:
        """How to lay out the game before the first move (in our own words)."""
        state = self.controller.session.state
        extra = " A bigger challenge: Loot cards go back face down too." if state.variant == "bigger" else ""
        text = label("Shuffle the 24 Clue Cards and put one face down (the Carmen logo up) on each Landmark "
                     "Box along the top and bottom of the board. Set the 50 Capital Tokens aside for the end. "
                     f"This game uses the {state.colour} questions: the app reads them. From youngest to oldest "
                     f"({', '.join(state.order)}), each agent puts a piece on a vacant landmark." + extra, "prompt")
        text.setObjectName("usa:setup")
        return text

    def journal_widget(self, journal: Journal) -> QWidget:
        """Every Landmark Box and what this agent knows of it."""
        line = next((d for d in journal.deductions if d.kind == "boxes"), None)
        rows = []
        how_words = self.rules._HOW
        for box in (line.data["boxes"] if line else []):
            card = self.rules.card_name(box["card"]) if box["card"] else ""
            rows.append([self.rules.landmark_name[box["landmark"]], card or "Unknown",
                         how_words[box["how"]] if box["how"] != "unknown" else ""])
        table = journal_table(["Landmark", "Card", "How you know"], rows)
        table.setObjectName("journal:boxes")
        return table
