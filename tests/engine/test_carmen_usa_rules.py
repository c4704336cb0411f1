"""Where in the USA is Carmen Sandiego, rule by rule.

Each test names the rulebook section it checks (shared/rulebooks/where-in-the-usa-is-carmen-sandiego.txt)
and, for ambiguous points, the reading written in docs/rules/carmen-usa.md.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.errors import BadInput, RuleViolation
from engine.session import Session
from engine.sim import Truth
from engine.table import Place

LANDMARKS = ("denali", "mount-rainier", "crater-lake", "old-faithful", "rocky-mountain", "mount-rushmore",
             "sleeping-bear-dunes", "lincoln-home", "liberty-bell", "statue-of-liberty", "old-north-church",
             "acadia", "pearl-harbor", "alcatraz", "grand-canyon", "four-corners", "arches", "carlsbad-caverns",
             "big-bend", "gateway-arch", "new-orleans-jazz", "mammoth-cave", "wright-brothers", "everglades")
COLOURS = ("orange", "purple", "red", "yellow", "green", "blue", "pink", "brown")
# The default deal: the 8 Warrants on the first 8 landmarks, then the 8 Loot, then the 8 Crooks
# (colours in the order above): e.g. Denali = orange Warrant, Liberty Bell = orange Loot,
# Arches = orange Crook, Mount Rainier = purple Warrant, Statue of Liberty = purple Loot.
DEFAULT = {lm: f"{COLOURS[i % 8]}-{('warrant', 'loot', 'crook')[i // 8]}" for i, lm in enumerate(LANDMARKS)}


def cid(key: str) -> str:
    return f"carmen-usa.{key.rsplit('-', 1)[1]}.{key}"


class UsaTable:
    """A session plus the true card in every box (``deal``: landmark -> "colour-kind")."""

    def __init__(self, players=("Ann", "Bob", "Cy"), deal=None, ages=None, colour="red", variant="standard",
                 pieces=None, path=None):
        options = {"questions": colour, "challenge": variant}
        if ages:
            options["ages"] = ages
        self.s = Session.new("carmen-usa", list(players), options, path=path)
        st = self.s.state
        cards = {st.boxes[lm]: cid(key) for lm, key in {**DEFAULT, **(deal or {})}.items()}
        assert len(set(cards.values())) == 24, "a deal must use each Clue Card once"
        caps = sorted(c.id for c in st.deck.of_kind("capital"))
        cards.update(zip(sorted(st.table.tokens_where(kind="capital")), caps))
        self.truth = Truth(cards)
        if pieces is not None:
            for p, lm in zip(st.order, pieces):
                self.s.apply({"type": "place_piece", "player": p, "landmark": lm})

    # --- short ways to play ----------------------------------------------------------
    @property
    def p(self):
        return self.s.prompt()

    def card(self, lm: str) -> str:
        return self.truth.card_at(self.s.state, f"box/{lm}")

    def ask(self, question=None):
        q = question or self.p.option("ask").targets["question"][0]
        return self.s.apply({"type": "ask", "player": self.p.player, "question": q})

    def answer(self, correct: bool, choices: bool = False):
        if choices:
            self.s.apply({"type": "choices", "player": self.p.player})
        return self.s.apply({"type": "answer", "player": self.p.player, "correct": correct})

    def move(self, lm: str):
        return self.s.apply({"type": "move", "player": self.p.player, "landmark": lm})

    def look(self):
        box = self.p.option("look").targets["box"][0]
        return self.s.apply({"type": "look", "player": self.p.player, "box": box,
                             "card": self.truth.card_at(self.s.state, box)})

    def go(self, lm: str, choices: bool = False):
        """A whole turn: a question answered right, a move to ``lm``, a look if one is due."""
        self.ask()
        self.answer(True, choices)
        self.move(lm)
        if self.p.option("look"):
            self.look()

    def call(self, lm: str):
        return self.s.apply({"type": "call", "player": self.p.player, "box": f"box/{lm}", "card": self.card(lm)})

    def snapshot(self):
        s = self.s
        return [s.view(p) for p in (*s.players, None)], s.prompt()


def box_of(journal, landmark: str) -> dict:
    """What a journal says of one Landmark Box (how it is known, and the card when known)."""
    line = next(d for d in journal.deductions if d.kind == "boxes")
    return next(b for b in line.data["boxes"] if b["landmark"] == landmark)


def texts(events):
    return [e.text for e in events]


def unchanged(t: UsaTable, action: dict, exc=RuleViolation) -> RuleViolation:
    before = t.snapshot()
    with pytest.raises(exc) as info:
        t.s.apply(action)
    assert t.snapshot() == before
    return info.value


def two(**kw) -> UsaTable:
    """Ann and Bob, pieces on Big Bend and Everglades (both Crooks by default)."""
    return UsaTable(("Ann", "Bob"), pieces=("big-bend", "everglades"), **kw)


def three(**kw) -> UsaTable:
    return UsaTable(("Ann", "Bob", "Cy"), pieces=("big-bend", "everglades", "mammoth-cave"), **kw)


# --- Set Up ----------------------------------------------------------------------------
def test_setup_one_clue_card_face_down_per_landmark_box_and_capitals_aside():
    """Set Up 2: one Clue Card face down on each of the 24 Landmark Boxes; Capital Tokens set aside."""
    t = UsaTable()
    st = t.s.state
    for lm in LANDMARKS:
        tok = st.table.top(Place("box", slot=lm))
        assert tok is not None and not st.table.face_up(tok)
    assert st.table.count(Place("capitals")) == 50
    assert all(e.where == "Unknown" for e in t.s.journal("Ann", "notes").entries)


@pytest.mark.parametrize("players", [["Solo"], ["A", "B", "C", "D", "E", "F", "G"]])
def test_two_to_six_agents(players):
    """Contents: 6 playing pieces; the game needs two agents at least."""
    with pytest.raises(RuleViolation, match="2 to 6"):
        Session.new("carmen-usa", players)


@pytest.mark.parametrize("players", [["Ann", "Ann"], ["Ann", "box"], ["A/B", "C"], ["", "Bob"], ["~x", "Bob"]])
def test_bad_names_refused(players):
    with pytest.raises(BadInput):
        Session.new("carmen-usa", players)


@pytest.mark.parametrize("options", [{"questions": "green"}, {"challenge": "hard"}, {"ages": {"Zed": 4}}])
def test_bad_setup_options_refused(options):
    with pytest.raises(BadInput):
        Session.new("carmen-usa", ["Ann", "Bob"], options)


def test_pieces_youngest_to_oldest_one_per_landmark():
    """Set Up 4: from youngest to oldest each places a piece on a vacant landmark."""
    t = UsaTable(("Ann", "Bob", "Cy"), ages={"Ann": 12, "Bob": 7, "Cy": 9})
    assert t.p.player == "Bob" and "denali" in t.p.option("place_piece").targets["landmark"]
    t.s.apply({"type": "place_piece", "player": "Bob", "landmark": "denali"})
    assert t.p.player == "Cy" and "denali" not in t.p.option("place_piece").targets["landmark"]
    err = unchanged(t, {"type": "place_piece", "player": "Cy", "landmark": "denali"})
    assert err.section == "Set Up" and "only one piece" in err.message
    unchanged(t, {"type": "place_piece", "player": "Cy", "landmark": "narnia"}, BadInput)
    t.s.apply({"type": "place_piece", "player": "Cy", "landmark": "arches"})
    t.s.apply({"type": "place_piece", "player": "Ann", "landmark": "everglades"})
    # Reading and Answering Questions: the agent on the youngest's right reads to the youngest.
    assert t.p.player == "Ann" and t.p.text == "Ann, read a red question to Bob."


def test_question_colour_chosen_at_setup():
    """Set Up 3: the youngest chooses red, blue or black questions for the game."""
    t = two(colour="black")
    targets = t.p.option("ask").targets["question"]
    bank = t.s.rules.bank
    assert targets and all(bank.question(q).set == "black" for q in targets)
    red = next(q for q in bank.questions.values() if q.set == "red").id
    assert unchanged(t, {"type": "ask", "player": "Bob", "question": red}).section == "Set Up"


# --- Reading and Answering Questions / Correct Answers ------------------------------------
@pytest.mark.parametrize("choices,allowance", [(False, 5), (True, 3)])
def test_right_answer_allowance(choices, allowance):
    """Correct Answers/Movement: 5 spaces without the choices, 3 with them."""
    t = two()
    t.ask()
    events = t.answer(True, choices)
    assert events[-1].data["allowance"] == allowance
    assert t.p.option("move") and f"up to {allowance} spaces" in t.p.text


def test_wrong_answer_no_move_and_with_two_agents_no_backup():
    """Incorrect Answers: "Do not use this rule when only two agents are playing."""
    t = two()
    t.ask()
    events = t.answer(False)
    assert "answered wrong" in events[0].text and "the answer:" in events[0].text
    assert t.p.player == "Ann" and t.p.option("ask")          # Ann reads to Bob: Bob's turn
    assert t.s.state.answerer == "Bob" and t.s.state.pieces["Ann"] == "big-bend"


