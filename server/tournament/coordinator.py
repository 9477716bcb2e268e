"""Coordinators: the director's side of a live tournament.

A coordinator turns what the tables and the players report into :class:`Director` calls and
hands the decisions to every :class:`~server.tournament.host.TournamentHost` (the live side:
tables and connections). Two implementations with the same interface:

- :class:`LocalCoordinator` (default, one process): the director lives in memory and each
  report is handled at once;
- :class:`~server.tournament.redis_coordinator.RedisCoordinator` (several processes): reports
  and decisions travel through Redis and one process holds the director's lease.

Reports are ``(kind, data)`` pairs of plain values (so they cross processes as msgpack):

=========== ======================================================================
``register`` ``{"player", "name"}``
``start``    ``{}``
``ready``    ``{"table"}`` the table is between hands and wants to deal
``allin``    ``{"table"}`` hand-for-hand all-in: hold or reveal?
``ended``    ``{"table", "hand", "positions", "stacks", "busts", "cancelled"}``
``tick``     ``{}``
``present``  ``{"player"}`` his connection reached his seat (no-show removal, fpc 2-2)
``pause`` / ``resume`` / ``abandon {"player"}`` / ``adjust {"player", "stack", "reason"}``
``move {"player", "table", "seat"}`` (director's console)
=========== ======================================================================
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

from server.table.clock import Cancellable, Clock
from server.table.positions import Positions

from .decisions import (
    Bust,
    Eliminated,
    Finished,
    HandEnded,
    RefusalReason,
    Refused,
)
from .director import Director
from .errors import DirectorError

__all__ = [
    "Adjusted",
    "ConsoleRefused",
    "Coordinator",
    "DirectorLoop",
    "LocalCoordinator",
    "Report",
    "TableNote",
]

log = logging.getLogger("brasseur.tournament")

Report = tuple[str, dict[str, Any]]


@dataclass(frozen=True, slots=True, kw_only=True)
class Adjusted:
    """The director's console changed a stack between hands (reason logged)."""

    table_id: int
    seat: int
    player_id: str
    stack: int
    reason: str


@dataclass(frozen=True, slots=True, kw_only=True)
class TableNote:
    """Said at a table by the director: a warning, a penalty (``dead_hands`` missed hands,
    cdc 11.1), a player's call for the director, or a ruling on it."""

    table_id: int
    text: str
    player_id: str = ""
    dead_hands: int = 0


@dataclass(frozen=True, slots=True, kw_only=True)
class ConsoleRefused:
    """A console command that could not be carried out (told to the director's consoles)."""

    op: str
    text: str


class Coordinator(Protocol):
    def submit(self, kind: str, data: dict[str, Any]) -> None:
        """A report from a table, a player or the director's console."""
        ...

    def state(self) -> dict[str, Any]:
        """The tournament as the lobby shows it."""
        ...


