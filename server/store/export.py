"""Exports of hand records (``brasseur-hand/1``): JSON, and PokerStars text hand histories.

Pure functions, no I/O. The PokerStars text follows the tournament (or play-chips cash)
layout that tracking software (HoldemManager, PokerTracker, Hand2Note) imports::

    PokerStars Hand #<id>: Tournament #<tid>, 100+0 Hold'em No Limit - Level I (10/20) - <date>
    Table '<tid> <n>' 9-max Seat #3 is the button
    Seat 1: ana (1500 in chips)
    ...
    *** SUMMARY ***

The head of each hand (numbers, date, game and table lines) is :mod:`.psheader`'s; a
five-card draw hand (``"game": "draw"``) is written in the PokerStars draw layout
(:mod:`.psdraw`).

Exports of long histories go by pages (:func:`export_page`): a page is built hand by hand, in
a worker thread, under a size budget, and the pages of a history put together are exactly the
whole export (text pages joined by a blank line; JSON pages' lists one after the other).
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, Final, Literal

from . import psdraw as _draw
from . import psruns as _runs
from .handdesc import describe_hand
from .psheader import clean as _clean
from .psheader import hand_id as _hand_id
from .psheader import header as _header

__all__ = ["EXPORT_FORMATS", "ExportFormat", "export_page", "to_json", "to_pokerstars"]

ExportFormat = Literal["txt", "json"]
EXPORT_FORMATS: Final[tuple[ExportFormat, ...]] = ("txt", "json")
"""PokerStars text (``hands.txt``) and a JSON array (``hands.json``)."""

_STREETS: Final = ("preflop", "flop", "turn", "river")
_BOARD_SIZE: Final = {"flop": 3, "turn": 4, "river": 5}
_POST_ORDER: Final = {
    "post_ante": 0,
    "post_sb": 1,
    "post_bb": 2,
    "post_seat_fee": 3,  # casino cash, « droit de siège »: a live big blind
    "post_missed_bb": 3,  # casino cash, « miss blinds »: the owed big blind, live
    "post_dead": 3,  # casino cash, « miss blinds »: dead, with his live post if any
    "post_option": 4,  # casino cash, the option: after the blinds and the seat fees
}
_LIVE_BIG: Final = ("post_bb", "post_seat_fee", "post_missed_bb")


def to_json(records: list[dict[str, Any]]) -> str:
    """The records as one JSON array, keys sorted (stable output for diffs and archives):
    ``json.dumps(records, ensure_ascii=False, sort_keys=True, indent=2)``, built hand by hand
    (:func:`export_page` makes the same text a page at a time)."""
    return _join([_hand_text(r, "json", None) for r in records], "json")


def to_pokerstars(records: list[dict[str, Any]], hero: str | None = None) -> str:
    """PokerStars-format hand histories of ``records``, two blank lines between hands.

    ``hero`` is the player whose hole cards are printed (``Dealt to hero [..]``) when the
    record knows them (``hole``, or ``shown`` at showdown). Missing optional fields are
    tolerated (no board, no pots, no ``to`` or ``added``...); actions of a kind PokerStars
    does not know are left out. Raises KeyError/ValueError/TypeError only on a malformed
    record (a player without ``seat``, a non-numeric amount...).
    """
    return "\n\n".join(_render(record, hero) for record in records)


def export_page(
    records: Iterable[Mapping[str, Any]],
    fmt: ExportFormat,
    *,
    max_bytes: int,
    hero: str | None = None,
    pause: Callable[[], None] | None = None,
    mine: Mapping[int, tuple[int, list[str]]] | None = None,
    drawn: Mapping[int, tuple[int, dict[str, list[str]]]] | None = None,
) -> tuple[bytes, int]:
    """A page of an export: ``(body, hands)``, the UTF-8 text of the first records of
    ``records`` that fit in ``max_bytes``, and how many they are. A page holds at least one
    hand (if any), even one larger than the budget: a hand record is bounded by the table
    (ten seats, a few hundred actions), far below any sensible budget.

    ``pause`` is called after each hand: a worker thread passes ``time.sleep(0)`` there to
    hand the GIL back to the event loop between hands. ``mine``: ``hand -> (seat, cards)``
    of the player exporting his own hands: in the text, each of those hands has its
    ``Dealt to`` line for the name at that seat (JSON: the records as signed, unchanged);
    ``drawn``: ``hand -> (seat, {"discarded", "received"})``, his own five-card draws, the
    record's ``drawn`` in his text (his draw line even in a hand he mucked).
    Raises as :func:`to_pokerstars` on a malformed record."""
    parts: list[bytes] = []
    size = len(_OPEN[fmt]) + len(_CLOSE[fmt])
    for record in records:
        part = _hand_text(*_own(record, fmt, hero, mine or {}, drawn or {})).encode()
        grown = size + len(part) + (len(_SEPARATOR[fmt]) if parts else 0)
        if parts and grown > max_bytes:
            break
        parts.append(part)
        size = grown
        if pause is not None:
            pause()
    if not parts:
        return _EMPTY[fmt], 0
    return _OPEN[fmt] + _SEPARATOR[fmt].join(parts) + _CLOSE[fmt], len(parts)


# a JSON array of indent 2, as json.dumps writes it: its elements are indented once more
_OPEN: Final[dict[str, bytes]] = {"txt": b"", "json": b"[\n  "}
_SEPARATOR: Final[dict[str, bytes]] = {"txt": b"\n\n", "json": b",\n  "}
_CLOSE: Final[dict[str, bytes]] = {"txt": b"", "json": b"\n]"}
_EMPTY: Final[dict[str, bytes]] = {"txt": b"", "json": b"[]"}


def _own(
    record: Mapping[str, Any],
    fmt: ExportFormat,
    hero: str | None,
    mine: Mapping[int, tuple[int, list[str]]],
    drawn: Mapping[int, tuple[int, dict[str, list[str]]]],
) -> tuple[Mapping[str, Any], ExportFormat, str | None]:
    """The record and hero of one hand of a player's own export: his seat's hole cards, and
    his name at that seat in that hand (a nickname may change between hands)."""
    own = mine.get(int(record.get("hand", -1))) if fmt == "txt" else None
    if own is None:
        return record, fmt, hero
    seat, cards = own
    name = next(
        (p.get("name") for p in record.get("players") or [] if int(p.get("seat", -1)) == seat),
        None,
    )
    if name is None:
        return record, fmt, hero
    own_record = {**record, "hole": {str(seat): cards}}
    draw = drawn.get(int(record.get("hand", -1)))
    if draw is not None and draw[0] == seat:  # five-card draw: his own draw, never another's
        own_record["drawn"] = {str(seat): draw[1]}
    return own_record, fmt, _clean(name)


def _hand_text(record: Mapping[str, Any], fmt: ExportFormat, hero: str | None) -> str:
    """One hand as it appears in an export. In JSON, an element of the array: no string of
    JSON holds a raw line break (json escapes them), so every line break is indentation."""
    if fmt == "txt":
        return _render(record, hero)
    text = json.dumps(record, ensure_ascii=False, sort_keys=True, indent=2)
    return text.replace("\n", "\n  ")


def _join(parts: list[str], fmt: ExportFormat) -> str:
    if not parts:
        return _EMPTY[fmt].decode()
    return _OPEN[fmt].decode() + _SEPARATOR[fmt].decode().join(parts) + _CLOSE[fmt].decode()


# -- helpers ------------------------------------------------------------------------------


def _card(card: object) -> str:
    text = str(card)
    rank = text[:-1].upper()
    return ("T" if rank == "10" else rank) + text[-1:].lower()


def _cards(cards: Iterable[object]) -> str:
    return " ".join(_card(c) for c in cards)


def _by_seat(mapping: object) -> dict[int, Any]:
    if not isinstance(mapping, Mapping):
        return {}
    return {int(k): v for k, v in mapping.items()}


def _describe(cards: list[str], board: list[str]) -> str | None:
    try:
        return describe_hand([*cards, *board])
    except ValueError:
        return None


@dataclass
class _Street:
    """Betting of the current street: each seat's total and the highest total."""

    to: dict[int, int] = field(default_factory=dict)
    highest: int = 0