def test_choices_read_once_and_shown_after_asking_for_them():
    """Reading and Answering Questions: the reader reads the choices when asked."""
    t = two()
    t.ask()
    events = t.s.apply({"type": "choices", "player": "Ann"})
    q = t.s.rules.bank.question(t.s.state.question)
    assert all(o in events[0].text for o in q.options)
    assert t.p.option("choices") is None
    unchanged(t, {"type": "choices", "player": "Ann"})


def test_a_question_is_not_read_twice():
    """Reading and Answering Questions: the reader picks the *top* card: a read card is not read again."""
    t = two()
    first = t.p.option("ask").targets["question"][0]
    t.ask(first)
    t.answer(False)
    assert first not in t.p.option("ask").targets["question"]
    assert "read already" in unchanged(t, {"type": "ask", "player": "Ann", "question": first}).message


def test_only_the_right_agent_acts():
    """Reading and Answering Questions: the agent on the right reads; the answerer answers."""
    t = two()
    assert "Bob's move" in unchanged(t, {"type": "ask", "player": "Ann", "question": "capital-of.MN"}).message
    unchanged(t, {"type": "answer", "player": "Zed", "correct": True}, BadInput)
    t.ask()
    unchanged(t, {"type": "answer", "player": "Bob", "correct": True})
    unchanged(t, {"type": "answer", "player": "Ann", "correct": "yes"}, BadInput)


# --- Incorrect Answers: the back-up agent ---------------------------------------------
def test_backup_answers_right_without_choices_earns_5_and_it_is_their_turn():
    """Incorrect Answers: the back-up (on the left) may answer; 5 without choices; it counts as their turn."""
    t = three()
    t.ask()
    t.answer(False)
    assert t.p.player == "Bob" and {o.action for o in t.p.options} == {"answer", "choices", "pass"}
    events = t.answer(True)
    assert events[0].data["allowance"] == 5
    t.move("denali")
    t.look()
    # Play passes to the left of the back-up: Bob reads to Cy.
    assert t.p.player == "Bob" and t.s.state.answerer == "Cy"


def test_backup_after_first_used_choices_earns_3_and_hears_them_again():
    """Incorrect Answers: if the first agent used the choices, the back-up earns 3 for a right answer."""
    t = three()
    t.ask()
    t.answer(False, choices=True)
    assert t.answer(True)[0].data["allowance"] == 3


def test_backup_may_ask_to_hear_the_choices_again():
    """Incorrect Answers: "If the first agent used multiple choice options, the back-up agent may ask to
    hear the choices again, and earns 3 spaces for a correct answer." """
    t = three()
    t.ask()
    first = t.s.apply({"type": "choices", "player": "Ann"})
    t.answer(False)
    assert t.p.player == "Bob" and t.p.option("choices").label == "Hear the choices again"
    again = t.s.apply({"type": "choices", "player": "Bob"})
    assert again[0].text == first[0].text.replace("The choices:", "The choices again:")
    assert again[0].data["options"] == first[0].data["options"] and len(again[0].data["options"]) == 3
    assert t.p.option("choices") is None                  # heard again once: now answer or pass
    unchanged(t, {"type": "choices", "player": "Bob"})
    assert t.answer(True)[0].data["allowance"] == 3


