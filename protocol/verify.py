"""Check a signed Brasseur hand record: the cards seen came from the deck committed before the deal.

Standalone on purpose (imports nothing from ``server/``) so that any client can check a record::

    python -m protocol.verify HANDRECORD.json [--key HEX]
    python -m protocol.verify - < HANDRECORD.json

It prints ``OK`` and exits 0, or prints one problem per line and exits 1.

The construction (also in docs/fairness.md; ``server/dealing`` builds records with the
primitives of this module, so both sides share one definition):

Cards
    ints 0..51, index into ``[r + s for r in "23456789TJQKA" for s in "cdhs"]``
    (``0`` = ``2c``, ``51`` = ``As``); records write them as names (``"As"``).
Leaf
    for deck position ``p`` (0..51) holding ``card`` with a fresh 16-byte ``salt``:
    ``leaf_p = SHA-256(b"brasseur-card\\x00" || bytes([p, card]) || salt)``.
Merkle tree
    level 0 is ``leaf_0 .. leaf_51`` in position order. Each next level pairs the nodes of
    the level below from the left: ``parent = SHA-256(b"\\x01" || left || right)``; when a
    level has an odd number of nodes, its last node is promoted unchanged to the next level.
    Level sizes are 52, 26, 13, 7, 4, 2, 1; the last node is the root, published (hex) to
    every player before the deal.
Proof
    the list, bottom up, of ``[side, sibling_hex]`` for every level where the node has a
    sibling (none where it is promoted). ``side`` says where the sibling sits: ``"L"`` gives
    ``SHA-256(b"\\x01" || sibling || current)``, ``"R"`` gives
    ``SHA-256(b"\\x01" || current || sibling)``. The sides must be exactly those of position
    ``p`` in a 52-leaf tree (:func:`proof_sides`), which binds an opening to its position.
Cut
    applied after the commitment (cdc 5.2): the card dealt at slot ``k`` (0-based count of
    cards dealt, burns included) comes from position ``(cut + k) % 52``.
Slots (hold'em, ``n`` players dealt in, first player = first left of the button)
    hole cards one at a time, two rounds: player ``i`` gets slots ``i`` and ``n + i``;
    then burn ``2n``, flop ``2n+1, 2n+2, 2n+3``, burn ``2n+4``, turn ``2n+5``, burn
    ``2n+6``, river ``2n+7``. The runs of the board after the first (fpc cash
    multi-bordes, run it twice) take eight slots each after those: :mod:`protocol.runs`.
    Five-card draw (``"game": "draw"``): five slots each, the burn card, the stub, and the
    committed order of a new stub: :mod:`protocol.draw`.
Signature
    Ed25519 over the canonical JSON of the record without its ``"signature"`` field (the
    ``"public_key"`` field is signed): ``json.dumps(record, sort_keys=True,
    separators=(",", ":"), ensure_ascii=False, allow_nan=False)`` encoded in UTF-8.
    ``public_key`` is the raw 32-byte key in hex, ``signature`` the 64-byte signature in hex.

No rabbit hunting (cdc 3.6, tda 28): a record opens only the positions of the board cards
dealt face up and of the hole cards shown; an opening of any other position (undealt, burnt,
mucked) is itself a problem.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import re
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Final, TypeGuard

from cryptography.exceptions import InvalidSignature
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey

from .chips import chip_problems
from .draw import DRAW_GAME, check_draw
from .runs import check_runs
from .slots import (
    DECK_SIZE,
    MAX_PLAYERS,
    board_slots,
    burn_slots,
    deck_position,
    hole_slots,
)

__all__ = [
    "BOARD_SIZES",
    "CARD_NAMES",
    "DECK_SIZE",
    "LEAF_PREFIX",
    "MAX_PLAYERS",
    "NODE_PREFIX",
    "RECORD_FORMAT",
    "SALT_BYTES",
    "Side",
    "board_slots",
    "burn_slots",
    "check_opening",
    "deck_position",
    "hole_slots",
    "leaf_hash",
    "main",
    "node_hash",
    "proof_sides",
    "root_from_proof",
    "signed_bytes",
    "verify_record",
]

RECORD_FORMAT: Final = "brasseur-hand/1"
SALT_BYTES: Final = 16
LEAF_PREFIX: Final = b"brasseur-card\x00"
NODE_PREFIX: Final = b"\x01"
BOARD_SIZES: Final = (0, 3, 4, 5)
"""How many board cards can have been dealt face up: none, flop, turn, river."""
CARD_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
_CARD_INDEX: Final = {name: i for i, name in enumerate(CARD_NAMES)}
_HASH_HEX = re.compile(r"[0-9a-f]{64}")
_SALT_HEX = re.compile(r"[0-9a-f]{32}")
_SIGNATURE_HEX = re.compile(r"[0-9a-f]{128}")


class Side(StrEnum):
    """Where the sibling sits at one step of a Merkle proof."""

    LEFT = "L"
    """The sibling is the left input: ``parent = SHA-256(0x01 || sibling || current)``."""
    RIGHT = "R"
    """The sibling is the right input: ``parent = SHA-256(0x01 || current || sibling)``."""


# --- the construction ----------------------------------------------------------------------


def leaf_hash(position: int, card: int, salt: bytes) -> bytes:
    """``SHA-256(b"brasseur-card\\x00" || bytes([position, card]) || salt)``.

    Raises ValueError for a position or card outside 0..51 or a salt that is not 16 bytes.
    """
    if not 0 <= position < DECK_SIZE or not 0 <= card < DECK_SIZE:
        raise ValueError("position and card must be in 0..51")
    if len(salt) != SALT_BYTES:
        raise ValueError(f"a salt is {SALT_BYTES} bytes")
    return hashlib.sha256(LEAF_PREFIX + bytes((position, card)) + salt).digest()


def node_hash(left: bytes, right: bytes) -> bytes:
    """``SHA-256(0x01 || left || right)``: the parent of two Merkle nodes."""
    return hashlib.sha256(NODE_PREFIX + left + right).digest()


def proof_sides(position: int, leaves: int = DECK_SIZE) -> list[Side]:
    """The sides of the proof of ``position`` in a tree of ``leaves`` leaves, bottom up.

    A level where the node is the odd last one is promoted and contributes no step.
    Raises ValueError for a position outside the tree.
    """
    if not 0 <= position < leaves:
        raise ValueError(f"position {position} outside a tree of {leaves} leaves")
    sides: list[Side] = []
    index, size = position, leaves
    while size > 1:
        if index % 2 == 1:
            sides.append(Side.LEFT)
        elif index + 1 < size:
            sides.append(Side.RIGHT)
        index //= 2
        size = (size + 1) // 2
    return sides


def root_from_proof(leaf: bytes, proof: Sequence[tuple[Side, bytes]]) -> bytes:
    """The root reached from ``leaf`` by following ``proof`` (bottom up)."""
    node = leaf
    for side, sibling in proof:
        node = node_hash(sibling, node) if side is Side.LEFT else node_hash(node, sibling)
    return node


def signed_bytes(record: Mapping[str, object]) -> bytes:
    """The bytes the signature covers: canonical JSON of ``record`` minus ``"signature"``.

    Raises ValueError for a value JSON cannot carry exactly (NaN, infinities) and TypeError
    for a value that is not JSON at all.
    """
    body = {key: value for key, value in record.items() if key != "signature"}
    text = json.dumps(
        body, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    return text.encode("utf-8")


# --- checking ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Opened:
    position: int
    card: int


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _parse_opening(
    opening: object, root: bytes | None, label: str, problems: list[str]
) -> _Opened | None:
    """Check one opening's shape and, when ``root`` is known, that it leads to the root."""
    if not isinstance(opening, Mapping):
        problems.append(f"{label}: not an object")
        return None
    position, card_name = opening.get("position"), opening.get("card")
    salt, proof = opening.get("salt"), opening.get("proof")
    if not _is_int(position):
        problems.append(f"{label}: position is not an integer")
        return None
    if not 0 <= position < DECK_SIZE:
        problems.append(f"{label}: position {position} outside 0..51")
        return None
    label = f"{label} (position {position})"
    if not isinstance(card_name, str) or card_name not in _CARD_INDEX:
        problems.append(f"{label}: bad card {card_name!r}")
        return None
    if not isinstance(salt, str) or not _SALT_HEX.fullmatch(salt):
        problems.append(f"{label}: salt is not {SALT_BYTES} bytes of lowercase hex")
        return None
    steps = _parse_proof(proof, label, problems)
    if steps is None:
        return None
    card = _CARD_INDEX[card_name]
    if [side for side, _ in steps] != proof_sides(position):
        problems.append(f"{label}: proof is not the path of position {position}")
        return None
    if root is not None:
        leaf = leaf_hash(position, card, bytes.fromhex(salt))
        if root_from_proof(leaf, steps) != root:
            problems.append(f"{label}: {card_name} with its salt and proof does not reach the root")
            return None
    return _Opened(position, card)