@dataclass
class _Hand:
    record: Mapping[str, Any]
    hero: str | None
    names: dict[int, str] = field(default_factory=dict)
    folded: dict[int, str] = field(default_factory=dict)  # seat -> street of the fold
    bet_preflop: set[int] = field(default_factory=set)  # put chips in before the flop
    lines: list[str] = field(default_factory=list)

    def name(self, seat: int) -> str:
        return self.names.get(seat, f"Seat {seat}")

    def amounts(self, action: Mapping[str, Any], street: _Street) -> tuple[int, int]:
        """(to, added) of an action, each computed from the other when missing."""
        seat = int(action["seat"])
        before = street.to.get(seat, 0)
        to, added = action.get("to"), action.get("added")
        if to is None:
            to = before + int(added or 0)
        if added is None:
            added = max(int(to) - before, 0)
        return int(to), int(added)

    def post(
        self, action: Mapping[str, Any], street: _Street, dead: Mapping[str, Any] | None = None
    ) -> None:
        """One post line. ``dead``: the seat's missed small blind posted dead, written with
        his live big blind as PokerStars does (« posts small & big blinds »)."""
        seat, kind = int(action["seat"]), action["action"]
        to, added = self.amounts(action, street)
        allin = bool(action.get("allin"))
        if kind == "post_ante":  # dead money, outside the street's bets
            text = f"posts the ante {added}"
        elif kind == "post_dead":  # a dead small blind alone: not a bet of the street
            text = f"posts small blind {added}"
            if added > 0:
                self.bet_preflop.add(seat)
        else:
            if kind in ("post_seat_fee", "post_missed_bb"):  # live, on top of his blind
                to = street.to.get(seat, 0) + added
            text = f"posts {'small' if kind == 'post_sb' else 'big'} blind {added}"
            if kind == "post_option":  # casino cash « option »: a live straddle of two bb
                text = f"posts straddle {added}"
            if dead is not None:
                text = f"posts small & big blinds {added + int(dead['added'])}"
                allin = allin or bool(dead.get("allin"))
            street.to[seat] = to
            street.highest = max(street.highest, to)
            if added > 0 or dead is not None:
                self.bet_preflop.add(seat)
        if allin:
            text += " and is all-in"
        self.lines.append(f"{self.name(seat)}: {text}")

    def act(self, action: Mapping[str, Any], street: _Street, name_of_street: str) -> None:
        seat, kind = int(action["seat"]), str(action.get("action", ""))
        to, added = self.amounts(action, street)
        allin = bool(action.get("allin")) or kind == "allin"
        if kind == "allin":  # a bet, raise or call: decided by the street's highest total
            kind = "call" if to <= street.highest else "raise"
        if kind in ("bet", "raise"):
            text = f"bets {to}" if street.highest == 0 else f"raises {to - street.highest} to {to}"
        elif kind == "call":
            text = f"calls {added}"
        elif kind == "check":
            text = "checks"
        elif kind == "fold":
            self.folded[seat] = name_of_street
            text = "folds"
        else:  # unknown to PokerStars: left out rather than misreported
            return
        if allin and kind in ("bet", "raise", "call"):
            text += " and is all-in"
        if name_of_street == "preflop" and added > 0:
            self.bet_preflop.add(seat)
        street.to[seat] = max(to, street.to.get(seat, 0))
        street.highest = max(street.highest, to)
        self.lines.append(f"{self.name(seat)}: {text}")