def test_backup_may_ask_for_the_choices_when_the_first_did_not():
    """Incorrect Answers: the back-up may earn 3 with the choices when the first agent did not use them."""
    t = three()
    t.ask()
    t.answer(False)
    assert t.answer(True, choices=True)[0].data["allowance"] == 3


def test_backup_wrong_ends_their_turn():
    """Incorrect Answers: a back-up's wrong answer ends their turn; they read to the agent on their left."""
    t = three()
    t.ask()
    t.answer(False)
    t.answer(False)
    assert t.p.player == "Bob" and t.s.state.answerer == "Cy" and t.p.option("ask")


def test_backup_pass_gets_a_new_question_from_the_first_agent():
    """Incorrect Answers: "I pass": the first agent reads a new question to the back-up agent."""
    t = three()
    t.ask()
    t.answer(False)
    t.s.apply({"type": "pass", "player": "Bob"})
    assert t.p.player == "Ann" and t.s.state.answerer == "Bob"
    t.ask()
    assert t.answer(True)[0].data["allowance"] == 5


def test_pass_only_for_a_backup():
    """Incorrect Answers: only a back-up agent may pass (agents must answer on their turn)."""
    t = three()
    t.ask()
    assert unchanged(t, {"type": "pass", "player": "Ann"}).section == "Incorrect Answers"


# --- moving and looking ----------------------------------------------------------------
def test_reaching_a_crook_is_a_private_look_and_it_goes_back_face_down():
    """Clue Cards: a Crook is looked at, memorised and returned face down without showing it."""
    t = two()
    t.ask()
    t.answer(True)
    t.move("arches")                                   # the orange Crook
    assert t.p.option("look").reads == {"card": "box"} and t.p.option("look").private
    t.look()
    st = t.s.state
    assert not st.table.face_up(st.boxes["arches"])
    assert t.s.journal("Ann").where(cid("orange-crook")) == "Arches"
    assert t.s.journal("Bob").where(cid("orange-crook")) == "Unknown"
    shared = " ".join(t.s.public_log() + t.s.undo_history())
    assert "Vic the Slick" not in shared
    bob_box = box_of(t.s.journal("Bob"), "arches")
    assert bob_box["how"] == "crook" and bob_box["card"] is None
    ann_box = box_of(t.s.journal("Ann"), "arches")
    assert ann_box["how"] == "seen"


@pytest.mark.parametrize("lm,key", [("denali", "orange-warrant"), ("liberty-bell", "orange-loot")])
def test_warrant_and_loot_go_back_face_up_for_everyone(lm, key):
    """Clue Cards: a Warrant or Loot is returned face up."""
    t = two()
    t.go(lm)
    st = t.s.state
    assert st.table.face_up(st.boxes[lm])
    for p in ("Ann", "Bob"):
        assert t.s.journal(p).where(cid(key)) == t.s.rules.landmark_name[lm]
    assert any(t.s.rules.deck.name_of(cid(key)) in line for line in t.s.public_log())


def test_bigger_challenge_loot_goes_back_face_down():
    """A Bigger Challenge for Gumshoes: Loot is treated like a Crook (back face down)."""
    t = two(variant="bigger")
    t.go("liberty-bell")
    st = t.s.state
    assert not st.table.face_up(st.boxes["liberty-bell"])
    assert t.s.journal("Bob").where(cid("orange-loot")) == "Unknown"
    box = box_of(t.s.journal("Bob"), "liberty-bell")
    assert box["how"] == "crook-or-loot"
    t.go("denali")                          # Bob: a Warrant still goes face up
    assert t.s.state.table.face_up(t.s.state.boxes["denali"])


def test_look_only_at_the_landmark_reached_and_only_a_clue_card():
    """Landmarks and Landmark Boxes: the only way to look at a card is to reach its landmark."""
    t = two()
    t.ask()
    t.answer(True)
    t.move("arches")
    unchanged(t, {"type": "look", "player": "Ann", "box": "box/denali", "card": t.card("denali")})
    unchanged(t, {"type": "look", "player": "Ann", "box": "box/arches", "card": "carmen-usa.capital.mn"}, BadInput)
    unchanged(t, {"type": "end_turn", "player": "Ann"})


def test_must_move_off_a_landmark():
    """Making An Accusation: agents must move off a landmark on the next turn in which they move."""
    t = two()
    t.ask()
    t.answer(True)
    assert "big-bend" not in t.p.option("move").targets["landmark"]
    err = unchanged(t, {"type": "move", "player": "Ann", "landmark": "big-bend"})
    assert err.section == "Making An Accusation"
    t.move("none")
    assert t.s.state.pieces["Ann"] is None


def test_a_known_face_down_card_or_an_empty_box_needs_no_look():
    """Clue Cards: a card the agent already saw needs no second look (our reading, docs: Looking)."""
    t = two()
    t.go("arches")                        # Ann sees the orange Crook
    t.go("carlsbad-caverns")              # Bob
    t.ask()
    t.answer(True)
    t.move("big-bend")                    # Ann: unknown crook -> look
    t.look()
    t.go("denali")                        # Bob
    t.ask()
    t.answer(True)
    events = t.move("arches")             # Ann knows this one: the turn just ends
    assert t.s.state.answerer == "Bob" and events[-1].type == "turn"


# --- Making An Accusation -------------------------------------------------------------
def play_to_accusation(t: UsaTable) -> None:
    """Ann turns up the orange Warrant at Denali, Bob plays, Ann answers right and may accuse in place."""
    t.go("denali")
    assert t.p.option("accuse") is None                       # not the turn she turned it up
    t.go("crater-lake")                                       # Bob
    t.ask()
    t.answer(True)


def test_no_accusation_on_the_turn_a_warrant_is_turned_up():
    """Making An Accusation: no accusation on the same turn an agent turns up a Warrant."""
    t = two()
    t.ask()
    t.answer(True)
    t.move("denali")
    t.look()
    assert t.s.state.answerer == "Bob"          # the turn ended: no accusation was offered


