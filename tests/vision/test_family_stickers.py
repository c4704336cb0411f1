"""Stickers printed to attach later (issue 15): numbers taken from the family's block and recorded in
tags.toml, attached to a card when it is shown to the camera, its former number retired, never reused."""

from __future__ import annotations

import numpy as np
import pytest

from vision.detector import TagDetector
from vision.registry import (AttachRefused, RegistryError, TagRegistry, TagStatus, attach_tag, family_deck,
                             family_file, issue_spare_tags, sync_family_cards)
from vision.sheets import print_spare_tags
from vision.tags import render_sticker

GAME = "39-clues"
N7, N8 = "39-clues.card.n7", "39-clues.card.n8"


def test_spare_numbers_come_after_every_number_ever_used_and_are_recorded(family_folder):
    sync_family_cards(GAME, [(N7, "Grace's Agent"), (N8, "Old Secret")])       # 1500, 1501
    assert issue_spare_tags(GAME, 3) == [1502, 1503, 1504]
    own = family_file(GAME)
    assert own.spares == (1502, 1503, 1504)
    text = (family_folder / "39-clues" / "tags.toml").read_text(encoding="utf-8")
    assert "format = 2" in text and "[[spare]]\nid = 1503" in text
    # A new card registered later gets a number after the spares, never one of them.
    assert [t.tag_id for t in sync_family_cards(GAME, [(N7, "Grace's Agent"), (N8, "Old Secret"),
                                                       ("39-clues.card.n9", "Map")])] == [1505]
    assert family_file(GAME).spares == (1502, 1503, 1504)            # the library's sync keeps them
    # Spare numbers name no card, but the camera still reads their tag family ("I don't know that sticker").
    registry = TagRegistry.load()
    assert registry.entry_for_tag(1502) is None and {1502, 1503, 1504} <= registry.unattached
    assert registry.identify_tag(1502, active={GAME}).status is TagStatus.UNKNOWN


def test_attach_retires_the_cards_former_number_and_the_registry_maps_the_new_one(family_folder):
    sync_family_cards(GAME, [(N7, "Grace's Agent"), (N8, "Old Secret")])       # 1500, 1501
    spare = issue_spare_tags(GAME, 2)                                            # 1502, 1503
    done = attach_tag(GAME, spare[0], N7, "Grace's Agent")
    assert (done.number, done.previous, done.changed) == (1502, 1500, True)
    own = family_file(GAME)
    assert own.tag_of_card(N7).tag_id == 1502 and own.spares == (1503,)
    assert [(r.tag_id, r.card_id) for r in own.retired] == [(1500, N7)]
    registry = TagRegistry.load()
    assert registry.tag_for_card(N7) == 1502
    assert registry.identify_tag(1502, active={GAME}).card_id == N7
    assert registry.entry_for_tag(1500) is None and 1500 in registry.unattached   # the old sticker names nobody
    # The same sticker again on the same card: no change.
    assert not attach_tag(GAME, 1502, N7, "Grace's Agent").changed
    # A card new to the file (filled in on the form) takes the sticker without a number of its own first.
    done = attach_tag(GAME, 1503, "39-clues.card.n9", "Map")
    assert done.previous is None
    assert sync_family_cards(GAME, [(N7, "Grace's Agent"), (N8, "Old Secret"), ("39-clues.card.n9", "Map")]) == []
    assert [c.card_id for c in family_deck(GAME).cards] == [N8, N7, "39-clues.card.n9"]
    # The retired number is never given out again.
    assert issue_spare_tags(GAME, 1) == [1504]


def test_refusals_change_nothing(family_folder):
    sync_family_cards(GAME, [(N7, "Grace's Agent"), (N8, "Old Secret")])       # 1500, 1501
    issue_spare_tags(GAME, 2)                                                    # 1502, 1503
    attach_tag(GAME, 1502, N7, "Grace's Agent")                                  # 1500 retired
    path = family_folder / "39-clues" / "tags.toml"
    before = path.read_text(encoding="utf-8")
    cases = [(1501, "attached", "already on another card: Old Secret"),
             (1500, "retired", "was on Grace's Agent before"),
             (1600, "unissued", "never printed"),
             (14, "other-game", "another game (Gandhi's Glasses)"),
             (600, "outside", "not one of your 39-clues stickers (those are numbers 1500 to 3114)"),
             (1200, "outside", "1500 to 3114")]
    for number, reason, words in cases:
        with pytest.raises(AttachRefused) as info:
            attach_tag(GAME, number, N7, "Grace's Agent")
        assert info.value.reason == reason and words in str(info.value), (number, str(info.value))
    assert path.read_text(encoding="utf-8") == before
    with pytest.raises(RegistryError, match="cannot be one of"):
        attach_tag(GAME, 1503, "carmen.loot.gandhis-glasses", "Glasses")
    # A broken file is never overwritten.
    path.write_text("broken [", encoding="utf-8")
    with pytest.raises(RegistryError):
        attach_tag(GAME, 1503, N8, "Old Secret")
    with pytest.raises(RegistryError):
        issue_spare_tags(GAME, 1)
    assert path.read_text(encoding="utf-8") == "broken ["


def test_a_file_with_stickers_is_checked_like_the_rest(family_folder):
    path = family_folder / "39-clues" / "tags.toml"
    path.parent.mkdir(parents=True)
    for text, fault in (('format = 2\ngame = "39-clues"\n[[spare]]\nid = 14\n', "outside"),
                        ('format = 2\ngame = "39-clues"\n[[tag]]\nid = 1500\ncard = "39-clues.card.n1"\n'
                         '[[spare]]\nid = 1500\n', "twice"),
                        ('format = 2\ngame = "39-clues"\n[[retired]]\nid = 1501\ncard = "carmen.loot.x"\n', "not a card"),
                        ('format = 3\ngame = "39-clues"\n', "not a tag file")):
        path.write_text(text, encoding="utf-8")
        registry = TagRegistry.load()
        assert len(registry.problems) == 1 and fault in registry.problems[0], registry.problems


def test_a_spare_sheet_prints_and_its_sticker_is_read_as_a_bare_number(family_folder, tmp_path):
    numbers = issue_spare_tags(GAME, 3)
    result = print_spare_tags(GAME, numbers, tmp_path / "spare.pdf", dpi=100)
    assert result.stickers == 3 and result.path.stat().st_size > 1000
    sticker = np.asarray(render_sticker("39-clues.sticker-1501", "Sticker 1501", 1501, tag_mm=20, dpi=200))
    frame = np.full((720, 1280), 200, np.uint8)
    frame[100:100 + sticker.shape[0], 300:300 + sticker.shape[1]] = sticker
    seen = TagDetector(active={GAME}).detect(frame)       # no card yet: the 41h12 family is still read
    assert {(d.status, d.identity.tag_id) for d in seen} == {(TagStatus.UNKNOWN, 1501)}
    # The synthetic table (the demo camera) shows a card carrying a bare sticker as "tag:<number>".
    from vision.synthetic import SyntheticTable
    frame = SyntheticTable(seed=1).frame(["tag:1501"])
    assert {d.identity.tag_id for d in TagDetector(active={GAME}).detect(frame)} == {1501}