def _render(record: Mapping[str, Any], hero: str | None) -> str:
    hand = _Hand(record=record, hero=hero)
    players = sorted(record.get("players") or [], key=lambda p: int(p["seat"]))
    actions = [a for a in record.get("actions") or [] if "seat" in a]
    for action in actions:
        hand.names.setdefault(int(action["seat"]), _clean(action.get("name", "")))
    for player in players:
        hand.names[int(player["seat"])] = _clean(player.get("name", ""))
    board = [_card(c) for c in record.get("board") or []]
    shown = {
        seat: [_card(c) for c in cards] for seat, cards in _by_seat(record.get("shown")).items()
    }
    hole = {seat: [_card(c) for c in cards] for seat, cards in _by_seat(record.get("hole")).items()}
    mucked = {int(s) for s in record.get("mucked") or []}
    button = int(record.get("button", 0))
    lines = hand.lines

    lines.extend(_header(record, _hand_id(record)))
    for player in players:
        lines.append(
            f"Seat {player['seat']}: {hand.name(int(player['seat']))} ({player['stack']} in chips)"
        )

    posts = [a for a in actions if a.get("action") in _POST_ORDER]
    posts.sort(key=lambda a: _POST_ORDER[a["action"]])  # stable: antes, small, big blind
    blind_seat = {a["action"]: int(a["seat"]) for a in reversed(posts)}
    # casino cash: a dead small blind goes on the line of the same seat's live big blind
    live_big = {int(a["seat"]) for a in posts if a["action"] in _LIVE_BIG}
    dead = {
        int(a["seat"]): a
        for a in posts
        if a["action"] == "post_dead" and int(a["seat"]) in live_big
    }
    street = _Street()
    for action in posts:
        seat = int(action["seat"])
        if action["action"] == "post_dead" and seat in live_big:
            continue  # written with his live big blind
        hand.post(action, street, dead.pop(seat, None) if action["action"] in _LIVE_BIG else None)

    draw = _draw.is_draw(record)
    lines.append("*** DEALING HANDS ***" if draw else "*** HOLE CARDS ***")
    hero_seat = None
    if hero is not None:  # five-card draw: the five dealt, never the five shown after the draw
        hero_seat = _dealt_to(hand, hero, hole, {} if draw else shown)

    moves = [a for a in actions if a.get("action") not in _POST_ORDER]
    if draw:
        _draw_streets(hand, record, moves, street, hero_seat=hero_seat, hole=hole, shown=shown)
    else:
        _streets(hand, record, board, moves, street)
    _showdown(hand, record, players, button, board, shown, mucked, blind_seat)
    return "\n".join(lines) + "\n"