def _parse_proof(proof: object, label: str, problems: list[str]) -> list[tuple[Side, bytes]] | None:
    """The steps of a Merkle proof, ``[["L"|"R", hex], ...]``; None if malformed."""
    if not isinstance(proof, list):
        problems.append(f"{label}: proof is not a list")
        return None
    steps: list[tuple[Side, bytes]] = []
    for step in proof:
        if (
            not isinstance(step, list)
            or len(step) != 2
            or step[0] not in (Side.LEFT, Side.RIGHT)
            or not isinstance(step[1], str)
            or not _HASH_HEX.fullmatch(step[1])
        ):
            problems.append(f'{label}: malformed proof step {step!r} (want ["L"|"R", hex])')
            return None
        steps.append((Side(step[0]), bytes.fromhex(step[1])))
    return steps


def check_opening(opening: object, root: str, *, expected_position: int | None = None) -> list[str]:
    """Problems with one opening (e.g. a player's private hole-card opening); empty if valid.

    ``root`` is the hex root published before the deal; ``expected_position`` is
    ``(cut + slot) % 52`` for the slot the card was dealt at, when the caller knows it.
    """
    problems: list[str] = []
    if not _HASH_HEX.fullmatch(root):
        return ["root is not 32 bytes of lowercase hex"]
    opened = _parse_opening(opening, bytes.fromhex(root), "opening", problems)
    if opened is not None and expected_position not in (None, opened.position):
        problems.append(f"opening is for position {opened.position}, expected {expected_position}")
    return problems