class DirectorLoop:
    """The director plus what the console needs around it: queued stack adjustments and
    manual moves (applied when the table is between hands), names, and results."""

    def __init__(self, director: Director) -> None:
        self.director = director
        self.names: dict[str, str] = {}
        self.adjust: dict[str, tuple[int, str]] = {}
        self.moves: dict[str, tuple[int, int]] = {}
        self.log: list[dict[str, Any]] = []
        """The director's console actions, with their reasons (kept with the results)."""
        self.started = False
        self.finished: Finished | None = None
        self.eliminated: list[Eliminated] = []
        self.calls: list[dict[str, Any]] = []
        """Players' calls for the director waiting for a ruling (oldest first)."""
        self.next_call = 1

    def handle(self, kind: str, data: dict[str, Any], now: float) -> list[Any]:
        d = self.director
        try:
            if kind == "register":
                self.names[data["player"]] = data["name"]
                out: list[Any] = d.register(data["player"], data["name"], now)
            elif kind == "start":
                if self.started:
                    return []
                out = d.start(now)
                self.started = True
            elif kind == "ready":
                out = self._between_hands(int(data["table"]), now)
                out += d.ready(int(data["table"]), now)
            elif kind == "allin":
                out = d.allin_showdown(int(data["table"]), now)
            elif kind == "ended":
                out = d.hand_ended(ended_report(data), now)
            elif kind == "tick":
                out = d.tick(now)
            elif kind == "present":  # the player's connection reached his seat (fpc 2-2)
                d.mark_present(data["player"])
                out = []
            elif kind == "pause":
                self._log("pause", data, now)
                out = d.pause(now)
            elif kind == "resume":
                self._log("resume", data, now)
                out = d.resume(now)
            elif kind == "abandon":
                self._log("disqualify" if data.get("dq") else "abandon", data, now)
                out = d.abandon(data["player"], now)
            elif kind == "adjust":
                self.adjust[data["player"]] = (int(data["stack"]), str(data.get("reason", "")))
                self._log("adjust", data, now)
                table, _ = d.where(data["player"])
                out = [] if table is None or d.busy(table) else self._between_hands(table, now)
            elif kind == "move":
                self.moves[data["player"]] = (int(data["table"]), int(data["seat"]))
                self._log("move", data, now)
                table, _ = d.where(data["player"])
                out = [] if table is None or d.busy(table) else self._between_hands(table, now)
            elif kind in ("warn", "penalty"):
                self._log(kind, data, now)
                out = self._note(kind, data)
            elif kind == "call":
                out = self._call(data, now)
            elif kind == "rule":
                self._log("rule", data, now)
                out = self._rule(data)
            else:
                log.warning("unknown report %s", kind)
                return []
        except DirectorError as exc:
            log.warning("director refused %s %s: %s", kind, data, exc)
            if kind in ("register",):
                return [Refused(player_id=data["player"], reason=RefusalReason.NOT_ALLOWED)]
            return []
        for dec in out:
            if isinstance(dec, Eliminated):
                self.eliminated.append(dec)
            elif isinstance(dec, Finished):
                self.finished = dec
        return out

    def _note(self, kind: str, data: dict[str, Any]) -> list[Any]:
        """cdc 11.1, tda 71: a warning, or missed hands (dealt dead, blinds posted)."""
        pid = data["player"]
        table, _ = self.director.where(pid)
        if table is None:
            return []
        name = self.names.get(pid, pid)
        hands = int(data.get("hands") or 0)
        text = str(data.get("text") or "")
        if kind == "penalty":
            note = f"penalty: {name} misses {hands} hand(s) (cdc 11.1). {text}".strip()
            return [TableNote(table_id=table, text=note, player_id=pid, dead_hands=hands)]
        note = f"warning to {name} (cdc 11.1). {text}".strip()
        return [TableNote(table_id=table, text=note, player_id=pid)]

    def _call(self, data: dict[str, Any], now: float) -> list[Any]:
        """A player calls the director to his table (a dispute): a pending decision."""
        pid = data["player"]
        table, seat = self.director.where(pid)
        if table is None:
            return []
        call = {
            "id": self.next_call,
            "table": table,
            "seat": seat,
            "player": pid,
            "name": self.names.get(pid, pid),
            "hand": data.get("hand"),
            "text": str(data.get("text") or "")[:300],
            "at": now,
        }
        self.next_call += 1
        self.calls.append(call)
        del self.calls[:-50]
        note = f"{call['name']} calls the director (#{call['id']}): {call['text']}"
        return [TableNote(table_id=table, text=note)]

    def _rule(self, data: dict[str, Any]) -> list[Any]:
        """The director's ruling on a pending call, said at the table it came from."""
        call = next((c for c in self.calls if c["id"] == data.get("call")), None)
        if call is None:
            return []
        self.calls.remove(call)
        note = f"director's ruling on #{call['id']} ({call['name']}): {data.get('text', '')}"
        return [TableNote(table_id=call["table"], text=note)]

    def _log(self, op: str, data: dict[str, Any], now: float) -> None:
        self.log.append({"op": op, "at": now, **data})

    def _between_hands(self, table_id: int, now: float) -> list[Any]:
        """Console actions waiting for this table to be between hands."""
        d = self.director
        out: list[Any] = []
        for pid, (stack, reason) in list(self.adjust.items()):
            where, seat = d.where(pid)
            if where != table_id or seat is None:
                continue
            del self.adjust[pid]
            try:
                d.adjust_stack(pid, stack)
            except DirectorError as exc:
                out.append(ConsoleRefused(op="adjust", text=str(exc)))
                continue
            out.append(
                Adjusted(table_id=table_id, seat=seat, player_id=pid, stack=stack, reason=reason)
            )
        for pid, (to_table, to_seat) in list(self.moves.items()):
            where, seat = d.where(pid)
            if where != table_id or seat is None:
                continue
            name = self.names.get(pid, pid)
            if to_table in d.table_ids() and d.busy(to_table):
                continue  # waits for that table's hand to end too
            del self.moves[pid]
            move = None
            if to_table in d.table_ids() and to_seat not in d.seating(to_table):
                move = d.move(pid, to_table, to_seat)
            if move is None:
                text = f"{name} cannot go to table {to_table}, seat {to_seat}"
                out.append(ConsoleRefused(op="move", text=text))
            else:
                out.append(move)
        return out

    def state(self, now: float) -> dict[str, Any]:
        return tournament_state(self, now)