def test_accusation_only_after_a_right_answer_on_your_turn():
    """Making An Accusation: only on your turn, never on a turn you answer wrong."""
    t = two()
    t.go("denali")
    t.go("crater-lake")
    t.ask()
    unchanged(t, {"type": "accuse", "player": "Ann"})
    t.answer(False)
    assert t.s.state.answerer == "Bob"
    unchanged(t, {"type": "accuse", "player": "Ann"})


def test_accusation_only_from_a_landmark_with_a_face_up_warrant():
    """Making An Accusation: only from a landmark that shows a face-up Warrant."""
    t = two()
    t.ask()
    t.answer(True)
    assert t.p.option("accuse") is None
    assert "no face-up Warrant" in unchanged(t, {"type": "accuse", "player": "Ann"}).message


def test_true_accusation_warrant_loot_crook_in_order_wins():
    """Making An Accusation / Winning the Game: Warrant, then its Loot, then its Crook: a win."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    assert t.p.option("call").reads == {"card": "box"} and not t.p.option("call").private
    assert "box/denali" not in t.p.option("call").targets["box"]      # the Warrant is in Ann's hand
    events = t.call("liberty-bell")
    assert events[-1].data["match"] and "Crook" in t.p.text
    events = t.call("arches")                                        # face down: shown to everyone
    assert "shown to everyone" in events[0].text
    assert t.s.state.winner == "Ann" and t.p.option("draw_capitals")
    assert t.s.journal("Bob").where(cid("orange-crook")) == "Ann's hand"


def test_accusation_on_reaching_a_landmark_with_a_face_up_warrant():
    """Making An Accusation: an agent who earns enough spaces to reach a face-up Warrant may accuse."""
    t = two()
    t.go("denali")                              # Ann turns the orange Warrant up
    t.ask()
    t.answer(True)
    t.move("denali")                            # Bob reaches it
    assert {o.action for o in t.p.options} == {"accuse", "end_turn"}
    t.s.apply({"type": "end_turn", "player": "Bob"})
    assert t.s.state.answerer == "Ann"


def test_false_accusation_crook_shown_then_face_down_and_warrant_leaves_play():
    """False Accusations: a wrong card ends it; a Crook is shown to all and returned face down; the Warrant leaves play."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    events = t.call("carlsbad-caverns")                 # the purple Crook, not the orange Loot
    st = t.s.state
    assert not st.table.face_up(st.boxes["carlsbad-caverns"])
    assert t.s.journal("Bob").where(cid("purple-crook")) == "Carlsbad Caverns"      # everyone saw it
    box = box_of(t.s.journal("Bob"), "carlsbad-caverns")
    assert box["how"] == "shown"
    assert st.table.place_of(st.boxes["denali"]) == Place("out")
    assert st.warrants_out == ["orange"]
    assert "7 Warrants still in play" in " ".join(texts(events))
    assert st.answerer == "Bob"                        # the turn ended
    assert st.table.count(Place("box", slot="denali")) == 0


def test_false_accusation_at_the_crook_loot_held_leaves_play_too():
    """False Accusations: the Warrant leaves play, and its Loot (face up, its Warrant gone) with it."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    t.call("liberty-bell")
    t.call("statue-of-liberty")               # the purple Loot: not the orange Crook
    st = t.s.state
    assert st.table.place_of(st.boxes["liberty-bell"]) == Place("out")
    assert st.table.face_up(st.boxes["statue-of-liberty"])        # a Loot goes back face up
    out = [d for d in t.s.journal("Bob", "hints").deductions if d.kind == "colours_out"]
    assert out and out[0].data["colours"] == ["orange"] and "Vic the Slick" in out[0].text


def test_matching_crook_called_before_the_loot_is_no_false_accusation():
    """Making An Accusation: "Agents may not call out the location of a Crook Card until they hold a
    Warrant Card and a Loot Card of the same color"; False Accusations: the accusation ends at "a card
    that does not match the Warrant". The matching Crook turned up first matches it: the call does not
    count, the Crook (shown to everyone) goes back face down and the agent still calls the Loot
    (docs/rules/carmen-usa.md, Making An Accusation)."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    events = t.call("arches")                 # nobody has seen Arches: it holds the orange Crook
    assert events[0].data["early"] and "accusation goes on" in events[0].text
    st = t.s.state
    assert st.warrants_out == [] and not st.table.face_up(st.boxes["arches"])
    assert t.s.journal("Bob").where(cid("orange-crook")) == "Arches"      # everyone saw it
    assert t.p.player == "Ann" and "orange Loot" in t.p.text
    assert "box/arches" not in t.p.option("call").targets["box"]
    t.call("liberty-bell")
    t.call("arches")                          # now, holding the Warrant and the Loot: a true accusation
    assert t.s.state.winner == "Ann"


def test_a_box_everyone_knows_holds_the_crook_is_refused_before_anything_is_turned_up():
    """Making An Accusation: no Crook's landmark is called before holding a Warrant and a Loot of the same
    colour. Everyone saw the orange Crook at Arches (Bob's false accusation with the purple Warrant):
    Ann, holding only the orange Warrant, may not call Arches for the Loot; nothing is turned up."""
    t = two()
    t.go("denali")                            # Ann: orange Warrant
    t.go("mount-rainier")                     # Bob: purple Warrant
    t.go("none")                              # Ann
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": "Bob"})
    t.call("arches")                          # the orange Crook: not the purple Loot -> false
    assert t.s.state.warrants_out == ["purple"]
    t.ask()
    t.answer(True)
    t.move("denali")                          # Ann reaches the face-up orange Warrant again
    t.s.apply({"type": "accuse", "player": "Ann"})
    assert "box/arches" not in t.p.option("call").targets["box"]
    err = unchanged(t, {"type": "call", "player": "Ann", "box": "box/arches", "card": cid("orange-crook")})
    assert err.section == "Making An Accusation"
    assert err.message.startswith("Everyone knows the card at Arches is a Crook")
    assert t.s.state.warrants_out == ["purple"]
    t.call("liberty-bell")
    t.call("arches")
    assert t.s.state.winner == "Ann"


