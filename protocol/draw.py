"""Five-card draw in a hand record (fpc « LE FIVE-CARD DRAW »): where each card of a draw
hand comes from, and the check :mod:`protocol.verify` runs on a record with ``"game": "draw"``.

Standalone (imports nothing from ``server/``), as :mod:`protocol.verify`; the server deals
with these same functions (``server/dealing/draw.py``), so both sides share one definition.

Slots (``n`` players dealt in, 2..9, first player = first left of the button)
    five cards one at a time, five rounds: player ``i`` gets slots ``i, n+i, 2n+i, 3n+i,
    4n+i``; then the burn card ``5n``; the stub is slots ``5n+1 .. 51``, top first. Slot
    ``k`` comes from deck position ``(cut + k) % 52``, as in hold'em.
Replacement cards
    the players draw in turn (``"draws"``, from the button's left); each is dealt as many
    cards as he discards, from the top of the stub, before the next one discards.
A new stub (the stub runs out)
    when the stub holds fewer cards than the player in turn discards, what is left of it,
    the burn card and the cards discarded by the players who drew before him since the last
    new stub (never his own) become the new stub, in the order of their deck positions'
    ranks in the committed stub order: position ``p`` ranks by
    ``SHA-256(b"brasseur-stub\\x00" || seed || bytes([p]))`` (ties impossible in practice;
    broken by ``p``). The 32-byte ``seed`` is drawn with the deck, committed before the deal
    as ``stub_commit = SHA-256(b"brasseur-stub-commit\\x00" || seed)`` (published with the
    root), and revealed in the record (``stub_seed``): an order of positions, independent of
    the cards, so revealing it shows no card; nobody (the server included) can steer it after
    the commitment, and no player can predict it during the hand.
Record fields (a draw hand)
    ``"game": "draw"``; ``"slots"``: ``{"hole": {seat: [5 slots]}, "burn": [5n],
    "stub": [5n+1, ..., 51]}``; ``"board": []``; ``"draws"``: one entry per player who drew,
    in turn, ``{"seat": "3", "discarded": [slots], "received": [slots]}`` (the slots of the
    cards he discarded, among his own five, and of those he was dealt: a card of a new stub
    is written at the slot it was first dealt at, the burn card's or another player's
    discarded slot); ``"stub_commit"``, ``"stub_seed"`` (hex); ``"shown"``: five cards by
    seat, each opened at the seat's final positions (its five slots, each discarded one
    replaced by the card received in its place).

Nothing else is opened: the discards, the burn card, the stub and every hand not shown stay
closed (cdc 3.6). The slots of the discards are public, not their cards: they say which of his
cards as dealt a player threw, as everyone saw him do.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Mapping, Sequence
from typing import Final, TypeGuard

from .slots import DECK_SIZE, deck_position

__all__ = [
    "DRAW_GAME",
    "DRAW_HOLE",
    "MAX_DRAW_PLAYERS",
    "SEED_BYTES",
    "STUB_COMMIT_PREFIX",
    "STUB_PREFIX",
    "check_draw",
    "draw_burn_slot",
    "draw_hole_slots",
    "draw_stub_slots",
    "replacement_positions",
    "stub_commitment",
    "stub_ranks",
]

DRAW_GAME: Final = "draw"
"""The record's ``"game"`` for five-card draw (absent: hold'em)."""
DRAW_HOLE: Final = 5
MAX_DRAW_PLAYERS: Final = 9
"""Most players a draw deal fits: five cards each, a burn card, a draw of five (45 + 7 = 52)."""
SEED_BYTES: Final = 32
STUB_PREFIX: Final = b"brasseur-stub\x00"
STUB_COMMIT_PREFIX: Final = b"brasseur-stub-commit\x00"
_NAMES: Final[tuple[str, ...]] = tuple(r + s for r in "23456789TJQKA" for s in "cdhs")
_INDEX: Final = {name: i for i, name in enumerate(_NAMES)}
_SEED_HEX = re.compile(r"[0-9a-f]{64}")


def _is_int(value: object) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_players(players: int) -> None:
    if not 2 <= players <= MAX_DRAW_PLAYERS:
        raise ValueError(f"a draw deal needs 2..{MAX_DRAW_PLAYERS} players, not {players}")


def draw_hole_slots(players: int) -> list[tuple[int, ...]]:
    """Each player's five slots, first player = first left of the button (one card at a
    time, five rounds). Raises ValueError outside 2..9 players."""
    _check_players(players)
    return [tuple(r * players + i for r in range(DRAW_HOLE)) for i in range(players)]


def draw_burn_slot(players: int) -> int:
    """The slot of the card burnt before the draw: ``5n``."""
    _check_players(players)
    return DRAW_HOLE * players


def draw_stub_slots(players: int) -> list[int]:
    """The stub's slots, top first: ``5n+1 .. 51``."""
    return list(range(draw_burn_slot(players) + 1, DECK_SIZE))


