"""Room for every card of five games: tag36h11 (0-586, the printed Carmen stickers) then tagStandard41h12."""

import numpy as np
import pytest

from vision.__main__ import main
from vision.decks import load_all_decks
from vision.detector import TagDetector
from vision.registry import TAG_CAPACITY, TagEntry, TagRegistry, TagStatus, family_code, tag_number
from vision.tags import render_sticker


def test_carmen_stickers_keep_their_36h11_ids():
    registry = TagRegistry.load()
    carmen = [e for e in registry.entries if e.game == "carmen-cards"]
    assert len(carmen) == 39
    assert sorted(e.tag_id for e in carmen) == list(range(39))  # as printed before the second family existed
    assert registry.tag_for_card("carmen.loot.gandhis-glasses") == 14
    assert {e.family for e in carmen} == {"tag36h11"}


def test_tag_numbers_name_family_and_code():
    assert family_code(586) == ("tag36h11", 586)
    assert family_code(1000) == ("tagStandard41h12", 0)
    assert tag_number("tagStandard41h12", 2114) == 3114
    assert TAG_CAPACITY == 587 + 2115
    with pytest.raises(ValueError):
        family_code(700)


def test_when_36h11_is_full_new_cards_get_41h12_tags_that_read_back(tmp_path, deck_writer):
    decks = tmp_path / "decks"
    decks.mkdir()
    deck_writer(decks, "clues", "the-39-clues", [("card", f"c{i}", f"Card {i}") for i in range(3)])
    full = TagRegistry([TagEntry(586, "carmen.loot.last", "carmen-cards")])  # the last 36h11 id is taken
    registry, added = full.updated(load_all_decks(decks))
    assert [(e.family, e.code) for e in added] == [("tagStandard41h12", 0), ("tagStandard41h12", 1),
                                                   ("tagStandard41h12", 2)]
    path = tmp_path / "registry.toml"
    registry.save(path)
    assert TagRegistry.load(path).tag_for_card("clues.card.c1") == 1001  # the file round-trips

    # A printed 41h12 sticker is read as its card, and as "from another game" while Carmen is played.
    sticker = np.asarray(render_sticker("clues.card.c1", "Card 1", 1001, tag_mm=20, dpi=200))
    frame = np.full((720, 1280), 200, np.uint8)
    frame[100:100 + sticker.shape[0], 300:300 + sticker.shape[1]] = sticker
    this_game = TagDetector(active={"the-39-clues"}, registry=registry).detect(frame)
    assert {(d.status, d.card_id) for d in this_game} == {(TagStatus.CARD, "clues.card.c1")}
    other_game = TagDetector(active={"carmen-cards"}, registry=registry).detect(frame)
    assert {(d.status, d.card_id) for d in other_game} == {(TagStatus.FOREIGN, "clues.card.c1")}


def test_print_tags_works_for_every_deck_in_the_folder(tmp_path):
    registry = TagRegistry.load()
    for deck in load_all_decks():
        if all(c.card_id in registry for c in deck.cards):
            out = tmp_path / f"{deck.deck_id}.pdf"
            assert main(["print-tags", deck.deck_id, "-o", str(out)]) == 0
            assert out.stat().st_size > 1000