def _dealt_to(
    hand: _Hand, hero: str, hole: dict[int, list[str]], shown: dict[int, list[str]]
) -> int | None:
    """``Dealt to hero [..]``; returns the hero's seat (None if he has none here)."""
    # the seat whose hole cards the record gives first (a player's own export: his seat,
    # even when another player has the same nickname), else the first seat of that name
    hero_seat = next((s for s in hole if hand.names.get(s) == hero), None)
    if hero_seat is None:
        hero_seat = next((s for s, n in hand.names.items() if n == hero), None)
    cards = hole.get(hero_seat, shown.get(hero_seat)) if hero_seat is not None else None
    if cards:
        hand.lines.append(f"Dealt to {hero} [{_cards(cards)}]")
    return hero_seat


def _draw_streets(
    hand: _Hand,
    record: Mapping[str, Any],
    moves: list[Mapping[str, Any]],
    preflop: _Street,
    *,
    hero_seat: int | None,
    hole: dict[int, list[str]],
    shown: dict[int, list[str]],
) -> None:
    """Five-card draw (:mod:`.psdraw`): the betting before the draw, ``*** FIRST DRAW ***``
    and the draws, the betting after it, then the uncalled bet returned."""
    street = preflop
    for name in _draw.DRAW_STREETS:
        if name == "draw":
            lines = _draw.draw_lines(
                record,
                name=hand.name,
                hero_seat=hero_seat,
                dealt=hole.get(hero_seat) if hero_seat is not None else None,
                shown=shown.get(hero_seat) if hero_seat is not None else None,
                card=_card,
            )
            if not lines:
                break
            hand.lines.extend(lines)
            street = _Street()
        for action in moves:
            if action.get("street", "preflop") == name:
                hand.act(action, street, name)
    hand.lines.extend(_returned(record, hand))