@pytest.mark.parametrize("variant,refused", [("standard", True), ("bigger", False)])
def test_a_box_put_back_face_down_is_not_called_for_the_loot_unless_it_may_be_loot(variant, refused):
    """Making An Accusation: with standard rules everyone who saw Bob put the Carlsbad Caverns card back
    face down knows it is a Crook, so it may not be called for the Loot; in A Bigger Challenge for
    Gumshoes it may be a Loot, and calling it is allowed (here it is the purple Crook: a false accusation)."""
    t = two(variant=variant)
    t.go("denali")                            # Ann: orange Warrant
    t.go("carlsbad-caverns")                  # Bob: the purple Crook, back face down
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": "Ann"})
    action = {"type": "call", "player": "Ann", "box": "box/carlsbad-caverns", "card": cid("purple-crook")}
    assert ("box/carlsbad-caverns" in t.p.option("call").targets["box"]) is not refused
    if refused:
        assert "is a Crook" in unchanged(t, action).message
    else:
        t.s.apply(action)
        assert t.s.state.warrants_out == ["orange"]


def test_a_known_crook_of_another_colour_may_be_called_for_the_crook():
    """Making An Accusation / False Accusations: holding the Warrant and the Loot, the agent may call any
    landmark for the Crook; a Crook of another colour ends the accusation."""
    t = two()
    t.go("denali")                            # Ann: orange Warrant
    t.go("carlsbad-caverns")                  # Bob: the purple Crook, back face down
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": "Ann"})
    t.call("liberty-bell")
    assert "box/carlsbad-caverns" in t.p.option("call").targets["box"]
    events = t.call("carlsbad-caverns")
    assert events[0].data["match"] is False and t.s.state.warrants_out == ["orange"]


def test_loot_whose_warrant_left_play_leaves_play_when_turned_up():
    """False Accusations: Loot matching a removed Warrant is removed as soon as it is turned up."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    t.call("carlsbad-caverns")                # false: orange Warrant out
    t.go("liberty-bell")                      # Bob turns up the orange Loot
    st = t.s.state
    assert st.table.place_of(st.boxes["liberty-bell"]) == Place("out")
    assert t.s.journal("Ann").where(cid("orange-loot")) == "Out of play"


def test_calling_an_empty_box_is_refused():
    """Making An Accusation: each called landmark's card is picked up; an empty box has none."""
    t = two()
    play_to_accusation(t)
    t.s.apply({"type": "accuse", "player": "Ann"})
    t.call("carlsbad-caverns")                # orange Warrant out: Denali is empty now
    t.go("mount-rainier")                     # Bob turns up the purple Warrant
    t.go("old-faithful")                      # Ann: the yellow Warrant
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": "Bob"})
    err = unchanged(t, {"type": "call", "player": "Bob", "box": "box/denali", "card": cid("orange-warrant")})
    assert "no card at Denali" in err.message


# --- the sweep: "one" read as "all", and lists that depend on the number of agents ---------
def test_only_the_agent_on_the_left_is_the_backup_and_no_one_after_them():
    """Incorrect Answers: "the agent to their left (the 'back-up agent')" - one agent, not every other
    agent in turn: with four agents, after the back-up's wrong answer nobody else answers."""
    t = UsaTable(("Ann", "Bob", "Cy", "Dee"), pieces=("big-bend", "everglades", "mammoth-cave", "arches"))
    t.ask()
    t.answer(False)
    assert t.p.player == "Bob"
    for other in ("Cy", "Dee", "Ann"):
        unchanged(t, {"type": "answer", "player": other, "correct": True})
    t.answer(False)
    assert t.p.player == "Bob" and t.p.option("ask") and t.s.state.answerer == "Cy"
    assert t.s.state.phase == "asking"


def test_pieces_may_share_a_landmark_after_setup():
    """Correct Answers/Movement: "Other than when pieces are placed on the board at the start of the game,
    agents' pieces may share the same space" (Set Up 4's one piece per landmark is for the start only)."""
    t = two()
    t.go("denali")
    t.ask()
    t.answer(True)
    t.move("denali")
    assert t.s.state.pieces == {"Ann": "denali", "Bob": "denali"}


def test_an_accusation_uses_only_the_warrant_where_the_agent_stands():
    """Making An Accusation: "may only make accusations that use the Warrant that is on the landmark they
    are visiting" - one Warrant, not any face-up Warrant."""
    t = two()
    t.go("denali")                            # Ann: orange Warrant
    t.go("mount-rainier")                     # Bob: purple Warrant
    t.ask()
    t.answer(True)
    events = t.s.apply({"type": "accuse", "player": "Ann"})
    assert events[0].data["card"] == cid("orange-warrant") and t.s.state.accuse_colour == "orange"
    st = t.s.state
    assert st.table.face_up(st.boxes["mount-rainier"]) and st.table.top(Place("box", slot="mount-rainier"))


def test_a_false_accusation_removes_only_its_own_warrant():
    """False Accusations: "accusing agents remove the Warrant from play" - the one used, not every face-up
    Warrant; a face-up Loot of another colour stays too."""
    t = UsaTable(("Ann", "Bob", "Cy"), pieces=("big-bend", "everglades", "mammoth-cave"))
    t.go("denali")                            # Ann: orange Warrant
    t.go("mount-rainier")                     # Bob: purple Warrant
    t.go("statue-of-liberty")                 # Cy: purple Loot
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": "Ann"})
    t.call("carlsbad-caverns")                # the purple Crook: not the orange Loot
    st = t.s.state
    assert st.warrants_out == ["orange"]
    assert st.table.place_of(st.boxes["denali"]) == Place("out")
    for lm in ("mount-rainier", "statue-of-liberty"):
        assert st.table.place_of(st.boxes[lm]) == Place("box", slot=lm) and st.table.face_up(st.boxes[lm])