def _check_signature(
    record: Mapping[str, object], expected_public_key: str | None, problems: list[str]
) -> None:
    public_key, signature = record.get("public_key"), record.get("signature")
    if not isinstance(public_key, str) or not _HASH_HEX.fullmatch(public_key):
        problems.append("public_key is missing or not 32 bytes of lowercase hex")
        return
    if expected_public_key is not None and public_key != expected_public_key.strip().lower():
        problems.append(
            f"record signed by key {public_key}, not the expected key {expected_public_key}"
        )
    if not isinstance(signature, str) or not _SIGNATURE_HEX.fullmatch(signature):
        problems.append("signature is missing or not 64 bytes of lowercase hex")
        return
    try:
        message = signed_bytes(record)
    except (TypeError, ValueError) as exc:
        problems.append(f"record is not canonical JSON: {exc}")
        return
    try:
        key = Ed25519PublicKey.from_public_bytes(bytes.fromhex(public_key))
        key.verify(bytes.fromhex(signature), message)
    except (InvalidSignature, ValueError):
        problems.append("signature does not match the record (altered or signed by another key)")


def _slot_list(value: object, length: int) -> list[int] | None:
    if isinstance(value, list) and len(value) == length and all(_is_int(v) for v in value):
        return list(value)
    return None


def _check_slots(
    record: Mapping[str, object], problems: list[str]
) -> tuple[dict[str, list[int]], list[int]] | None:
    """Hole slots by seat and board slots, checked against the canonical deal; None if unusable."""
    players = record.get("players_dealt")
    if not _is_int(players) or not 2 <= players <= MAX_PLAYERS:
        problems.append(f"players_dealt must be an integer in 2..{MAX_PLAYERS}")
        return None
    n = players
    slots = record.get("slots")
    if not isinstance(slots, Mapping):
        problems.append("slots is missing or not an object")
        return None
    board = _slot_list(slots.get("board"), 5)
    if board is None:
        problems.append("slots.board must list five slots (flop, flop, flop, turn, river)")
        return None
    if board != list(board_slots(n)):
        problems.append(
            f"slots.board {board} is not the deal order for {n} players {list(board_slots(n))}"
        )
    if "burn" in slots and _slot_list(slots.get("burn"), 3) != list(burn_slots(n)):
        problems.append(f"slots.burn is not the deal order for {n} players {list(burn_slots(n))}")
    hole = _check_hole_slots(slots.get("hole"), n, problems)
    if hole is None:
        return None
    canonical = hole_slots(n)
    if sorted(tuple(pair) for pair in hole.values()) != canonical:
        problems.append(f"slots.hole is not the deal order for {n} players {canonical}")
    order = record.get("deal_order")
    if order is not None:
        _check_deal_order(order, hole, canonical, problems)
    return hole, board


def _check_hole_slots(hole_raw: object, n: int, problems: list[str]) -> dict[str, list[int]] | None:
    """Two slots for each of the ``n`` players, by seat; None if unusable."""
    if not isinstance(hole_raw, Mapping) or len(hole_raw) != n:
        problems.append(f"slots.hole must give two slots for each of the {n} players")
        return None
    hole: dict[str, list[int]] = {}
    for seat, pair in hole_raw.items():
        parsed = _slot_list(pair, 2)
        if parsed is None:
            problems.append(f"slots.hole[{seat}] must be two slots")
            return None
        hole[str(seat)] = parsed
    return hole


