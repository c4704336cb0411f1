"""Teach the camera your dice: the Sudds & Malone shelf screen where a family shows the camera its dice
pool once, names each group of dice that look alike, and saves the colours with their box.

The learning is vision's (``vision.dice_colours``): the reader finds the dice, groups them by face
colour and pips; this screen shows each group as a drawn die with its count and a name field (white,
black, grey, a player's colour word, or a name of their own), saves the named groups as
``<user dir>/boxes/sudds-malone-dice.toml`` (a file they may correct by hand) and forgets it again.
:func:`family_reader` is the dice-pool reader with the taught colours when there are any, else the
shipped ones, for the table's camera roll. On the simulated table the picture is a rendered pool of
the game's dice.

List it on the shelf with ``dice_colours.SCREEN`` in ``SuddsTable.shelf_screens()``.
"""

from __future__ import annotations

import threading
from pathlib import Path

from PySide6.QtCore import QObject, QRectF, Qt, Signal
from PySide6.QtGui import QColor, QPainter, QPen, QPixmap
from PySide6.QtWidgets import (QComboBox, QFrame, QGridLayout, QHBoxLayout, QLabel, QScrollArea, QVBoxLayout,
                               QWidget)

from engine.paths import user_dir
from vision.dice import DiceError, DicePoolReader
from vision.dice_colours import ColourGroup, group_looks, learn_palette, nearest_name, palette_or_shipped, save_palette

from ...table_base import ShelfScreen
from ...widgets import button, label
from . import dice as pool_dice

#: what the family may call a group: the pool's colours, then the players' own in seating order
NAMES = pool_dice.NEUTRAL + pool_dice.PERSONAL_COLOURS
SIMULATED = -1
# Read from across the table (issue 23): nothing under 15 px.
STYLE = ('QLabel[role="sm"] { font-size: 17px; } QLabel[role="smhead"] { font-size: 19px; font-weight: bold; } '
         'QComboBox { font-size: 17px; }')
INTRO = ("Put all your dice on the table where the camera sees them, pips up, and take a picture. The dice "
         "that look alike make a group: give each group its name. The pool's dice are white, black and grey; "
         "each player's own die is the colour the setup screen gives it (blue, yellow, red, green in seating "
         "order). Roll again and take another picture to show more of them; leave a group's name empty to "
         "leave it out.")


def palette_file() -> Path:
    """The family's dice colours, kept with their box's own values."""
    return user_dir() / "boxes" / "sudds-malone-dice.toml"


def family_reader() -> DicePoolReader:
    """The dice-pool reader with the family's taught colours (the shipped ones when none are taught, or
    when their file cannot be used)."""
    return DicePoolReader(palette_or_shipped(palette_file())[0])


def simulated_pool(seed: int) -> object:
    """The simulated table's dice as its camera sees them: three of each pool colour and four players' dice."""
    players = ["1", "2", "3", "4"]
    values = {f"{c}-{i}": (seed + 2 * i + k) % 6 + 1 for k, c in enumerate(pool_dice.NEUTRAL) for i in range(1, 4)}
    values.update({f"{pool_dice.PERSONAL}{p}": (seed + k) % 6 + 1 for k, p in enumerate(players)})
    return pool_dice.simulated_frame(values, players, seed=seed)


def swatch(group: ColourGroup, side: int = 52) -> QPixmap:
    """A group drawn as a die: its colour, three pips of its pips' kind."""
    pix = QPixmap(side, side)
    pix.fill(Qt.transparent)
    p = QPainter(pix)
    p.setRenderHint(QPainter.Antialiasing)
    b, g, r = group.bgr
    p.setPen(QPen(QColor("#444444"), 2))
    p.setBrush(QColor(r, g, b))
    p.drawRoundedRect(QRectF(2, 2, side - 4, side - 4), side / 7, side / 7)
    p.setPen(Qt.NoPen)
    p.setBrush(QColor({"dark": "#151515", "light": "#F4F4F4", "red": "#D21F1F"}[group.pips]))
    for f in (0.28, 0.5, 0.72):
        p.drawEllipse(QRectF(f * side - side / 12, f * side - side / 12, side / 6, side / 6))
    p.end()
    return pix