def test_carmen_wins_when_all_eight_warrants_leave_play():
    """Winning the Game: if all eight Warrants are removed before a true accusation, Carmen wins."""
    t = UsaTable(("Ann", "Bob"), pieces=("big-bend", "everglades"))
    warrants = LANDMARKS[:8]
    # Each call turns up a Crook nobody has seen, never its Warrant's own (that one would not end it).
    other_crooks = LANDMARKS[16:][4:] + LANDMARKS[16:][:4]
    for i, lm in enumerate(warrants):
        # The agent whose turn it is turns up a Warrant; next turn they answer right and accuse in place.
        who = t.s.state.answerer
        t.go(lm)
        t.go("none")                          # the other agent
        assert t.s.state.answerer == who
        t.ask()
        t.answer(True)
        t.s.apply({"type": "accuse", "player": who})
        t.call(other_crooks[i])               # a Crook of another colour: never the right Loot
    assert t.s.outcome is not None and t.s.outcome.winners == ()
    assert "Carmen Sandiego wins" in t.s.outcome.reason


# --- the answer on the reader's card ---------------------------------------------------------
def test_the_reader_alone_sees_the_answer_before_the_judgement():
    """Correct Answers/Movement: "Correct answers are shown in bold" on the card the reader holds:
    the reader's log and page note carry the answer at once; the answering agent's log and note, the
    shared log and the undo history carry it only once the reader has judged the answer."""
    t = UsaTable(ages={"Ann": 7, "Bob": 9, "Cy": 11}, colour="blue",
                 pieces=("big-bend", "everglades", "mammoth-cave"))
    t.ask("capital-of.MN")
    rules, state = t.s.rules, t.s.state
    answer = rules.bank.question("capital-of.MN").answer
    assert state.reader == "Cy" and state.answerer == "Ann"
    assert any(answer in line for line in t.s.log_for("Cy"))
    assert answer in rules.private_note(state, "Cy") and "capital" in rules.private_note(state, "Cy").lower()
    for other in ("Ann", "Bob"):
        assert not any(answer in line for line in t.s.log_for(other))
        assert rules.private_note(state, other) is None
    assert not any(answer in line for line in t.s.undo_history())
    assert answer not in t.p.text and not any(answer in o.label for o in t.p.options)
    t.answer(False)                                   # Bob, the back-up, hears it from the same reader
    assert answer in t.s.log_for("Ann")[-2]            # judged: everyone hears the answer
    assert rules.private_note(t.s.state, "Cy").startswith("You read to Bob")
    t.s.apply({"type": "pass", "player": "Bob"})
    assert rules.private_note(t.s.state, "Cy") is None


# --- Catching Carmen ---------------------------------------------------------------------
def finale(players=("Ann", "Bob", "Cy"), ages=None) -> UsaTable:
    """A game played up to its finale: the table as Catching Carmen begins."""
    t = UsaTable(players, ages=ages, pieces=("big-bend", "everglades", "mammoth-cave", "gateway-arch",
                                             "wright-brothers", "new-orleans-jazz")[:len(players)])
    order = t.s.state.order
    t.go("denali")
    for _ in order[1:]:
        t.ask()
        t.answer(True)
        t.move("none")
    t.ask()
    t.answer(True)
    t.s.apply({"type": "accuse", "player": order[0]})
    t.call("liberty-bell")
    t.call("arches")
    return t


def test_finale_draw_three_timer_by_count_oldest_starts_youngest_first():
    """Catching Carmen: three tokens each; the timer by agent count; the oldest starts it, and while it
    runs the agents place their real tokens on the printed map: nothing is asked but "All placed!"."""
    t = finale(ages={"Ann": 7, "Bob": 9, "Cy": 11})
    for p in ("Ann", "Bob", "Cy"):
        assert t.p.player == p
        t.s.apply({"type": "draw_capitals", "player": p})
    assert t.s.state.table.count(Place("capitals")) == 50 - 9
    assert t.p.player == "Cy" and "35-second" in t.p.text
    assert t.s.layout()["timer_seconds"] == ("35",)
    t.s.apply({"type": "start_clock", "player": "Cy"})
    # No data entry on the clock, and "All placed!" is the one action offered: "Time ran out" (which ends
    # the game) is sent by the clock, never offered beside it as a main action (docs/rules/carmen-usa.md).
    assert [o.action for o in t.p.options] == ["all_placed"]
    assert "printed map" not in t.p.text and "game board's map" in t.p.text


def all_placed(t: UsaTable, who: str | None = None) -> None:
    for p in t.s.state.order:
        t.s.apply({"type": "draw_capitals", "player": p})
    t.s.apply({"type": "start_clock", "player": t.s.state.order[-1]})
    t.s.apply({"type": "all_placed", "player": who or t.s.state.order[-1]})


def check(t: UsaTable, right: bool = True):
    """The check after the timer: a token turned over (its capital read), then the state it lies on."""
    flip = t.p.option("flip_capital")
    token = flip.targets["token"][0]
    card = t.truth.card_at(t.s.state, token)
    t.s.apply({"type": "flip_capital", "player": t.p.player, "token": token, "card": card})
    opt = t.p.option("place_capital")
    assert set(opt.targets) == {"state"} and t.s.rules.card_name(card) in t.p.text     # one tap: the state
    state = t.s.rules.state_of[card] if right else next(s for s in opt.targets["state"] if s != t.s.rules.state_of[card])
    return t.s.apply({"type": "place_capital", "player": t.p.player, "state": state})


def test_finale_all_placed_stops_the_clock_then_each_token_is_checked_and_carmen_is_caught():
    """Catching Carmen: "If the agents, as a team, correctly place all the tokens before time runs out,
    they catch Carmen Sandiego": the timer stops at "All placed!" (any agent may say it); then each
    token is checked where it lies, with no clock: its capital first, then its state."""
    t = finale(ages={"Ann": 7, "Bob": 9, "Cy": 11})
    all_placed(t, who="Bob")
    assert t.s.state.phase == "finale_check"
    unchanged(t, {"type": "time_up", "player": "Cy"})          # the clock has stopped: time cannot run out now
    assert t.p.player == "Ann" and [o.action for o in t.p.options] == ["flip_capital"]
    assert t.p.option("flip_capital").reads == {"card": "token"}
    checked = 0
    while t.s.outcome is None:
        check(t)
        checked += 1
    assert checked == 9 and t.s.outcome.winners == ("Ann",) and "caught Carmen" in t.s.outcome.reason