def _streets(
    hand: _Hand,
    record: Mapping[str, Any],
    board: list[str],
    moves: list[Mapping[str, Any]],
    preflop: _Street,
) -> None:
    """Each street dealt: its cards, its actions, and the uncalled bet returned after the
    last street played. ``preflop``: the bets of the blinds."""
    lines = hand.lines
    street = preflop
    last_street = str(moves[-1].get("street", "preflop")) if moves else "preflop"
    returned_done = False
    first_run_street = _runs.first_street(record)  # fpc multi-bordes, run it twice
    for name in _STREETS:
        if name == first_run_street:  # betting was over: each run's streets, FIRST, SECOND...
            lines.extend(_runs.street_lines(_runs.run_boards(record, board), name))
            break
        if name != "preflop":
            size = _BOARD_SIZE[name]
            if len(board) < size:
                break
            shown_before = f"[{_cards(board[: size - 1])}] [{board[size - 1]}]"
            lines.append(
                f"*** {name.upper()} *** "
                + (f"[{_cards(board[:3])}]" if name == "flop" else shown_before)
            )
            street = _Street()
        for action in moves:
            if action.get("street", "preflop") == name:
                hand.act(action, street, name)
        if name == last_street:
            lines.extend(_returned(record, hand))
            returned_done = True
    if not returned_done:
        lines.extend(_returned(record, hand))


def _returned(record: Mapping[str, Any], hand: _Hand) -> list[str]:
    out = []
    for item in record.get("returned") or []:
        seat = int(item["seat"])
        name = hand.names.get(seat) or _clean(item.get("name", f"Seat {seat}"))
        out.append(f"Uncalled bet ({item['amount']}) returned to {name}")
    return out


def _pot_shares(pot: Mapping[str, Any]) -> list[tuple[int, int]]:
    shares = pot.get("shares")
    if shares:
        return [(int(seat), int(amount)) for seat, amount in shares]
    winners = [int(w) for w in pot.get("winners") or []]
    if not winners:
        return []
    each, odd = divmod(int(pot.get("amount", 0)) - int(pot.get("rake", 0)), len(winners))
    return [(w, each + (1 if i < odd else 0)) for i, w in enumerate(winners)]


def _pot_label(index: int, count: int) -> str:
    if count == 1:
        return "pot"
    if index == 0:
        return "main pot"
    return "side pot" if count == 2 else f"side pot-{index}"


def _showdown(
    hand: _Hand,
    record: Mapping[str, Any],
    players: list[Mapping[str, Any]],
    button: int,
    board: list[str],
    shown: dict[int, list[str]],
    mucked: set[int],
    blind_seat: dict[str, int],
) -> None:
    lines = hand.lines
    seats = [int(p["seat"]) for p in players] or sorted(hand.names)
    order = sorted(seats, key=lambda s: (s <= button, s))  # from the button's left
    contenders = [s for s in order if s not in hand.folded]
    pots = [p for p in record.get("pots") or [] if int(p.get("amount", 0)) > 0]
    boards = _runs.run_boards(record, board)  # fpc multi-bordes, run it twice: one per run
    parts = pots  # by run part; the summary adds each pot's parts up
    if len(boards) > 1:
        pots = _runs.merged_pots(pots)
    won, collected = _collect(hand, pots)
    descriptions = {s: _describe(cards, board) for s, cards in shown.items()}
    showdown = len(contenders) >= 2
    if len(boards) > 1:
        lines.extend(_runs.showdown_lines(hand.name, contenders, shown, boards, parts))
    else:
        _show_hands(hand, contenders, shown, mucked, descriptions, collected)

    lines.append("*** SUMMARY ***")
    lines.append(_total_pot(pots))
    if len(boards) > 1:
        lines.extend(_runs.board_lines(boards))
    elif board:
        lines.append(f"Board [{_cards(board)}]")
    for seat in sorted(seats):
        text = f"Seat {seat}: {hand.name(seat)}" + _positions(seat, button, blind_seat)
        if showdown and seat in shown and seat not in hand.folded and len(boards) > 1:
            text += _runs.seat_result(seat, shown[seat], boards, parts)
        elif showdown and seat in shown and seat not in hand.folded:
            amount = won.get(seat, 0)
            result = f"won ({amount})" if amount else "lost"
            description = descriptions[seat]
            text += f" showed [{_cards(shown[seat])}] and {result}"
            text += f" with {description}" if description else ""
        else:
            text += _outcome(hand, seat, won.get(seat, 0))
        lines.append(text)