def _check_deal_order(
    order: object,
    hole: Mapping[str, list[int]],
    canonical: Sequence[tuple[int, ...]],
    problems: list[str],
) -> None:
    """``deal_order`` lists the seats of ``hole`` in the order their slots were dealt."""
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(hole):
        problems.append("deal_order must list the seats of slots.hole")
        return
    for i, seat in enumerate(order):
        if hole[str(seat)] != list(canonical[i]):
            problems.append(
                f"seat {seat} is number {i + 1} in deal_order but holds slots"
                f" {hole[str(seat)]}, not {list(canonical[i])}"
            )


def verify_record(
    record: Mapping[str, object], expected_public_key: str | None = None
) -> list[str]:
    """Every problem found in a hand record; an empty list means the record is valid.

    Checks: the format; the Ed25519 signature (and that it is ``expected_public_key``'s,
    when given); that the slots are the canonical hold'em deal for ``players_dealt``; that
    every opening's leaf and proof reach ``root`` along its own position's path; that every
    board card and every shown card is opened at ``(cut + slot) % 52`` with the same card;
    that no position is opened that was neither on the board nor shown (no rabbit hunting);
    no position or card opened twice; that the chips add up, each pot's ``rake`` included
    (:mod:`protocol.chips`); for a hand dealt in several runs, that every run's cards are
    opened at their runs' slots and each pot divided into the runs (:mod:`protocol.runs`).
    A five-card draw record (``"game": "draw"``) has its own slots, draws and new-stub
    order, checked by :mod:`protocol.draw`.
    """
    problems: list[str] = chip_problems(record) if "actions" in record else []
    if record.get("format") != RECORD_FORMAT:
        problems.append(f"format is {record.get('format')!r}, expected {RECORD_FORMAT!r}")
    _check_signature(record, expected_public_key, problems)

    root_hex = record.get("root")
    root: bytes | None = None
    if isinstance(root_hex, str) and _HASH_HEX.fullmatch(root_hex):
        root = bytes.fromhex(root_hex)
    else:
        problems.append("root is missing or not 32 bytes of lowercase hex")
    cut_value = record.get("cut")
    cut = cut_value if _is_int(cut_value) else None
    if cut is None:
        problems.append("cut is missing or not an integer")
    game = record.get("game", "holdem")
    if game == DRAW_GAME:  # fpc five-card draw: its own slots and draws (protocol.draw)
        opened = _check_openings(record, root, problems)
        if cut is None:
            problems.append("cannot match the cards to their positions (see above)")
            return problems
        allowed = check_draw(record, cut, opened, problems)
    else:
        if game != "holdem":
            problems.append(f"game is {game!r}, expected 'holdem' (or absent) or 'draw'")
        layout = _check_slots(record, problems)
        opened = _check_openings(record, root, problems)
        if layout is None or cut is None:
            problems.append("cannot match the cards to their positions (see above)")
            return problems
        hole, board_slot_list = layout
        allowed = _check_board(record, cut, board_slot_list, opened, problems)
        allowed |= _check_shown(record, cut, hole, opened, problems)
        allowed |= check_runs(record, cut, opened, problems)  # fpc multi-bordes, run it twice

    # No rabbit hunting: nothing else may be opened.
    for position in sorted(set(opened) - allowed):
        problems.append(
            f"position {position} ({CARD_NAMES[opened[position]]}) is opened but was neither"
            " on the board nor shown (rabbit hunting, cdc 3.6)"
        )
    return problems


def _check_openings(
    record: Mapping[str, object], root: bytes | None, problems: list[str]
) -> dict[int, int]:
    """Openings: each must reach the root along its own path; positions and cards unique.
    Returns the card opened at each position."""
    opened: dict[int, int] = {}
    raw_openings = record.get("opened")
    if not isinstance(raw_openings, list):
        problems.append("opened is missing or not a list")
        raw_openings = []
    cards_seen: dict[int, int] = {}
    for i, raw in enumerate(raw_openings):
        item = _parse_opening(raw, root, f"opened[{i}]", problems)
        if item is None:
            continue
        if item.position in opened:
            problems.append(f"position {item.position} is opened twice")
            continue
        if item.card in cards_seen:
            problems.append(
                f"card {CARD_NAMES[item.card]} is opened at positions"
                f" {cards_seen[item.card]} and {item.position}: the deck was not a permutation"
            )
        cards_seen[item.card] = item.position
        opened[item.position] = item.card
    return opened