def test_finale_a_token_on_the_wrong_state_at_the_check_lets_carmen_escape():
    """Catching Carmen: a token that lay on another state was not "correctly" placed: once every token
    is checked, Carmen escapes (the check names the token and its own state)."""
    t = finale(ages={"Ann": 7, "Bob": 9, "Cy": 11})
    all_placed(t)
    events = check(t, right=False)
    assert events[-1].type == "checked" and "but it is the capital of" in events[-1].text
    wrong = t.s.rules.card_name(events[-1].data["card"])
    assert t.s.outcome is None and t.p.player == "Ann"          # the check goes on to the last token
    while t.s.outcome is None:
        check(t)
    assert "escaped" in t.s.outcome.reason and t.s.outcome.winners == ("Ann",)
    assert f"{wrong} lay on the wrong state" in t.s.outcome.reason


def place(t: UsaTable, right: bool = True):
    """A token typed in while the timer ran: how games saved before the check existed went on."""
    state = t.s.state
    held = state.flipped if state.flipped is not None else t.s.rules._tokens_of(state, t.p.player)[0]
    token = str(state.table.place_of(held))
    card = t.truth.card_at(t.s.state, token)
    state = t.s.rules.state_of[card] if right else next(s for s in sorted(t.s.rules.state_names)
                                                        if s != t.s.rules.state_of[card])
    return t.s.apply({"type": "place_capital", "player": t.p.player, "token": token, "card": card, "state": state})


def test_a_game_saved_while_tokens_were_typed_on_the_clock_goes_on():
    """Games saved before the check existed typed each token while the timer ran (a wrong state was
    tried again): their actions are still accepted, so they reopen, and "All placed!" takes over."""
    t = finale(ages={"Ann": 7, "Bob": 9, "Cy": 11})
    for p in ("Ann", "Bob", "Cy"):
        t.s.apply({"type": "draw_capitals", "player": p})
    t.s.apply({"type": "start_clock", "player": "Cy"})
    events = place(t, right=False)
    assert events[-1].type == "wrong_state" and "try again" in events[-1].text
    unchanged(t, {"type": "all_placed", "player": "Cy"})        # the flipped token first
    place(t)
    assert t.p.player == "Bob"
    t.s.apply({"type": "all_placed", "player": "Cy"})
    while t.s.outcome is None:
        check(t)
    assert t.s.outcome.winners == ("Ann",) and "caught Carmen" in t.s.outcome.reason


def test_finale_time_runs_out_carmen_escapes():
    """Catching Carmen: if time runs out first, Carmen escapes (the timer is an input)."""
    t = finale(("Ann", "Bob"))
    for p in ("Ann", "Bob"):
        t.s.apply({"type": "draw_capitals", "player": p})
    unchanged(t, {"type": "time_up", "player": "Ann"})           # the timer has not started
    unchanged(t, {"type": "all_placed", "player": "Ann"})
    t.s.apply({"type": "start_clock", "player": "Bob"})
    t.s.apply({"type": "time_up", "player": "Bob"})
    assert "escaped" in t.s.outcome.reason and t.s.outcome.winners == ("Ann",)


@pytest.mark.parametrize("agents,seconds", [(2, 20), (3, 35), (4, 50), (5, 60), (6, 70)])
def test_finale_each_agent_takes_exactly_three_tokens_and_the_timer_follows_the_count(agents, seconds):
    """Catching Carmen: "Each agent chooses three tokens ... Place the rest of the tokens aside", and the
    timer is set "according to the number of agents playing" (2: 20 s ... 6: 1 minute 10 seconds)."""
    t = finale(("Ann", "Bob", "Cy", "Dee", "Eve", "Fay")[:agents])
    order = t.s.state.order
    for p in order:
        unchanged(t, {"type": "start_clock", "player": order[-1]})      # not before everyone has drawn
        t.s.apply({"type": "draw_capitals", "player": p})
        assert len(t.s.rules._tokens_of(t.s.state, p)) == 3
    assert t.s.state.table.count(Place("capitals")) == 50 - 3 * agents
    assert f"{seconds}-second" in t.p.text and t.s.layout()["timer_seconds"] == (str(seconds),)
    t.s.apply({"type": "start_clock", "player": order[-1]})
    t.s.apply({"type": "all_placed", "player": order[0]})
    assert len(t.p.option("flip_capital").targets["token"]) == 3        # the youngest's own three first


# --- the journal -------------------------------------------------------------------------
def test_journal_boxes_and_exact_crook_odds():
    """Journal: every box with how it is known; the Crook odds count the worlds an agent cannot rule out."""
    t = two()
    t.go("arches")                 # Ann sees the orange Crook (Bob: "a Crook")
    t.go("denali")                 # Bob turns up the orange Warrant
    bob = t.s.journal("Bob")
    boxes = next(d for d in bob.deductions if d.kind == "boxes").data["boxes"]
    assert len(boxes) == 24 and box_of(bob, "denali")["how"] == "public"
    odds = {d.data["colour"]: d.data["odds"] for d in bob.deductions if d.kind == "crook_odds"}
    # Bob: Arches holds a Crook (1/8 each colour); the other 22 unknown boxes share the other 7 Crooks' chances.
    assert odds["orange"]["box/arches"] == "1/8"
    total = sum(Fraction(v) for v in odds["orange"].values())
    assert total == 1
    ann = {d.data["colour"]: d.data["odds"] for d in t.s.journal("Ann").deductions if d.kind == "crook_odds"}
    assert ann["orange"] == {"box/arches": "1/1"}
    assert "box/arches" not in ann["purple"]
    # Ann knows Arches and Denali: 22 unknown boxes hold 7 Warrants, 8 Loot and 7 Crooks, none constrained.
    assert Fraction(ann["purple"]["box/big-bend"]) == Fraction(1, 22)