def _total_pot(pots: list[Mapping[str, Any]]) -> str:
    """``Total pot T[ Main pot M. Side pot S.] | Rake R``: as PokerStars writes it, the total
    is the whole pot and each pot is written net of its rake (casino cash, « la taille »)."""
    total = sum(int(p["amount"]) for p in pots)
    rakes = [int(p.get("rake", 0)) for p in pots]
    split = ""
    if len(pots) > 1:
        split = f" Main pot {int(pots[0]['amount']) - rakes[0]}."
        for index in range(1, len(pots)):
            net = int(pots[index]["amount"]) - rakes[index]
            split += f" {_pot_label(index, len(pots)).capitalize()} {net}."
    return f"Total pot {total}{split} | Rake {sum(rakes)}"


def _positions(seat: int, button: int, blind_seat: dict[str, int]) -> str:
    """`` (button)``, `` (small blind)``, `` (big blind)`` as the seat was."""
    text = ""
    if seat == button:
        text += " (button)"
    if seat == blind_seat.get("post_sb"):
        text += " (small blind)"
    if seat == blind_seat.get("post_bb"):
        text += " (big blind)"
    return text


def _outcome(hand: _Hand, seat: int, amount: int) -> str:
    """How the hand ended for a seat that did not show down: folded, collected or mucked."""
    if seat in hand.folded and _draw.is_draw(hand.record):
        text = _draw.fold_text(hand.folded[seat])
        if hand.folded[seat] == "preflop" and seat not in hand.bet_preflop:
            text += " (didn't bet)"
        return text
    if seat in hand.folded:
        fold_street = hand.folded[seat]
        if fold_street == "preflop":
            text = " folded before Flop"
            if seat not in hand.bet_preflop:
                text += " (didn't bet)"
            return text
        return f" folded on the {fold_street.capitalize()}"
    if amount:
        return f" collected ({amount})"
    return " mucked"


def _collect(hand: _Hand, pots: list[Mapping[str, Any]]) -> tuple[dict[int, int], list[str]]:
    """What each seat won, and the "collected" lines (side pots are awarded first)."""
    won: dict[int, int] = {}
    collected: list[str] = []
    for index in reversed(range(len(pots))):  # side pots are awarded first
        label = _pot_label(index, len(pots))
        for seat, amount in _pot_shares(pots[index]):
            won[seat] = won.get(seat, 0) + amount
            collected.append(f"{hand.name(seat)} collected {amount} from {label}")
    return won, collected


def _show_hands(
    hand: _Hand,
    contenders: list[int],
    shown: dict[int, list[str]],
    mucked: set[int],
    descriptions: dict[int, str | None],
    collected: list[str],
) -> None:
    """The show down (two hands or more left), or the uncontested winner; the pots."""
    lines = hand.lines

    def shows(seat: int) -> str:
        text = f"{hand.name(seat)}: shows [{_cards(shown[seat])}]"
        return text + (f" ({descriptions[seat]})" if descriptions[seat] else "")

    if len(contenders) >= 2:
        lines.append("*** SHOW DOWN ***")
        for seat in contenders:
            if seat in shown:
                lines.append(shows(seat))
            elif seat in mucked:
                lines.append(f"{hand.name(seat)}: mucks hand")
        lines.extend(collected)
    else:
        lines.extend(collected)
        for seat in contenders:
            lines.append(shows(seat) if seat in shown else f"{hand.name(seat)}: doesn't show hand")
