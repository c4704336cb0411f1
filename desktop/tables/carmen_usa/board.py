"""Where in the USA is Carmen Sandiego: the board drawn (the 24 Landmark Boxes on a map of the USA,
the agents' pieces on it), the question card with its choices and the reader's answer, and the pile
of question cards.
"""

from __future__ import annotations

from PySide6.QtCore import QPointF, QRect, QRectF, QSize, Qt, QTimer
from PySide6.QtGui import QColor, QFont, QFontMetrics, QPainter, QPainterPath, QPen, QPolygonF
from PySide6.QtWidgets import QSizePolicy, QWidget

from engine.games.carmen_usa.data import CHOICES_PER_QUESTION

from ... import style
from ...drawn import Clickable, FlightLayer, Piece
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.palette import readable_ink
from ...widgets import button, literal, plain_tip
from .mapfile import MapLayout

BACK = "#A8392B"             # a face-down Clue Card, the Carmen logo up: the box's red
SEA, LAND, SHORE = "#D3E6F2", "#EFE5C8", "#9C9276"
LABEL_PX = 34                # a landmark's name on a roomy screen; smaller (never below 15 px) on a small one


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
                 pieces: list[tuple[str, str]], legal_place: str | None, chosen: bool,
                 words: str | None = None) -> None:
        """``words``: the card's colour and type ("Pink Loot"), shown under the landmark's name."""
        self.place = legal_place or self.landmark
        short = words or (card or "").split(":")[0]     # "Orange Warrant" (a Crook's name is on the card)
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
            # The card's colour and type (or "empty box"), bold, smaller than the name, larger on a roomy screen.
            largest = min(max(int(room.height() * 0.24), 18), 24)
            spx, slines, sfits = _fit_lines(self.status, room.width(), room.height() / 2, largest, bold=True,
                                            family=family, max_lines=2)
            status = (spx, slines, sfits)
            bottom = len(slines) * txt.line_height(spx, True, family)
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
                spots.append((room.width() - widths(spx, slines, True)[-1], room.bottom()))
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
            sh = len(slines) * txt.line_height(spx, True, family)
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
            look = pt.CardLook(caption=self.name, colour=self.colour, symbol=self.symbol, name=self.card,
                               face_up=True)
            pt.paint_face(p, card, look)
            wash = QColor(self.colour)             # the whole face in its own colour, lightly: the ink reads on it
            wash.setAlpha(70)
            p.setPen(Qt.NoPen)
            p.setBrush(wash)
            p.drawRoundedRect(card.adjusted(1, pt.band_height(card, look), -1, -1), 7, 7)
            ink = style.INK
        else:
            pt.paint_back(p, card, BACK)
            ink = readable_ink(BACK)
        texts, rects = self.layout()
        family = txt.narrow_family()
        _draw(p, texts[0], bold=True, ink=ink, family=family, align=self.align)
        for drawn in texts[1:]:
            _draw(p, drawn, bold=True, ink=ink, family=family, align=Qt.AlignLeft)
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
    once heard its three choices A to C (tapped by the answering agent), and at the bottom the
    reader's row: the answer is printed on the real card for the reader alone, so here it shows
    only when the reader asks for it ("Only Cy looks: show the answer"), and hides again by itself
    after a few seconds; when the reader has a phone, the row says the answer is there."""

    #: how long the reader's answer stays in sight
    ANSWER_MS = 4000

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("usa:question")
        self.header = ""
        self.question = ""
        self.colour = "#D0D0D0"
        self.reader = ""
        self.answer = ""              # the answer of the question shown (drawn only while revealed)
        self.on_phone = False         # the reader's phone shows the answer
        self.revealed = False
        self.choices = [ChoiceButton(i, self) for i in range(CHOICES_PER_QUESTION)]
        self.reveal = button("", name="usa:reveal-answer", parent=self)
        self.reveal.clicked.connect(self.toggle_answer)
        self.hide_timer = QTimer(self)
        self.hide_timer.setSingleShot(True)
        self.hide_timer.setInterval(self.ANSWER_MS)
        self.hide_timer.timeout.connect(self.hide_answer)
        self._texts: list[txt.DrawnText] | None = None

    def show_question(self, header: str, question: str, colour: str, options: list[str] | None,
                      tappable: bool, reader: str = "", answer: str = "", on_phone: bool = False) -> None:
        if (header, question, colour, reader, answer, on_phone) != (self.header, self.question, self.colour,
                                                                     self.reader, self.answer, self.on_phone):
            if (question, reader) != (self.question, self.reader):
                self.hide_answer()            # a new question, or a new reader: the answer is hidden again
            self.header, self.question, self.colour = header, question, colour
            self.reader, self.answer, self.on_phone = reader, answer, on_phone
            self._texts = None
            self.setAccessibleName(f"{header}: {question}")
            self.update()
        for button_, words in zip(self.choices, options or ()):
            button_.set_words(words, tappable)
        for button_ in self.choices:
            button_.setVisible(bool(options))
        self.reveal.setVisible(bool(answer) and not on_phone)
        self._place_choices()

    def toggle_answer(self) -> None:
        if self.revealed:
            self.hide_answer()
            return
        self.revealed = True
        self.hide_timer.start()
        self._place_choices()
        self.update()

    def hide_answer(self) -> None:
        self.hide_timer.stop()
        if self.revealed:
            self.revealed = False
            self._place_choices()
            self.update()

    def hide(self) -> None:                       # the card goes away: the answer with it
        self.hide_answer()
        super().hide()

    def _reveal_words(self, room: int) -> str:
        """The reveal button's words: the longest that fit the row (a long name: shorter words)."""
        if self.revealed:
            return "Hide it"
        metrics = self.reveal.fontMetrics()
        pad = self.reveal.sizeHint().width() - metrics.horizontalAdvance(self.reveal.text()) + 4
        tries = (f"Only {self.reader} looks: show the answer", f"Only {self.reader}: the answer",
                 f"{self.reader}: answer")
        return next((w for w in tries if metrics.horizontalAdvance(w) + pad <= room), tries[-1])

    def _row_height(self) -> int:
        return 0 if not self.answer else int(min(max(self.card_rect().height() * 0.13, 44.0), 56.0))

    def _row(self) -> QRect:
        card = self.card_rect()
        h = self._row_height()
        return QRect(int(card.left() + 14), int(card.bottom() - 8 - h), int(card.width() - 28), h)

    def _row_text(self) -> txt.DrawnText | None:
        """The reader's row in words: the answer while revealed, or where it is (their phone)."""
        if not self.answer or not (self.revealed or self.on_phone):
            return None
        words = (f"Answer (only {self.reader}): {self.answer}" if self.revealed
                 else f"The answer is on {self.reader}'s phone.")
        row = self._row()
        room = row.adjusted(10, 2, -(self.reveal.width() + 14 if self.revealed else 10), -2)
        px, lines, fits = txt.fit(words, room.width(), room.height(), 26, bold=True, max_lines=2)
        h = len(lines) * txt.line_height(px, True)
        return txt.DrawnText("\n".join(lines), px, QRect(room.left(), room.top() + (room.height() - h) // 2,
                                                          room.width(), h), fits, key=True)

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
        row = self._row()
        if self.answer:
            self.reveal.setText(literal(self._reveal_words(row.width())))
            width = min(max(self.reveal.sizeHint().width(), 120), row.width())
            self.reveal.setGeometry(QRect(row.right() - width, row.top(), width, row.height()))
        bottom = row.top() - 6 if self.answer else card.bottom() - 10
        y = bottom - len(shown) * (h + 6) + 6
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
            floor = self._row().top() if self.answer else int(card.bottom() - 8)
            bottom = min((b.geometry().top() for b in shown), default=floor) - 6
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
            row = self._row_text()
            if row is not None:
                self._texts.append(row)
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
        header, question, *row = self.drawn_texts()
        _draw(p, header, bold=True, ink=readable_ink(self.colour), align=Qt.AlignLeft, family=header.family)
        _draw(p, question, bold=True, ink=style.INK)
        if row and self.revealed:             # the answer in bold, as on the reader's card
            p.setPen(QPen(QColor(style.HIGHLIGHT), 2))
            p.setBrush(QColor("#FFF6D6"))
            p.drawRoundedRect(QRectF(self._row()), 8, 8)
        for drawn in row:
            _draw(p, drawn, bold=True, ink=style.INK, align=Qt.AlignLeft)
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