def test_accusation_ready_deduction():
    """Journal: an accusation the agent could make, once the whole set is known."""
    t = two()
    t.go("arches")                 # Ann: orange Crook
    t.go("liberty-bell")           # Bob: orange Loot, face up
    t.go("denali")                 # Ann: orange Warrant, face up
    ready = [d for d in t.s.journal("Ann", "hints").deductions if d.kind == "accusation_ready"]
    assert len(ready) == 1 and ready[0].data["crook"] == "box/arches" and ready[0].data["now"] is False
    assert not [d for d in t.s.journal("Bob", "hints").deductions if d.kind == "accusation_ready"]


def test_describe_and_public_log_never_name_a_private_card():
    t = two(variant="bigger")
    t.go("liberty-bell")
    t.go("arches")
    shared = " ".join(t.s.public_log() + t.s.undo_history())
    for key in ("orange-loot", "orange-crook"):
        assert t.s.rules.deck.name_of(cid(key)) not in shared
    assert t.s.rules.place_words(t.s.state, "box/arches") == "the card at Arches"


def test_undo_takes_back_a_look():
    t = two()
    t.go("arches")
    t.s.undo()
    assert t.s.journal("Ann").where(cid("orange-crook")) == "Unknown"
    assert t.p.option("look")


def test_answer_options_and_words_for_a_screen():
    """The prompt offers "Right answer" and "Wrong answer" (one value each); values have words."""
    t = two()
    t.ask()
    answers = [o for o in t.p.options if o.action == "answer"]
    assert [(o.label, o.targets["correct"]) for o in answers] == [("Right answer", (True,)),
                                                                   ("Wrong answer", (False,))]
    words = t.s.rules.place_words
    st = t.s.state
    assert words(st, "mount-rushmore") == "Mount Rushmore"
    assert words(st, "none") == "No landmark"
    assert words(st, "MN") == "Minnesota"
    assert words(st, "Ann/capital/1", "Ann") == "your Capital Token 1"


def test_a_family_renames_a_landmark_without_touching_the_shipped_file(tmp_path, monkeypatch):
    """Landmark names are data (unverified): a family's [names] file corrects them; a bad entry is
    reported (``board.warnings``) and the shipped names stay."""
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    (tmp_path / "boards").mkdir()
    fix = tmp_path / "boards" / "carmen-usa.toml"
    fix.write_text('[names]\n"new-orleans-jazz" = "French Quarter"\n')
    s = Session.new("carmen-usa", ["Ann", "Bob"])
    assert s.rules.place_words(s.state, "box/new-orleans-jazz") == "the card at French Quarter"
    fix.write_text('[names]\n"narnia" = "Lamp Post"\n')       # a broken file never stops a game
    s = Session.new("carmen-usa", ["Ann", "Bob"])
    assert s.rules.place_words(s.state, "box/new-orleans-jazz") == "the card at New Orleans"
    assert "'narnia' is not a landmark" in s.rules.board.warnings[0]


def test_a_family_board_graph_checks_the_allowance(tmp_path, monkeypatch):
    """Correct Answers/Movement: with the family's own board graph, a landmark beyond the allowance
    is refused (from a landmark; between landmarks the app cannot count)."""
    monkeypatch.setenv("GUMSHOE_HOME", str(tmp_path))
    (tmp_path / "boards").mkdir()
    # A line of spaces: Big Bend - 1 - 2 - Denali - 3 - 4 - 5 - Everglades
    (tmp_path / "boards" / "carmen-usa-graph.toml").write_text(
        '[landmarks]\n"big-bend" = "bb"\ndenali = "de"\neverglades = "ev"\n'
        '[neighbours]\nbb = ["s1"]\ns1 = ["s2"]\ns2 = ["de"]\nde = ["s3"]\ns3 = ["s4"]\ns4 = ["s5"]\ns5 = ["ev"]\n')
    t = UsaTable(("Ann", "Bob"), pieces=("big-bend", "arches"))
    t.ask()
    t.answer(True, choices=True)                     # 3 spaces: Denali yes, Everglades (7) no
    targets = t.p.option("move").targets["landmark"]
    assert "denali" in targets and "everglades" not in targets and "liberty-bell" in targets   # not on the graph
    err = unchanged(t, {"type": "move", "player": "Ann", "landmark": "everglades"})
    assert err.section == "Correct Answers/Movement" and "7 spaces" in err.message
    t.move("denali")
    (tmp_path / "boards" / "carmen-usa-graph.toml").write_text('[landmarks]\nnarnia = "x"\n[neighbours]\nx = []\n')
    s = Session.new("carmen-usa", ["Ann", "Bob"])
    assert s.rules.graph is None and "landmark of this board" in s.rules.warnings[0]


def test_an_agents_own_mix_up_puts_no_second_look_on_the_shared_screen():
    """Clue Cards ("When agents reach a landmark, they secretly look") and docs/rules/carmen-usa.md (a card the
    agent looked at needs no second look), issue 27: Ann reads Mammoth Cave's Crook as the one she had seen
    at Arches (a mix-up, confirmed behind the gate): her Arches note is dropped, hers only. Back at Arches
    she has had her look, so no look is asked, as if she had read it right; the shared screen used to ask
    her to look again, telling everyone of her mix-up."""
    def game(mix_up: bool) -> UsaTable:
        t = two()
        t.go("arches")                                   # Ann looks: the orange Crook
        t.ask()
        t.answer(False)                                  # Bob answers wrong
        t.ask()
        t.answer(True)
        t.move("mammoth-cave")
        card = cid("orange-crook") if mix_up else t.card("mammoth-cave")
        t.s.apply({"type": "look", "player": "Ann", "box": "box/mammoth-cave", "card": card, "confirm": mix_up})
        t.ask()
        t.answer(False)
        t.ask()
        t.answer(True)
        t.move("arches")
        return t

    right, mixed = game(False), game(True)
    assert mixed.s.view(None) == right.s.view(None) and mixed.s.view("Bob") == right.s.view("Bob")
    assert mixed.p.option("look") is None