def stub_commitment(seed: bytes) -> bytes:
    """``SHA-256(b"brasseur-stub-commit\\x00" || seed)``: published with the root."""
    return hashlib.sha256(STUB_COMMIT_PREFIX + seed).digest()


def stub_ranks(seed: bytes) -> dict[int, int]:
    """Deck position -> its rank in the order of a new stub (0 first)."""
    keys = sorted(
        range(DECK_SIZE),
        key=lambda p: (hashlib.sha256(STUB_PREFIX + seed + bytes((p,))).digest(), p),
    )
    return {p: k for k, p in enumerate(keys)}


def replacement_positions(
    players: int, *, cut: int, seed: bytes, discards: Sequence[Sequence[int]]
) -> tuple[list[list[int]], int]:
    """The deck positions each drawer is dealt, and how many new stubs were formed.

    ``discards``: the positions each player discarded, in the order they drew. See the
    module docstring; the engine's :class:`server.engine.draw.DrawRound` deals the same
    cards when given this deal's stub, burn card and stub order."""
    ranks = stub_ranks(seed)
    stub = [deck_position(cut, slot) for slot in draw_stub_slots(players)]
    burn: int | None = deck_position(cut, draw_burn_slot(players))
    pending: list[int] = []
    received: list[list[int]] = []
    reshuffles = 0
    for discarded in discards:
        if len(discarded) > len(stub):
            gathered = [*stub, *(() if burn is None else (burn,)), *pending]
            stub = sorted(gathered, key=ranks.__getitem__)
            burn, pending = None, []
            reshuffles += 1
        received.append(stub[: len(discarded)])
        del stub[: len(discarded)]
        pending.extend(discarded)
    return received, reshuffles


# --- checking a record ---------------------------------------------------------------------


def _slots(value: object) -> list[int] | None:
    if isinstance(value, list) and all(_is_int(v) for v in value):
        return list(value)
    return None


def _check_layout(
    record: Mapping[str, object], n: int, problems: list[str]
) -> dict[str, list[int]] | None:
    """The draw slots by seat, checked against the canonical deal; None if unusable."""
    slots = record.get("slots")
    if not isinstance(slots, Mapping):
        problems.append("slots is missing or not an object")
        return None
    if _slots(slots.get("burn")) != [draw_burn_slot(n)]:
        problems.append(f"slots.burn is not the draw's burn slot [{draw_burn_slot(n)}]")
    if _slots(slots.get("stub")) != draw_stub_slots(n):
        problems.append(f"slots.stub is not the draw's stub, slots {5 * n + 1}..51")
    raw = slots.get("hole")
    canonical = draw_hole_slots(n)
    if not isinstance(raw, Mapping) or len(raw) != n:
        problems.append(f"slots.hole must give five slots for each of the {n} players")
        return None
    hole: dict[str, list[int]] = {}
    for seat, five in raw.items():
        parsed = _slots(five)
        if parsed is None or len(parsed) != DRAW_HOLE:
            problems.append(f"slots.hole[{seat}] must be five slots")
            return None
        hole[str(seat)] = parsed
    order = record.get("deal_order")
    if not isinstance(order, list) or sorted(map(str, order)) != sorted(hole):
        problems.append("deal_order must list the seats of slots.hole")
        return None
    for i, seat in enumerate(order):
        if hole[str(seat)] != list(canonical[i]):
            problems.append(
                f"seat {seat} is number {i + 1} in deal_order but holds slots"
                f" {hole[str(seat)]}, not {list(canonical[i])}"
            )
    return hole


def _check_seed(record: Mapping[str, object], problems: list[str]) -> bytes | None:
    seed, commit = record.get("stub_seed"), record.get("stub_commit")
    if not isinstance(seed, str) or not _SEED_HEX.fullmatch(seed):
        problems.append(f"stub_seed is missing or not {SEED_BYTES} bytes of lowercase hex")
        return None
    if not isinstance(commit, str) or stub_commitment(bytes.fromhex(seed)).hex() != commit:
        problems.append("stub_seed does not match stub_commit (the order of a new stub)")
    return bytes.fromhex(seed)


