"""A family's own cards (The 39 Clues: no deck file): tag numbers in a reserved block, kept in the user folder."""

from __future__ import annotations

import numpy as np
import pytest

from vision.__main__ import main
from vision.decks import load_all_decks
from vision.detector import TagDetector
from vision.registry import (REGISTRY_PATH, Block, RegistryError, TagEntry, TagRegistry, TagStatus,
                             family_deck, read_family_tags, sync_family_cards, user_folder)
from vision.sheets import SheetError, render_pages
from vision.tags import render_sticker

GAME = "39-clues"
CARDS = [("39-clues.card.n7", "Grace's Agent"), ("39-clues.card.n8", "Old Secret"),
         ("39-clues.card.n8-c2", "Old Secret (copy 2)")]


def test_the_shipped_registry_reserves_a_block_no_deck_ever_takes():
    registry = TagRegistry.load(family=False)
    block = registry.block(GAME)
    assert (block.first, block.last) == (1500, 3114) and block.file == "39-clues/tags.toml"
    assert not any(e.tag_id in block for e in registry.entries)
    # New shipped cards fill 36h11, then 41h12, jumping over the block.
    near_full = TagRegistry([TagEntry(586, "carmen.loot.last", "carmen-cards"),
                             TagEntry(1499, "carmen.loot.later", "carmen-cards")], registry.blocks)
    decks = [d for d in load_all_decks() if d.deck_id == "carmen"]
    with pytest.raises(RegistryError, match="all 2702 tag ids"):
        near_full.updated(decks)
    # ... and a registry file may not give a deck card a number of the block.
    with pytest.raises(RegistryError, match="reserved"):
        TagRegistry([TagEntry(1500, "carmen.loot.x", "carmen-cards")], registry.blocks)


def test_registered_cards_get_stable_numbers_in_the_block_and_the_camera_knows_them(family_folder):
    added = sync_family_cards(GAME, CARDS)
    assert [(t.tag_id, t.card_id) for t in added] == [(1500, "39-clues.card.n7"), (1501, "39-clues.card.n8"),
                                                      (1502, "39-clues.card.n8-c2")]
    assert (family_folder / "39-clues" / "tags.toml").exists()
    registry = TagRegistry.load()
    assert registry.tag_for_card("39-clues.card.n8") == 1501
    assert registry.identify_tag(1501, active={GAME}).status is TagStatus.CARD
    assert registry.identify_tag(1501, active={"carmen-cards"}).status is TagStatus.FOREIGN
    assert "tagStandard41h12" in registry.families()

    # Card 8 leaves the library, a card 9 arrives, card 7 is renamed: 8 keeps its number, 9 gets a new one.
    added = sync_family_cards(GAME, [("39-clues.card.n7", "Grace Cahill's Agent"), ("39-clues.card.n9", "Map")])
    assert [(t.tag_id, t.card_id) for t in added] == [(1503, "39-clues.card.n9")]
    tags = {t.card_id: t for t in read_family_tags(TagRegistry.load().block(GAME))}
    assert tags["39-clues.card.n8"].tag_id == 1501 and not tags["39-clues.card.n8"].listed
    assert tags["39-clues.card.n7"].name == "Grace Cahill's Agent"
    assert [c.card_id for c in family_deck(GAME).cards] == ["39-clues.card.n7", "39-clues.card.n9"]
    assert TagRegistry.load().tag_for_card("39-clues.card.n8") == 1501      # an old sticker still reads
    # Cards of one game are only added: the library's listing does not change.
    sync_family_cards(GAME, [("39-clues.card.n8", "Old Secret")], listed=False)
    assert [c.card_id for c in family_deck(GAME).cards] == ["39-clues.card.n7", "39-clues.card.n9"]
    assert sync_family_cards(GAME, [("39-clues.card.n7", "Grace Cahill's Agent")], listed=False) == []


def test_a_family_file_cannot_claim_other_numbers_or_other_games_cards(family_folder):
    with pytest.raises(RegistryError, match="cannot be one of the family's own"):
        sync_family_cards(GAME, [("carmen.loot.gandhis-glasses", "Glasses")])
    path = family_folder / "39-clues" / "tags.toml"
    path.parent.mkdir(parents=True)
    for text, fault in (('format = 1\ngame = "39-clues"\n[[tag]]\nid = 14\ncard = "39-clues.card.n1"\n', "outside"),
                        ('format = 1\ngame = "39-clues"\n[[tag]]\nid = 1500\ncard = "carmen.loot.x"\n', "not a card"),
                        ('format = 1\ngame = "39-clues"\n[[tag]]\nid = "x"\ncard = "39-clues.card.n1"\n', "malformed"),
                        ("this is [ not toml", "not valid TOML")):
        path.write_text(text, encoding="utf-8")
        registry = TagRegistry.load()           # another game's camera still starts
        assert registry.tag_for_card("carmen.loot.gandhis-glasses") == 14
        assert len(registry.problems) == 1 and fault in registry.problems[0]
        with pytest.raises(RegistryError, match=fault):
            sync_family_cards(GAME, CARDS)       # and a broken file is never overwritten
        assert path.read_text(encoding="utf-8") == text


def test_a_block_must_lie_in_one_family_and_its_file_in_the_user_folder(tmp_path):
    path = tmp_path / "r.toml"
    for block, fault in (('first = 500\nlast = 1200\nfile = "x.toml"', "one tag family"),
                         ('first = 1500\nlast = 1600\nfile = "../x.toml"', "inside the user folder")):
        path.write_text(f'format = 2\nfamilies = ["tag36h11"]\n[[block]]\ngame = "g"\n{block}\n', encoding="utf-8")
        with pytest.raises(RegistryError, match=fault):
            TagRegistry.load(path)
    with pytest.raises(RegistryError, match="overlap"):
        TagRegistry([], [Block("a", 1500, 1600, "a.toml"), Block("b", 1600, 1700, "b.toml")])


def test_print_tags_prints_the_familys_registered_cards(tmp_path, capsys):
    out = tmp_path / "ours.pdf"
    assert main(["print-tags", GAME, "-o", str(out)]) == 2
    assert "register your cards in the app's library first" in capsys.readouterr().err
    sync_family_cards(GAME, CARDS)
    assert main(["print-tags", GAME, "-o", str(out)]) == 0
    assert "3 stickers" in capsys.readouterr().out and out.stat().st_size > 1000
    assert len(render_pages(GAME, dpi=100)) == 1
    with pytest.raises(SheetError):
        render_pages(GAME, size_mm=70)


def test_a_family_sticker_is_read_back_by_the_detector():
    sync_family_cards(GAME, CARDS)
    registry = TagRegistry.load()
    tag = registry.tag_for_card("39-clues.card.n8-c2")
    sticker = np.asarray(render_sticker("39-clues.card.n8-c2", "Old Secret (copy 2)", tag, tag_mm=20, dpi=200))
    frame = np.full((720, 1280), 200, np.uint8)
    frame[100:100 + sticker.shape[0], 300:300 + sticker.shape[1]] = sticker
    seen = TagDetector(active={GAME}).detect(frame)
    assert {(d.status, d.card_id) for d in seen} == {(TagStatus.CARD, "39-clues.card.n8-c2")}


def test_vision_finds_the_same_user_folder_as_the_engine(monkeypatch, tmp_path):
    from engine.paths import user_dir

    assert user_folder() == user_dir()
    monkeypatch.delenv("GUMSHOE_HOME")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path))
    assert user_folder() == user_dir()
    assert REGISTRY_PATH.exists()
