"""The Bonnie and Clyde Mystery Rummy table: the ten locations as the road the Crime Spree car
drives, the car on it, the Case File and the FBI Files as piles, and in front of each player
what they laid down.

Everything is drawn from the engine's shared view and the public state (what lies face up,
how many cards each hand holds, the car, the scores). The card under a location is a face-down
card until someone captures it; the look is asked behind the privacy gate by the shell (the
engine's ``look`` option is private). When the car moves it is seen driving along the road,
one location at a time. Cards laid face up from a hand (a meld, a layoff, Ted Hinton, a discard)
are read by the camera or picked, on the shared screen: a meld or a layoff is the shell's list
read (several cards from the hand). What Ted Hinton does is this table's own small panel.
"""

from __future__ import annotations

from PySide6.QtCore import QPoint, QRectF, Qt
from PySide6.QtGui import QColor, QPainter
from PySide6.QtWidgets import QHBoxLayout, QSizePolicy, QStackedWidget, QVBoxLayout, QWidget

from engine.game import Journal, Option
from engine.session import PlayerView

from ... import style
from ...drawn import DrawnCard, FlightLayer, MotionQueue, Step, flight_step, player_colours
from ...drawn import paint as pt
from ...drawn import text as txt
from ...drawn.items import paint_look
from ...drawn.moves import token_places
from ...table_base import GameTable, TableShell
from ...widgets import button, label
from .journal import notebook
from .setup import SetupPicture
from .board import RouteBoard, cards_words, location_colour
from .rows import PlayerStrip, paint_laid_card

HAND_PLAYS = ("meld", "layoff", "hinton", "discard", "note_hand")


