"""The ``tournament`` state as players receive it (pure): the coordinator's state with table
names, the rail's mode, and each player's own ``you``.

The coordinator's state (:func:`~server.tournament.coordinator.tournament_state`, the same in
every process of a Redis tournament) carries ``second_chances``, the busted players who may
rebuy or re-enter now; it is never sent as such: each player reads his own in ``you``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any, Final

__all__ = ["RAIL_MODES", "lobby_state", "you"]

RAIL_MODES: Final = ("live", "commentary")
"""The spectators' view of a tournament's tables: ``live`` (every public event as it
happens, no hole card ever) or ``commentary`` (one hand behind, with the hole cards of the
finished hands)."""


def lobby_state(
    state: Mapping[str, Any], table_name: Callable[[int], str], spectators: str
) -> dict[str, Any]:
    """The state as the lobby shows it: table names, the rail's mode (``spectators``: as this
    process's tables have it), no player's private fields."""
    out = {k: v for k, v in state.items() if k not in ("second_chances", "places")}
    out["tables"] = [[table_name(t), n] for t, n in state.get("tables", []) if isinstance(t, int)]
    out["players"] = [
        [pid, name, table_name(t), seat, stack]
        for pid, name, t, seat, stack in state.get("players", [])
    ]
    out["spectators"] = spectators
    out.setdefault("late_registration", False)
    return out


def you(
    state: Mapping[str, Any],
    pid: str | None,
    known: bool,
    seat: tuple[str, int] | None,
) -> dict[str, Any] | None:
    """The player's own part of the state: his seat (``seat``: table name and seat; the keys
    ``table`` and ``seat`` only while he holds one), ``out`` (not seated once the tournament
    started: busted, abandoned, removed) and whether a ``rebuy`` or a ``reenter`` would be
    accepted now. None for a connection that is no registered player (``known``)."""
    if pid is None or not (known or seat is not None):
        return None
    chances = state.get("second_chances", {}).get(pid) or (False, False)
    started = state.get("phase") not in (None, "registering")
    out: dict[str, Any] = {"player": pid}
    if seat is not None:
        out["table"], out["seat"] = seat
    out["out"] = seat is None and started
    out["can_rebuy"] = bool(chances[0])
    out["can_reenter"] = bool(chances[1])
    place = state.get("places", {}).get(pid)
    if place is not None and out["out"]:
        out["place"] = place  # cdc 1.10: known once registration is closed
    return out