def ended_report(data: dict[str, Any]) -> HandEnded:
    p = data["positions"]
    return HandEnded(
        table_id=int(data["table"]),
        hand_no=int(data["hand"]),
        positions=Positions(button=p[0], sb_slot=p[1], big_blind=p[2]),
        stacks={int(s): (str(v[0]), int(v[1])) for s, v in data["stacks"].items()},
        busts=tuple(
            Bust(player_id=b[0], seat=int(b[1]), start_stack=int(b[2]), eliminated_by=tuple(b[3]))
            for b in data["busts"]
        ),
        cancelled=bool(data.get("cancelled")),
    )


def tournament_state(loop: DirectorLoop, now: float) -> dict[str, Any]:
    """What the lobby shows (one map, small enough for one frame)."""
    d = loop.director
    level = d.level
    counts = d.table_counts()
    seated = [(t, seat, pid) for t in counts for seat, pid in d.seating(t).items()]
    stacks = [d.stack(pid) for _, _, pid in seated]
    ends = d.next_deadline()
    blinds = level.blinds
    return {
        "name": d.config.name,
        "profile": d.config.profile,
        "phase": d.phase.value,
        "paused": d.paused,
        "level": level.number,
        "level_index": level.index,
        "break": level.is_break,
        "blinds": [blinds.sb, blinds.bb, blinds.ante] if blinds else None,
        "level_left": None if ends is None else max(0.0, ends - now),
        "players_left": d.remaining,
        "entries": d.entries,
        "average": (sum(stacks) // len(stacks)) if stacks else 0,
        "payouts": list(d.payouts),
        "hand_for_hand": d.hand_for_hand is not None,
        "tables": [[t, n] for t, n in sorted(counts.items())],
        "registered": sorted(loop.names.values())[:200],
        "players": [
            [pid, loop.names.get(pid, pid), t, seat, d.stack(pid)] for t, seat, pid in seated[:500]
        ],
        "calls": [[c["id"], c["table"], c["name"], c["hand"], c["text"]] for c in loop.calls],
        "results": [
            [r.place, loop.names.get(r.player_id, r.player_id), r.prize, r.points]
            for r in (loop.finished.results if loop.finished else ())
        ],
    }


class LocalCoordinator:
    """The director in this process: every report handled at once, the decisions applied
    by the host right away (they only queue commands on the tables' inboxes). The director's
    clock is ticked at its next deadline by a timer of the tables' clock."""

    def __init__(self, loop: DirectorLoop, clock: Clock, apply: Callable[[list[Any]], None]):
        self.loop = loop
        self.clock = clock
        self._apply = apply
        self._timer: Cancellable | None = None
        self._armed: float | None = None

    def submit(self, kind: str, data: dict[str, Any]) -> None:
        decisions = self.loop.handle(kind, data, self.clock.now())
        if decisions:
            self._apply(decisions)
        self._arm()

    def state(self) -> dict[str, Any]:
        return self.loop.state(self.clock.now())

    def _arm(self) -> None:
        deadline = self.loop.director.next_deadline()
        if deadline == self._armed:
            return
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        self._armed = deadline
        if deadline is not None:
            self._timer = self.clock.call_at(deadline + 0.001, self._tick)

    def _tick(self) -> None:
        self._armed = None
        self._timer = None
        self.submit("tick", {})

    def close(self) -> None:
        if self._timer is not None:
            self._timer.cancel()
