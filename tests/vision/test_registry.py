
import pytest

from vision.__main__ import main
from vision.decks import DeckError, load_all_decks, load_deck
from vision.registry import (TAG_CAPACITY, RegistryError, RegistryFullError, TagEntry, TagRegistry, TagStatus,
                             missing_cards, update_registry_file)


def test_every_card_of_every_shipped_deck_has_a_tag():
    registry = TagRegistry.load()
    assert missing_cards(registry) == [], "run `python -m vision registry --update`"
    ids = [registry.tag_for_card(c.card_id) for d in load_all_decks() for c in d.cards]
    assert len(ids) == len(set(ids))


def test_update_gives_ids_to_all_decks_and_is_append_only(tmp_path, two_decks, deck_writer):
    path = tmp_path / "registry.toml"
    added = update_registry_file(path, load_all_decks(two_decks))
    assert [e.card_id for e in added] == ["alpha.loot.ring", "alpha.loot.crown", "alpha.suspect.butler",
                                          "beta.clue.knife", "beta.clue.rope"]
    before = {e.card_id: e.tag_id for e in TagRegistry.load(path).entries}

    # A new card in the first deck and a new deck: nothing already printed is renumbered.
    deck_writer(two_decks, "alpha", "alpha-game", [("loot", "ring", "The Ring"), ("loot", "crown", "The Crown"),
                                                   ("loot", "sceptre", "The Sceptre"), ("suspect", "butler", "The Butler")])
    deck_writer(two_decks, "gamma", "gamma-game", [("room", "hall", "Hall")])
    added = update_registry_file(path, load_all_decks(two_decks))
    after = {e.card_id: e.tag_id for e in TagRegistry.load(path).entries}
    assert {k: after[k] for k in before} == before
    assert sorted(e.card_id for e in added) == ["alpha.loot.sceptre", "gamma.room.hall"]
    assert min(after[c.card_id] for c in added) > max(before.values())
    assert update_registry_file(path, load_all_decks(two_decks)) == []  # idempotent


def test_a_removed_card_keeps_its_id_and_it_is_never_reused(tmp_path, two_decks, deck_writer):
    path = tmp_path / "registry.toml"
    update_registry_file(path, load_all_decks(two_decks))
    old_rope = TagRegistry.load(path).tag_for_card("beta.clue.rope")
    deck_writer(two_decks, "beta", "beta-game", [("clue", "knife", "A Knife"), ("clue", "lamp", "A Lamp")])
    update_registry_file(path, load_all_decks(two_decks))
    reg = TagRegistry.load(path)
    assert reg.tag_for_card("beta.clue.rope") == old_rope
    assert reg.tag_for_card("beta.clue.lamp") != old_rope


def test_identify_card_foreign_and_unknown(tmp_path, two_decks):
    reg, _ = TagRegistry().updated(load_all_decks(two_decks))
    ring = reg.tag_for_card("alpha.loot.ring")
    knife = reg.tag_for_card("beta.clue.knife")
    assert reg.identify_tag(ring, active={"alpha-game"}).status is TagStatus.CARD
    assert reg.identify_tag(ring, active={"alpha"}).card_id == "alpha.loot.ring"  # deck id works too
    foreign = reg.identify_tag(knife, active={"alpha-game"})
    assert foreign.status is TagStatus.FOREIGN and foreign.card_id == "beta.clue.knife"
    unknown = reg.identify_tag(400, active={"alpha-game"})
    assert unknown.status is TagStatus.UNKNOWN and unknown.card_id is None
    assert reg.identify_card("zeta.x.y", active={"alpha-game"}).status is TagStatus.UNKNOWN


def test_registry_full_is_a_clear_error(tmp_path, deck_writer):
    decks = tmp_path / "decks"
    decks.mkdir()
    deck_writer(decks, "huge", "huge-game", [("c", f"card-{i}", f"Card {i}") for i in range(TAG_CAPACITY + 1)])
    with pytest.raises(RegistryFullError, match="2702"):
        TagRegistry().updated(load_all_decks(decks))


def test_corrupt_registry_files_are_rejected(tmp_path):
    bad = tmp_path / "r.toml"
    bad.write_text('family = "tag36h11"\n[[tag]]\nid = 1\ncard = "a.b.c"\ngame = "g"\n[[tag]]\nid = 1\ncard = "a.b.d"\ngame = "g"\n')
    with pytest.raises(RegistryError, match="two cards"):
        TagRegistry.load(bad)
    bad.write_text("this is [ not toml")
    with pytest.raises(RegistryError, match="not valid TOML"):
        TagRegistry.load(bad)
    with pytest.raises(RegistryError, match="not found"):
        TagRegistry.load(tmp_path / "missing.toml")
    with pytest.raises(RegistryError, match="outside"):
        TagRegistry([TagEntry(587, "a.b.c", "g")])  # 36h11 ends at 586, 41h12 starts at 1000
    bad.write_text('format = 2\nfamilies = ["tag36h11", "tagStandard41h12"]\n[[tag]]\nid = 1005\n'
                   'family = "tag36h11"\ncard = "a.b.c"\ngame = "g"\n')
    with pytest.raises(RegistryError, match="is tagStandard41h12"):
        TagRegistry.load(bad)


def test_deck_lookup_by_id_game_or_path(two_decks):
    assert load_deck("alpha", two_decks).deck_id == "alpha"
    assert load_deck("beta-game", two_decks).deck_id == "beta"
    assert load_deck(two_decks / "beta.toml").cards[0].card_id == "beta.clue.knife"
    with pytest.raises(DeckError, match="no deck called 'omega'"):
        load_deck("omega", two_decks)


def test_cli_check_and_update(tmp_path, capsys):
    path = tmp_path / "registry.toml"
    assert main(["registry", "--update", "--path", str(path)]) == 0
    assert f"{sum(len(d.cards) for d in load_all_decks())} cards" in capsys.readouterr().out
    assert main(["registry", "--check", "--path", str(path)]) == 0
    path.write_text('family = "tag36h11"\n')
    assert main(["registry", "--check", "--path", str(path)]) == 1
    assert "no tag id: carmen.location.arizona" in capsys.readouterr().out
