"""A Carmen table whose real cards the test chooses, and short ways to play on it."""

from __future__ import annotations

from engine.session import Session
from engine.sim import Truth
from engine.table import Place

FACE = {"loot": 1, "location": 2, "henchman": 3}


class Table:
    """A session plus the truth of every physical card (unspecified ones dealt in deck order)."""

    def __init__(self, players, deal=None, ages=None, path=None):
        options = {"ages": ages} if ages else {}
        self.s = Session.new("carmen-cards", players, options, path=path)
        st = self.s.state
        deck = st.deck
        cards: dict[int, str] = {}
        deal = dict(deal or {})
        used = set()
        for place, key in deal.items():
            tok = st.table.top(Place.parse(place, st.players))
            cid = f"carmen.{st.table.kind(tok)}.{key}"
            assert cid in deck, cid
            cards[tok] = cid
            used.add(cid)
        for kind in deck.kinds:
            spare = [c.id for c in deck.of_kind(kind) if c.id not in used]
            # Columns and center first, then the pile from its top down: the draws come in deck order.
            pile = st.table.at(Place("pile", slot=kind))
            tokens = [t for t in st.table.tokens_where(kind=kind) if t not in cards and t not in pile]
            tokens += [t for t in reversed(pile) if t not in cards]
            cards.update(zip(tokens, spare))
        self.truth = Truth(cards)

    def card(self, place: str) -> str:
        return self.truth.card_at(self.s.state, place)

    def roll(self, player, kind):
        return self.s.apply({"type": "roll", "player": player, "face": FACE[kind]})

    def peek(self, player, slot):
        return self.s.apply({"type": "peek", "player": player, "slot": slot, "card": self.card(slot)})

    def turn(self, player, kind, slot, end=True):
        """Roll ``kind``, look at ``slot``, and (by default) end the turn."""
        self.roll(player, kind)
        self.peek(player, slot)
        if end:
            self.s.apply({"type": "end_turn", "player": player})

    def warrant(self, player, loot, location):
        return self.s.apply({"type": "warrant", "player": player, "loot": loot, "location": location,
                             "loot_card": self.card(loot), "location_card": self.card(location)})

    def final(self, player):
        return self.s.apply({"type": "final_warrant", "player": player, "loot_card": self.card("center/loot"),
                             "location_card": self.card("center/location")})

    def flip(self, player, slot):
        return self.s.apply({"type": "flip_henchman", "player": player, "slot": slot, "card": self.card(slot)})

    def swap(self, player, slot):
        return self.s.apply({"type": "swap", "player": player, "slot": slot})

    def decline(self, player):
        return self.s.apply({"type": "decline_swap", "player": player})

    def end(self, player):
        return self.s.apply({"type": "end_turn", "player": player})

    def where(self, player, key):
        """Where ``player``'s journal puts a card (short id, any kind)."""
        j = self.s.journal(player)
        return next(e.where for e in j.entries if e.card.endswith("." + key))

    def snapshot(self):
        return (self.s.view(None), {p: self.s.view(p) for p in self.s.players})


def pair_deal(players):
    """A deal with known pairs: the first player holds Gandhi's Glasses (loot top), the second
    New Delhi (location top); Carmen is the second player's top henchman."""
    a, b = players[0], players[1]
    return {
        f"{a}/loot/top": "gandhis-glasses", f"{b}/location/top": "new-delhi",
        f"{a}/location/top": "lima", f"{b}/loot/top": "grand-canyon",
        f"{a}/henchman/top": "yul-b-sorry", f"{b}/henchman/top": "carmen-sandiego",
        "center/loot": "statue-of-libertys-torch", "center/location": "new-york",
        "center/henchman": "robin-banks",
    }