class _Grabber(QObject):
    """Takes one picture (camera or simulated table) and finds the dice on it, off the GUI thread."""

    done = Signal(object, str)      # (looks of the dice found, or None; a problem in words)

    def grab(self, camera: int, seed: int) -> None:
        threading.Thread(target=self._run, args=(camera, seed), daemon=True, name="gumshoe-teach-dice").start()

    def _run(self, camera: int, seed: int) -> None:
        from vision.dice_colours import teaching_looks
        from vision.sources import CameraError, WebcamSource
        looks, problem = None, ""
        try:
            if camera == SIMULATED:
                frame = simulated_pool(seed)
            else:
                with WebcamSource(camera) as source:
                    frame = source.read()
            looks = teaching_looks([frame])
        except CameraError as exc:
            problem = str(exc)
        except Exception as exc:        # never a hang or a crash for a picture: say it
            problem = f"The picture could not be read ({exc})."
        try:
            self.done.emit(looks, problem)
        except RuntimeError:            # the screen was closed meanwhile
            pass


class DiceColoursScreen(QWidget):
    """The shelf screen: take a picture (or a few), name the groups, save; or forget the taught colours."""

    def __init__(self, parent: QWidget | None = None) -> None:
        super().__init__(parent)
        self.setObjectName("dice-colours")
        self.setStyleSheet(STYLE)
        self.looks: list = []
        self.groups: list[ColourGroup] = []
        self.name_boxes: list[QComboBox] = []
        self.pictures = 0
        self._grabber = _Grabber(self)
        self._grabber.done.connect(self._found)
        outer = QVBoxLayout(self)
        outer.addWidget(label(INTRO, "sm"))
        self.status = label("", "sm")
        self.status.setObjectName("dice-colours:status")
        outer.addWidget(self.status)
        row = QHBoxLayout()
        row.addWidget(label("Picture from:", "sm", wrap=False))
        self.camera = QComboBox()
        self.camera.setObjectName("dice-colours:camera")
        for i in range(4):
            self.camera.addItem(f"Camera {i + 1}", i)
        self.camera.addItem("The simulated table's dice", SIMULATED)
        row.addWidget(self.camera)
        self.take = button("Take a picture", "primary", name="dice-colours:take")
        self.take.clicked.connect(self.take_picture)
        row.addWidget(self.take)
        self.again = button("Start over", name="dice-colours:start-over")
        self.again.clicked.connect(self.start_over)
        row.addWidget(self.again)
        row.addStretch(1)
        outer.addLayout(row)
        self.found = label("No picture yet.", "smhead")
        self.found.setObjectName("dice-colours:found")
        outer.addWidget(self.found)
        self.scroll = QScrollArea()
        self.scroll.setObjectName("dice-colours:groups")
        self.scroll.setWidgetResizable(True)
        self.scroll.setFrameShape(QFrame.NoFrame)
        self.scroll.setHorizontalScrollBarPolicy(Qt.ScrollBarAlwaysOff)
        outer.addWidget(self.scroll, 1)
        bottom = QHBoxLayout()
        self.message = label("", "sm")
        self.message.setObjectName("dice-colours:message")
        bottom.addWidget(self.message, 1)
        self.forget = button("Forget our dice colours", name="dice-colours:forget")
        self.forget.clicked.connect(self.forget_colours)
        bottom.addWidget(self.forget)
        self.save = button("Save our dice colours", "primary", name="dice-colours:save")
        self.save.clicked.connect(self.save_colours)
        bottom.addWidget(self.save)
        outer.addLayout(bottom)
        self._show_groups()
        self._show_status()

    # --- the picture -------------------------------------------------------------------------
    def take_picture(self) -> None:
        self.take.setEnabled(False)
        self.message.setText("Looking at the dice\u2026")
        self._grabber.grab(int(self.camera.currentData()), self.pictures)

    def _found(self, looks, problem: str) -> None:
        self.take.setEnabled(True)
        if looks is None:
            self.message.setText(problem)
            return
        if not looks:
            self.message.setText("No die was found in the picture: are the dice in sight, pips up?")
            return
        self.pictures += 1
        names = self.names()
        kept = {id(look): names[k] for k, g in enumerate(self.groups) for look in g.looks if names[k]}
        taught = learn_palette(self.groups, names) if any(names) else []
        self.looks += looks
        self.groups = group_looks(self.looks)
        self._show_groups(kept, taught)
        self.message.setText(f"{len(looks)} dice found in this picture.")

    def start_over(self) -> None:
        self.looks, self.groups, self.pictures = [], [], 0
        self._show_groups()
        self.message.setText("")

    def _show_groups(self, kept: dict[int, str] | None = None, taught: list | None = None) -> None:
        """One row per group: the die drawn in its colour, how many dice, its name: the name the family
        gave most of its dice before, else the name of a group they named that it looks like (``taught``),
        else what the shipped colours call it."""
        body = QWidget()
        grid = QGridLayout(body)
        grid.setContentsMargins(0, 0, 0, 0)
        self.name_boxes = []
        for k, group in enumerate(self.groups):
            picture = QLabel()
            picture.setObjectName(f"dice-colours:swatch:{k}")
            picture.setPixmap(swatch(group))
            count = label(f"{group.count} {'die' if group.count == 1 else 'dice'}", "sm", wrap=False)
            count.setObjectName(f"dice-colours:count:{k}")
            box = QComboBox()
            box.setObjectName(f"dice-colours:name:{k}")
            box.setEditable(True)
            box.setInsertPolicy(QComboBox.NoInsert)
            box.addItems(("",) + NAMES)
            box.lineEdit().setPlaceholderText("(left out)")
            given = [kept[id(look)] for look in group.looks if kept and id(look) in kept]
            box.setEditText(max(set(given), key=given.count) if given else
                            (taught and nearest_name(group, taught)) or nearest_name(group))
            box.setMinimumContentsLength(12)
            row, col = divmod(k, 2)
            grid.addWidget(picture, row, 3 * col)
            grid.addWidget(count, row, 3 * col + 1)
            grid.addWidget(box, row, 3 * col + 2)
            self.name_boxes.append(box)
        grid.setColumnStretch(2, 1)
        grid.setColumnStretch(5, 1)
        grid.setRowStretch(len(self.groups) // 2 + 1, 1)
        self.scroll.setWidget(body)
        dice = sum(g.count for g in self.groups)
        self.found.setText(f"{dice} dice in {len(self.groups)} groups, from {self.pictures} "
                           f"{'picture' if self.pictures == 1 else 'pictures'}: name each group." if self.groups
                           else "No picture yet.")
        self.save.setEnabled(bool(self.groups))

    def names(self) -> list[str]:
        return [box.currentText().strip() for box in self.name_boxes]

    # --- saving and forgetting ---------------------------------------------------------------
    def save_colours(self) -> None:
        try:
            colours = learn_palette(self.groups, self.names())
            counts = [g.count for g, name in zip(self.groups, self.names()) if name]
            path = save_palette(palette_file(), colours, counts)
        except (ValueError, DiceError, OSError) as exc:
            self.message.setText(f"Not saved: {exc}")
            return
        self.message.setText(f"Saved: the camera now names your dice with these colours ({path}).")
        self._show_status()

    def forget_colours(self) -> None:
        path = palette_file()
        if path.exists():
            path.unlink()
            self.message.setText("Forgotten: the camera uses Gumshoe's own dice colours again.")
        else:
            self.message.setText("No dice colours were taught: the camera uses Gumshoe's own.")
        self._show_status()

    def _show_status(self) -> None:
        colours, problem = palette_or_shipped(palette_file())
        names = ", ".join(dict.fromkeys(c.name for c in colours))
        if problem:
            self.status.setText(f"Your dice colours file cannot be used: {problem}")
        elif palette_file().exists():
            self.status.setText(f"In use: your dice colours ({names}), kept in {palette_file()}.")
        else:
            self.status.setText(f"In use: Gumshoe's own dice colours ({names}).")
        self.forget.setEnabled(palette_file().exists())


SCREEN = ShelfScreen("dice-colours", "Teach the camera your dice\u2026", DiceColoursScreen)