def _check_draws(
    record: Mapping[str, object],
    hole: Mapping[str, list[int]],
    cut: int,
    seed: bytes,
    problems: list[str],
) -> dict[str, list[int]]:
    """The draws, in turn, against the committed order. Returns each seat's final
    positions (its five, each discarded one replaced by the card dealt in its place)."""
    raw_order = record.get("deal_order")
    order = [str(s) for s in raw_order] if isinstance(raw_order, list) else []
    final = {seat: [deck_position(cut, s) for s in slots] for seat, slots in hole.items()}
    draws = record.get("draws")
    if not isinstance(draws, list):
        problems.append("draws must list the players' draws, in turn")
        return final
    seats: list[str] = []
    discards: list[list[int]] = []
    claimed: list[list[int] | None] = []
    for k, entry in enumerate(draws):
        seat = str(entry.get("seat")) if isinstance(entry, Mapping) else ""
        discarded = _slots(entry.get("discarded")) if isinstance(entry, Mapping) else None
        if seat not in hole or seat not in order or discarded is None:
            problems.append(f"draws[{k}] must give a seat dealt in and its discarded slots")
            return final
        if seat in seats or (seats and order.index(seat) < order.index(seats[-1])):
            problems.append(f"draws[{k}]: seat {seat} draws out of turn or twice")
        mine = hole[seat]
        if len(set(discarded)) != len(discarded) or not set(discarded) <= set(mine):
            problems.append(f"draws[{k}]: seat {seat} discards slots {discarded} not its own")
            return final
        seats.append(seat)
        discards.append([deck_position(cut, s) for s in discarded])
        claimed.append(_slots(entry.get("received")))
    received, _ = replacement_positions(len(hole), cut=cut, seed=seed, discards=discards)
    for k, seat in enumerate(seats):
        expected = [(p - cut) % DECK_SIZE for p in received[k]]
        if claimed[k] != expected:
            problems.append(
                f"draws[{k}]: seat {seat} received slots {claimed[k]}, but the committed"
                f" order deals slots {expected}"
            )
        positions = final[seat]
        for position, new in zip(discards[k], received[k], strict=True):
            positions[positions.index(position)] = new
    return final


def _check_shown(
    record: Mapping[str, object],
    final: Mapping[str, list[int]],
    opened: Mapping[int, int],
    problems: list[str],
) -> set[int]:
    """Each shown hand: five cards, opened at the seat's final positions."""
    allowed: set[int] = set()
    shown = record.get("shown", {})
    if not isinstance(shown, Mapping):
        problems.append("shown must be an object {seat: [cards]}")
        return allowed
    for seat, cards in shown.items():
        positions = final.get(str(seat))
        if positions is None:
            problems.append(f"shown seat {seat} was not dealt in")
            continue
        if not isinstance(cards, list) or len(cards) != DRAW_HOLE:
            problems.append(f"shown[{seat}] must list five cards")
            continue
        for name in cards:
            hits = [
                p
                for p in positions
                if p not in allowed and p in opened and _NAMES[opened[p]] == name
            ]
            if not hits:
                problems.append(
                    f"seat {seat} shows {name!r} but no opening at its positions after the"
                    f" draw {positions} holds that card"
                )
                continue
            allowed.add(hits[0])
    return allowed


def check_draw(
    record: Mapping[str, object], cut: int, opened: Mapping[int, int], problems: list[str]
) -> set[int]:
    """Check a draw record (see the module docstring), appending to ``problems``. ``opened``
    is the card opened at each position (checked by the caller). Returns the positions that
    may be opened: those of the cards shown."""
    players = record.get("players_dealt")
    if not _is_int(players) or not 2 <= players <= MAX_DRAW_PLAYERS:
        problems.append(f"players_dealt must be an integer in 2..{MAX_DRAW_PLAYERS} (draw)")
        return set()
    if record.get("board", []) != []:
        problems.append("a draw hand has no board")
    if "runs" in record or "run_boards" in record:
        problems.append("a draw hand is dealt once: no runs")
    hole = _check_layout(record, players, problems)
    seed = _check_seed(record, problems)
    if hole is None or seed is None:
        problems.append("cannot match the draw's cards to their positions (see above)")
        return set()
    final = _check_draws(record, hole, cut, seed, problems)
    return _check_shown(record, final, opened, problems)
