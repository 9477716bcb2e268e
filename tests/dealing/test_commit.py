"""Per-position commitments: every opening verifies alone; any altered part fails."""

from __future__ import annotations

import hashlib

import pytest

from protocol.verify import (
    CARD_NAMES,
    Side,
    check_opening,
    leaf_hash,
    proof_sides,
    root_from_proof,
)
from server.dealing import Deck, merkle_levels, merkle_proof
from server.engine.cards import card_name

from .conftest import seeded_deck


def reference_root(order: list[int], salts: list[bytes]) -> bytes:
    """The construction of docs/fairness.md written out again with hashlib only."""
    level = [
        hashlib.sha256(b"brasseur-card\x00" + bytes([p, c]) + s).digest()
        for p, (c, s) in enumerate(zip(order, salts, strict=True))
    ]
    while len(level) > 1:
        nxt = [
            hashlib.sha256(b"\x01" + level[i] + level[i + 1]).digest()
            for i in range(0, len(level) - 1, 2)
        ]
        if len(level) % 2:
            nxt.append(level[-1])
        level = nxt
    return level[0]


def test_card_names_match_the_engine() -> None:
    assert list(CARD_NAMES) == [card_name(c) for c in range(52)]
    assert CARD_NAMES[0] == "2c" and CARD_NAMES[51] == "As"


def test_root_matches_an_independent_implementation() -> None:
    order = list(range(51, -1, -1))
    salts = [bytes([i]) * 16 for i in range(52)]
    deck = Deck(order=order, salts=salts)
    assert deck.root == reference_root(order, salts)
    rooted = seeded_deck(9)
    openings = rooted.opening(range(52))
    assert rooted.root == reference_root(
        [o.card for o in openings], [bytes.fromhex(o.salt_hex) for o in openings]
    )


def test_proof_shape_for_52_leaves() -> None:
    # Levels 52, 26, 13, 7, 4, 2, 1: nodes 12 (of 13) and 6 (of 7) are promoted.
    assert [len(level) for level in merkle_levels([b"x" * 32] * 52)] == [52, 26, 13, 7, 4, 2, 1]
    assert proof_sides(0) == [Side.RIGHT] * 6
    assert proof_sides(51) == [Side.LEFT] * 4
    assert proof_sides(48) == [Side.RIGHT, Side.RIGHT, Side.LEFT, Side.LEFT]


@pytest.mark.parametrize("size", range(1, 20))
def test_merkle_proofs_for_any_tree_size(size: int) -> None:
    leaves = [hashlib.sha256(bytes([i])).digest() for i in range(size)]
    levels = merkle_levels(leaves)
    for i, leaf in enumerate(leaves):
        proof = merkle_proof(levels, i)
        assert [side for side, _ in proof] == proof_sides(i, size)
        assert root_from_proof(leaf, proof) == levels[-1][0]


@pytest.mark.parametrize("seed", range(3))
def test_every_single_opening_verifies(seed: int) -> None:
    deck = seeded_deck(seed)
    for opening in deck.opening(range(52)):
        js = opening.to_json()
        assert check_opening(js, deck.root_hex, expected_position=opening.position) == []
        assert [Side(s) for s, _ in js["proof"]] == proof_sides(opening.position)  # type: ignore[attr-defined]


def _alter_hex(text: str) -> str:
    return ("0" if text[0] != "0" else "1") + text[1:]


def test_an_altered_card_salt_proof_or_position_fails() -> None:
    deck = seeded_deck(5)
    for opening in deck.opening(range(52)):
        good = opening.to_json()
        other_card = CARD_NAMES[(opening.card + 1) % 52]
        proof: list[list[str]] = good["proof"]  # type: ignore[assignment]
        variants: list[dict[str, object]] = [
            {**good, "card": other_card},
            {**good, "salt": _alter_hex(str(good["salt"]))},
            {**good, "position": (opening.position + 1) % 52},
        ]
        for i in range(len(proof)):
            bad_proof = [list(step) for step in proof]
            bad_proof[i][1] = _alter_hex(bad_proof[i][1])
            variants.append({**good, "proof": bad_proof})
            swapped = [list(step) for step in proof]
            swapped[i][0] = "L" if swapped[i][0] == "R" else "R"
            variants.append({**good, "proof": swapped})
        variants.append({**good, "proof": proof[:-1]})
        for bad in variants:
            assert check_opening(bad, deck.root_hex), bad
        assert check_opening(good, deck.root_hex, expected_position=(opening.position + 1) % 52)
        assert check_opening(good, seeded_deck(6).root_hex)


def test_an_opening_cannot_be_moved_to_another_position() -> None:
    # The leaf binds its position and the proof path must be that position's path.
    deck = seeded_deck(7)
    a, b = deck.opening([10, 11])
    moved = {**a.to_json(), "position": b.position}
    problems = check_opening(moved, deck.root_hex)
    assert problems and "path" in problems[0]


def test_openings_reveal_only_what_is_asked() -> None:
    deck = seeded_deck(8)
    (opening,) = deck.opening([30])
    assert opening.position == 30
    assert repr(deck) == f"Deck(root={deck.root_hex}, cut=None)"
    with pytest.raises(ValueError):
        deck.opening([3, 3])
    with pytest.raises(ValueError):
        deck.opening([52])


def test_salts_differ_and_roots_differ() -> None:
    a, b = Deck.shuffled(), Deck.shuffled()
    assert a.root != b.root
    salts = {o.salt_hex for o in a.opening(range(52))}
    assert len(salts) == 52 and all(len(s) == 32 for s in salts)


def test_same_cards_different_salts_different_root() -> None:
    order = list(range(52))
    one = Deck(order=order, salts=[b"\x00" * 16] * 52)
    two = Deck(order=order, salts=[b"\x00" * 15 + b"\x01"] * 52)
    assert one.root != two.root


@pytest.mark.parametrize(
    ("order", "salts"),
    [
        ([0] * 52, [b"\x00" * 16] * 52),
        (list(range(51)), [b"\x00" * 16] * 51),
        (list(range(52)), [b"\x00" * 15] * 52),
        (list(range(52)), [b"\x00" * 16] * 51),
    ],
)
def test_a_deck_must_be_a_permutation_with_52_salts(order: list[int], salts: list[bytes]) -> None:
    with pytest.raises(ValueError):
        Deck(order=order, salts=salts)


def test_leaf_hash_refuses_bad_input() -> None:
    with pytest.raises(ValueError):
        leaf_hash(52, 0, b"\x00" * 16)
    with pytest.raises(ValueError):
        leaf_hash(0, 0, b"\x00" * 8)