class BonnieClydeTable(GameTable):
    """The road with its ten locations and the car; the Case File and FBI Files; the players."""

    def __init__(self, shell: TableShell) -> None:
        super().__init__(shell)
        session = self.controller.session
        rules = session.rules
        self.board = rules.board
        self.colours = player_colours(session.players)
        outer = QHBoxLayout(self)
        outer.setContentsMargins(0, 0, 0, 0)
        outer.setSpacing(8)
        left = QVBoxLayout()
        left.setSpacing(4)
        self.route = RouteBoard({n: self.board.name(n) for n in self.board.numbers})
        self.slots: dict[str, QWidget] = {}
        for n, stop in self.route.stops.items():
            stop.picked.connect(self._stop_picked)
            stop.refused.connect(self.place_refused)
            self.slots[stop.place] = stop
        left.addWidget(self.route, 12)
        # Under the road, one place of one height: the hand and where the car is, or Ted Hinton's
        # panel while it is open (the road and the rows keep their place and size either way).
        self.car = label("")
        self.car.setObjectName("bc:car")
        self.car.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.car.setAlignment(Qt.AlignLeft | Qt.AlignVCenter)
        self.car.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        self.under_road = QStackedWidget()
        self.under_road.setObjectName("bc:under-road")
        self.under_road.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Fixed)
        self.under_road.addWidget(self.car)
        self.panel = self._panel()
        self.under_road.addWidget(self.panel)
        left.addWidget(self.under_road)
        self.under_road.setFixedHeight(max(self.panel.sizeHint().height(), self.car.sizeHint().height()))
        # In front of each player: one strip each.
        self.players: dict[str, PlayerStrip] = {}
        self.lines = QWidget()
        rows = QVBoxLayout(self.lines)
        rows.setContentsMargins(0, 0, 0, 0)
        rows.setSpacing(4)
        for player in session.players:
            strip = PlayerStrip(player, self.colours[player])
            self.players[player] = strip
            rows.addWidget(strip, 1)
        left.addWidget(self.lines, 8)
        outer.addLayout(left, 5)
        piles = QVBoxLayout()
        piles.setSpacing(4)
        for place in ("casefile", "files"):
            card = DrawnCard(place)
            card.setMinimumSize(120, 60)
            card.picked.connect(self.place_clicked)
            card.refused.connect(self.place_refused)
            self.slots[place] = card
            piles.addWidget(card, 1)
        outer.addLayout(piles, 1)
        self.pending: tuple[Option, str] | None = None
        #: Ted Hinton is about to look: the locations he may look under glow, a click chooses
        self.looking = False
        self._last: tuple | None = None
        self.motion = MotionQueue(self)
        self.flights = FlightLayer(self)
        #: what the family last saw: the car (where, in which hand), where each card lay, the FBI
        #: Files' top card; a move made while the table was hidden (behind the privacy gate) is
        #: played when it shows again, so the family sees it
        self._car_seen: tuple[int, int] | None = None
        self._places_seen: dict[int, str] | None = None
        self._hand_seen = 0
        self._files_seen = self.slots["files"].look
        self._unseen = False

    def _panel(self) -> QWidget:
        """What Ted Hinton does (the action just clicked was his): draw two, take from the FBI Files,
        or look under a location (then the locations he may look under glow on the board, the row
        says to click one, and a click on one chooses it). One row in the place of the line under
        the road, the same height: nothing else on the table moves, the players' rows stay in sight."""
        panel = QWidget()
        panel.setStyleSheet("QPushButton { padding: 8px 8px; }")     # the four fit at 1280 px
        uses = QHBoxLayout(panel)
        uses.setContentsMargins(0, 0, 0, 0)
        self.panel_title = label("")
        self.panel_title.setObjectName("bc:panel-title")
        self.panel_title.setStyleSheet("font-size: 15pt; font-weight: bold;")
        self.panel_title.setSizePolicy(QSizePolicy.Ignored, QSizePolicy.Preferred)
        uses.addWidget(self.panel_title, 1)
        for use, words in (("draw", "Draw 2 cards"), ("take", "Take from the FBI Files"),
                           ("look", "Look under a location")):
            b = button(words, name=f"bc:use:{use}")
            b.clicked.connect(lambda _=False, u=use: self._hinton(u))
            uses.addWidget(b)
        cancel = button("Cancel", name="bc:cancel")
        cancel.clicked.connect(self._close)
        uses.addWidget(cancel)
        return panel

    # --- the contract ------------------------------------------------------------------
    def shows(self, place: str) -> bool:
        return place in self.slots

    def handles(self, option: Option) -> bool:
        return option.action in HAND_PLAYS or (option.action == "deal" and self._first_deal())

    def _first_deal(self) -> bool:
        """The game's first hand is about to be dealt: the setup screen said who deals it."""
        return self.controller.session.state.hand_no == 0

    def start(self, option: Option, player: str) -> None:
        """Cards from a hand: the shell's reads. Ted Hinton: this table's panel first. The first
        deal: by the dealer the setup screen named (the engine's suggested dealer, listed first),
        never asked again; the first card of the FBI Files is read."""
        if option.action == "deal":
            dealer = option.targets["player"][0]
            action = {"type": "deal", "player": dealer,
                      **{field: values[0] for field, values in option.targets.items() if field != "player"}}
            reads = [(card, str(action[place])) for card, place in option.reads.items()]
            self.shell.read_cards(action, reads, private=False,
                                  heading=f"{dealer} deals: turn up the first card of the FBI Files.\n"
                                          f"Show it to the camera, or pick it.")
            return
        hand = f"{player}/hand"
        if option.action == "discard":
            self.shell.read_cards({"type": "discard", "player": player}, [("card", hand)],
                                  private=False, heading=f"{player}, show the card you discard.")
            return
        if option.action == "note_hand":
            self.shell.read_card_list({"type": "note_hand", "player": player}, "cards", hand, private=True,
                                      heading=f"{player}, show the cards of your hand you want noted in your "
                                              f"journal.", least=1)
            return
        if option.action in ("meld", "layoff"):
            meld = option.action == "meld"
            what = ("three or more Evidence cards of one location" if meld else
                    "one Evidence card, or two of the same location, for a meld on the table")
            self.shell.read_card_list({"type": option.action, "player": player}, "cards", hand, private=False,
                                      heading=f"{player}, lay {what} face up.", least=3 if meld else 1,
                                      most=None if meld else 2, kinds=("evidence",),
                                      demo_cards=self._demo_play(player, meld))
            return
        self.pending = (option, player)
        self.looking = False
        self.panel_title.hide()                    # the choice's words are on its buttons
        for use in ("draw", "take", "look"):       # only what he may do now
            self.panel.findChild(QWidget, f"bc:use:{use}").setVisible(use in option.targets.get("use", ()))
        self.under_road.setCurrentWidget(self.panel)

    def _demo_play(self, player: str, meld: bool) -> list[str]:
        """On the simulated table: the cards the simulated camera holds up for a meld or a layoff
        (a legal one when the simulated hand has it)."""
        if not self.controller.demo:
            return []
        state = self.controller.session.state
        rules = self.controller.session.rules
        groups: dict[int, list[str]] = {}
        for card in self.controller.true_cards_in(f"{player}/hand"):
            if rules.kind_of(card) == "evidence":
                groups.setdefault(rules.location_of[card], []).append(card)
        for number, cards in sorted(groups.items()):
            if meld and len(cards) >= 3:
                return cards[:3]
            if not meld and number in state.melded:
                return cards[:1]
        return []

    def _close(self) -> None:
        self.pending = None
        self.looking = False
        self.under_road.setCurrentWidget(self.car)
        self._redraw()

    def _hinton(self, use: str, location: str | None = None) -> None:
        if self.pending is None:
            return
        option, player = self.pending
        action = {"type": "hinton", "player": player, "use": use}
        if use == "look":
            if location is None:          # the board shows where he may look: a click there chooses
                self.looking = True
                self.panel_title.setText(f"{player}: click the location Ted Hinton looks under.")
                self.panel_title.show()
                for use in ("draw", "take", "look"):       # the choice is made: only Cancel stays
                    self.panel.findChild(QWidget, f"bc:use:{use}").hide()
                self._redraw()
                return
            action["location"] = location
        self._close()
        self.shell.read_cards(action, [("card", f"{player}/hand")], private=False,
                              heading=f"{player}, show the Ted Hinton card you play.")

    def _stop_picked(self, place: str) -> None:
        """A location clicked: where Ted Hinton looks when he is about to, else the shell's move."""
        if self.looking and self.pending is not None:
            self._hinton("look", place)
        else:
            self.place_clicked.emit(place)

    def _redraw(self) -> None:
        if self._last is not None:
            self.refresh(*self._last)

    def field_words(self, option: Option, field: str) -> str:
        words = {"location": "the location", "direction": "where the car goes", "pile": "the FBI Files",
                 "player": "who deals"}
        return words.get(field, super().field_words(option, field))

    def refresh(self, view: PlayerView, legal: set[str], chosen: set[str]) -> None:
        self._last = (view, legal, chosen)
        if self.looking and self.pending is not None:
            legal = {str(place) for place in self.pending[0].targets.get("location", ())}
        session = self.controller.session
        state = session.state
        rules = session.rules
        by_place: dict[str, list] = {}
        for card in view.cards:
            by_place.setdefault(card.place, []).append(card)
        for n, stop in self.route.stops.items():
            place = stop.place
            stop.show_stop(bool(by_place.get(place)), place in legal, place in chosen)
        self.route.update()               # the halo of a legal location
        casefile = by_place.get("casefile", [])
        self.slots["casefile"].set_look(pt.CardLook(caption="Case File", symbol=style.kind_symbol(1),
                                                    colour=style.kind_colour(1), present=bool(casefile),
                                                    notes=(cards_words(len(casefile)),), count=len(casefile)),
                                        legal="casefile" in legal, chosen="casefile" in chosen)
        if not self._unseen:
            self._files_seen = self.slots["files"].look     # a card taken from the Files flies with this face
        files = by_place.get("files", [])
        top = files[-1] if files else None
        named = top.name if top and top.face_up else None
        self.slots["files"].set_look(pt.CardLook(caption="FBI Files", symbol=style.kind_symbol(2),
                                                 colour=style.kind_colour(2), name=named, face_up=bool(named),
                                                 present=bool(files),
                                                 notes=(cards_words(len(files)),) if files else (),
                                                 count=len(files)),
                                     legal="files" in legal, chosen="files" in chosen)
        self.car.setText(f"Hand {max(state.hand_no, 1)}, playing to {state.target}. "
                         f"The Crime Spree car is on {rules.loc_words(state.car)}.")
        self.route.set_car(state.car)
        totals = state.scores.totals()
        names = {n: self.board.name(n) for n in self.board.numbers}
        for player, strip in self.players.items():
            points = rules.table_points(state, player)
            melds = []
            for place, cards in sorted(by_place.items(), key=lambda item: item[0]):
                parts = place.split("/")
                if parts[0] == player and len(parts) == 3 and parts[1] in ("played", "sideways"):
                    melds.append((int(parts[2]), len(cards), parts[1] == "sideways"))
            melds.sort()
            outlaws = [c.name for c in by_place.get(f"{player}/captured", []) if c.name]
            strip.show_player(current=player == view.current and view.outcome is None,
                              hand=len(by_place.get(f"{player}/hand", [])), melds=melds, outlaws=outlaws,
                              points=points["points"], total=totals[player], names=names)
        self._follow(state)

    # --- movements ----------------------------------------------------------------------
    def _follow(self, state) -> None:
        """What moved since the family last looked, played in order, one movement at a time: the
        cards laid down, drawn, taken or captured fly from where they were to where they lie
        now, then the car drives along the road. Out of sight (behind the privacy gate) the
        table keeps showing the car where it was, and plays it all when it shows again."""
        if not self.isVisible():
            self._unseen = True
            seen = self._car_seen
            if seen is not None and seen[1] == state.hand_no and seen[0] != state.car and not self.motion.busy:
                self.route.shown_at = seen[0]
            return
        self._unseen = False
        if not self.motion.busy:
            self.route.shown_at = None
        steps = self._card_steps(state) + self._car_legs(state.car, state.hand_no)
        if steps:
            self.motion.play(steps)

    def showEvent(self, event) -> None:
        super().showEvent(event)
        if self._unseen:
            self._follow(self.controller.session.state)

    def _car_legs(self, car: int, hand: int) -> list[Step]:
        """The car drives from where it was to where it is, one location at a time; a new hand
        puts it back at the start at once (the family moves it by hand)."""
        before, self._car_seen = self._car_seen, (car, hand)
        if before is None:
            return []
        was, was_hand = before
        if was == car or was_hand != hand:
            return []
        way = 1 if car > was else -1
        return [self.route.leg(n, n + way) for n in range(was, car, way)]

    def _card_steps(self, state) -> list[Step]:
        """A step for each (from, to) pair of places cards moved between, in the order of the cards."""
        now = token_places(state)
        before, self._places_seen = self._places_seen, now
        hand_before, self._hand_seen = self._hand_seen, state.hand_no
        if before is None or hand_before != state.hand_no:
            return []                            # a new hand is dealt by the family: nothing flies
        if self.layout() is not None:
            self.layout().activate()             # where the cards now lie has its geometry
        groups: dict[tuple[str, str], int] = {}
        for tok in sorted(now):
            if tok in before and before[tok] != now[tok]:
                groups[(before[tok], now[tok])] = groups.get((before[tok], now[tok]), 0) + 1
        steps = []
        for (src, dst), count in groups.items():
            step = self._flight(src, dst, count, sum(1 for place in before.values() if place == dst),
                                set(before.values()))
            if step is not None:
                steps.append(step)
        return steps

    def _strip_key(self, place: str) -> tuple[PlayerStrip | None, object]:
        """The player's row a place lies in, and which of its groups it is (a meld, the outlaws, the hand)."""
        parts = place.split("/")
        strip = self.players.get(parts[0])
        if strip is None or len(parts) < 2:
            return None, None
        if parts[1] in ("played", "sideways") and len(parts) == 3:
            return strip, (int(parts[2]), parts[1] == "sideways")
        return strip, "outlaws" if parts[1] == "captured" else "hand"

    def _at(self, widget: QWidget, rect: QRectF) -> QRectF:
        origin = widget.mapTo(self, QPoint(0, 0))
        return rect.translated(origin.x(), origin.y())

    def _flight(self, src: str, dst: str, count: int, at_dst: int, held_before: set[str]) -> Step | None:
        """``count`` cards flying from ``src`` to ``dst`` (which held ``at_dst`` cards before; the
        places that held cards before: ``held_before``)."""
        to_strip, key = self._strip_key(dst)
        from_strip, from_key = self._strip_key(src)
        if to_strip is not None and to_strip is from_strip and "hand" in (key, from_key) and key == from_key:
            return None                          # within a hand (Ted Hinton put in play): not on the table
        hold: list = []
        # Where they land, one rectangle a card.
        if to_strip is not None and key != "hand":
            if not to_strip.isVisible():
                return None
            ends = [self._at(to_strip, r) for r in to_strip.landing_rects(key)[-count:]]
            hold.append((lambda s=to_strip, k=key, b=at_dst: s.keep(k, b), lambda s=to_strip, k=key: s.let_go(k)))
        elif to_strip is not None:
            if not to_strip.isVisible():
                return None
            ends = [self._at(to_strip, to_strip.hand_rect(to_strip.card_size()))] * count
        elif dst in self.slots and isinstance(self.slots[dst], DrawnCard):
            slot = self.slots[dst]
            ends = [self._at(slot, slot.card_rect())] * count
            hold.append((slot.hold, slot.release))
        elif dst in self.slots:
            stop = self.slots[dst]
            ends = [self._at(stop, stop.card_rect())] * count
        else:
            return None
        if not ends:
            return None
        # Where they leave from.
        if from_strip is not None:
            if not from_strip.isVisible():
                return None
            starts = [self._at(from_strip, from_strip.hand_rect(end.size())) for end in ends]
        elif src in self.slots and isinstance(self.slots[src], DrawnCard):
            slot = self.slots[src]
            starts = [self._at(slot, slot.card_rect())] * len(ends)
        elif src in self.slots:
            stop = self.slots[src]
            starts = [self._at(stop, stop.card_rect())] * len(ends)
        else:
            return None
        painter = self._card_painter(src, dst, key)
        flights = [(painter, start, end) for start, end in zip(starts, ends)]

        def keep() -> None:
            for on, _ in hold:
                on()

        def land() -> None:
            for _, off in hold:
                off()

        laid = isinstance(key, tuple) and any(f"{dst.split('/')[0]}/{area}/{key[0]}" in held_before
                                              for area in ("played", "sideways"))
        return flight_step(self.flights, flights, what=self._move_words(src, dst, key, laid), hold=keep, land=land)

    def _card_painter(self, src: str, dst: str, key: object):
        """How a card on its way looks: an Evidence card in its location's colour with its number,
        a captured outlaw's red card, the FBI Files' top card, or a card's back."""
        if isinstance(key, tuple):
            number = key[0]

            def evidence(p: QPainter, rect: QRectF) -> None:
                paint_laid_card(p, rect, location_colour(number))
                p.setPen(QColor(style.INK))
                p.setFont(txt.font(max(min(int(rect.height() * 0.4), 28), txt.LEAST_PX), True))
                p.drawText(rect.adjusted(3, 2, -3, 0), int(Qt.AlignLeft | Qt.AlignTop), str(number))
            return evidence
        if key == "outlaws":
            return lambda p, rect: paint_laid_card(p, rect, style.VERMILLION)
        if dst in self.slots and isinstance(self.slots[dst], DrawnCard):
            return self.slots[dst].paint_at          # a discard: the FBI Files' new top card
        if src == "files":
            look, size = self._files_seen, self.slots["files"].card_rect().size()
            return lambda p, rect: paint_look(p, rect, look, size)
        return lambda p, rect: pt.paint_back(p, rect, style.kind_colour(0))

    @staticmethod
    def _move_words(src: str, dst: str, key: object, laid_before: bool) -> str:
        if isinstance(key, tuple):
            return "layoff" if laid_before else "meld"      # a layoff: onto a location already melded
        if key == "outlaws":
            return "capture"
        if dst == "files":
            return "discard"
        return {"casefile": "draw", "files": "take"}.get(src, "move")

    def setup_widget(self) -> QWidget:
        """The layout of a hand drawn: the road with a card under each location and the car on its
        start, each player's hand with how many cards to deal, the Case File and the FBI Files."""
        return SetupPicture(self.controller)

    def journal_widget(self, journal: Journal) -> QWidget:
        """The detective's notebook: a row per location (its Evidence cards, what lies under it),
        then the Outlaws and Ted Hinton (:mod:`.journal`)."""
        names = {n: self.board.name(n) for n in self.board.numbers}
        return notebook(journal, names, self.controller.session.rules.location_of,
                        {kind: info.name for kind, info in self.controller.deck.kinds.items()})