def _check_board(
    record: Mapping[str, object],
    cut: int,
    board_slot_list: list[int],
    opened: Mapping[int, int],
    problems: list[str],
) -> set[int]:
    """The board: every card dealt face up must be opened where the deal put it. Returns
    the positions of the board."""
    allowed: set[int] = set()
    board = record.get("board")
    if not isinstance(board, list) or len(board) not in BOARD_SIZES:
        problems.append("board must list 0, 3, 4 or 5 cards")
        board = []
    for i, name in enumerate(board):
        position = deck_position(cut, board_slot_list[i])
        allowed.add(position)
        _check_dealt(
            f"board card {i + 1}", name, position, cut, board_slot_list[i], opened, problems
        )
    return allowed


def _check_shown(
    record: Mapping[str, object],
    cut: int,
    hole: Mapping[str, list[int]],
    opened: Mapping[int, int],
    problems: list[str],
) -> set[int]:
    """Shown hands: every card shown must be one of the seat's own hole positions. Returns
    the positions of the cards shown."""
    allowed: set[int] = set()
    shown = record.get("shown", {})
    if not isinstance(shown, Mapping):
        problems.append("shown must be an object {seat: [cards]}")
        shown = {}
    for seat, cards in shown.items():
        if str(seat) not in hole:
            problems.append(f"shown seat {seat} was not dealt in")
            continue
        if not isinstance(cards, list) or not 1 <= len(cards) <= 2:
            problems.append(f"shown[{seat}] must list one or two cards")
            continue
        allowed |= _match_shown(seat, cards, cut, hole[str(seat)], opened, problems)
    return allowed


def _match_shown(
    seat: object,
    cards: list[object],
    cut: int,
    slots: list[int],
    opened: Mapping[int, int],
    problems: list[str],
) -> set[int]:
    """The positions among the seat's hole positions that hold the cards it shows."""
    positions = [deck_position(cut, slot) for slot in slots]
    matched: set[int] = set()
    for name in cards:
        hits = [
            p
            for p in positions
            if p not in matched and p in opened and CARD_NAMES[opened[p]] == name
        ]
        if not hits:
            problems.append(
                f"seat {seat} shows {name!r} but no opening at its hole positions"
                f" {positions} (cut {cut} + slots {slots}) holds that card"
            )
            continue
        matched.add(hits[0])
    return matched


def _check_dealt(
    label: str,
    name: object,
    position: int,
    cut: int,
    slot: int,
    opened: Mapping[int, int],
    problems: list[str],
) -> None:
    where = f"position {position} = (cut {cut} + slot {slot}) % 52"
    if not isinstance(name, str) or name not in _CARD_INDEX:
        problems.append(f"{label}: bad card {name!r}")
    elif position not in opened:
        problems.append(f"{label} {name}: no opening at {where}")
    elif CARD_NAMES[opened[position]] != name:
        problems.append(f"{label} {name}: the opening at {where} is {CARD_NAMES[opened[position]]}")


# --- command line --------------------------------------------------------------------------


def _unique_keys(pairs: list[tuple[str, object]]) -> dict[str, object]:
    """JSON object hook: a key given twice could be read differently by another parser."""
    result = dict(pairs)
    if len(result) != len(pairs):
        keys = [key for key, _ in pairs]
        raise ValueError(f"duplicate key {next(k for k in keys if keys.count(k) > 1)!r}")
    return result


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m protocol.verify FILE [--key HEX]``: print OK (exit 0) or the problems (1)."""
    parser = argparse.ArgumentParser(
        prog="python -m protocol.verify",
        description="Check a signed Brasseur hand record (see docs/fairness.md).",
    )
    parser.add_argument("record", help="hand record JSON file, or - for standard input")
    parser.add_argument("--key", help="expected public key of the server (64 hex digits)")
    args = parser.parse_args(argv)
    try:
        if args.record == "-":
            data = json.load(sys.stdin, object_pairs_hook=_unique_keys)
        else:
            with open(args.record, encoding="utf-8") as f:
                data = json.load(f, object_pairs_hook=_unique_keys)
    except (OSError, ValueError) as exc:
        print(f"cannot read a JSON hand record from {args.record}: {exc}")
        return 1
    if not isinstance(data, dict):
        problems = ["the hand record is not a JSON object"]
    else:
        problems = verify_record(data, args.key)
    if problems:
        for problem in problems:
            print(problem)
        return 1
    print("OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
