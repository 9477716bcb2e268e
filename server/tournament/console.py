"""The director's console commands (``direct`` messages, director token checked by the host):
each checked and turned into the report the coordinator hands to the
:class:`~server.tournament.coordinator.DirectorLoop`."""

from __future__ import annotations

from collections.abc import Callable, Container
from typing import Any

from protocol import ErrorCode, ProtocolError
from protocol import messages as m

from .lobby import RAIL_MODES

__all__ = ["CONSOLE_OPS", "console_report"]

Report = tuple[str, dict[str, Any]]


def _start(msg: m.Direct, player: str) -> Report:
    return "start", {}


def _clock(msg: m.Direct, player: str) -> Report:
    # pause, resume, stop (the hard stop by hand), close_late (late registration closed now)
    return msg.op, {"text": msg.text or ""}


def _disqualify(msg: m.Direct, player: str) -> Report:
    # tda 71, cdc 11.x: chips removed, ranked now
    return "abandon", {"player": player, "dq": True, "text": msg.text}


def _adjust(msg: m.Direct, player: str) -> Report:
    if msg.amount is None or msg.amount <= 0 or not msg.text:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a positive stack and a reason")
    return "adjust", {"player": player, "stack": msg.amount, "reason": msg.text}


def _note(msg: m.Direct, player: str) -> Report:
    return msg.op, {"player": player, "hands": msg.hands or 0, "text": msg.text or ""}


def _rule(msg: m.Direct, player: str) -> Report:
    # a ruling on a pending call (``amount`` is the call's number)
    if msg.amount is None or not msg.text:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "the call's number and a ruling")
    return "rule", {"call": msg.amount, "text": msg.text}


def _spectators(msg: m.Direct, player: str) -> Report:
    # the rail: live (no hole card ever) or commentary (a hand behind, finished hands' cards)
    if msg.text not in RAIL_MODES:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, f"text: one of {', '.join(RAIL_MODES)}")
    return "spectators", {"mode": msg.text}


_SIMPLE: dict[str, Callable[[m.Direct, str], Report]] = {
    "start": _start,
    "pause": _clock,
    "resume": _clock,
    "stop": _clock,
    "close_late": _clock,
    "disqualify": _disqualify,
    "adjust": _adjust,
    "warn": _note,
    "penalty": _note,
    "rule": _rule,
    "spectators": _spectators,
}

CONSOLE_OPS = frozenset({*_SIMPLE, "move", "folded"})
"""``folded`` (cdc 10.6: the folded hands of a table) is answered by the host itself."""

_ABOUT_A_PLAYER = frozenset({"move", "warn", "penalty", "disqualify", "adjust"})
_SEATED_PLAYER = frozenset({"warn", "penalty"})


def console_report(
    msg: m.Direct,
    names: Container[str],
    seated: Container[str],
    table_number: Callable[[str], int | None],
) -> Report | None:
    """The report for a console command (``msg.op`` in :data:`CONSOLE_OPS`), None for
    ``folded``. ``names``: the registered players; ``seated``: those holding a seat. Raises
    :class:`ProtocolError` for a command that cannot be right."""
    player = msg.player or ""
    if msg.op in _ABOUT_A_PLAYER and player not in names:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "unknown player")
    if msg.op == "penalty" and not 1 <= (msg.hands or 0) <= 100:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "1 to 100 hands")
    if msg.op in _SEATED_PLAYER and player not in seated:
        raise ProtocolError(ErrorCode.OUT_OF_RANGE, "the player has no seat")
    if msg.op == "folded":
        return None
    if msg.op == "move":
        table = table_number(msg.table or "")
        if table is None or msg.seat is None:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "a table and a seat")
        return "move", {"player": player, "table": table, "seat": msg.seat}
    return _SIMPLE[msg.op](msg, player)
