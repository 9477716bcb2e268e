"""Which process runs which table of a Redis tournament: the lease holder's side, pure (no
I/O; see :mod:`server.tournament.redis_coordinator`).

A new table goes to the live process running the fewest open tables; the open tables of a
process that is gone (or that gave them back: ``orphaned``, directory entry ``?``) are given
to live ones (``adopt``), which rebuild them from Redis and report what they found
(``recovered``): the director then closes the hand it still believes in play and publishes
the seating the table must take (``sync``).
"""

from __future__ import annotations

import logging
from typing import Any

from .decisions import FinalTable, Instruction, TableAssignment
from .recovery import close_recovered_hand
from .redis_state import Directing

__all__ = ["open_tables", "pick", "place", "recovered", "seating", "take_over"]

log = logging.getLogger("brasseur.tournament")


def open_tables(st: Directing) -> set[int]:
    return set(st.loop.director.table_ids())


def pick(st: Directing, live: dict[str, str], default: str) -> str:
    """The live process running the fewest open tables (``default`` if none is known)."""
    if not live:
        return default
    load = dict.fromkeys(live, 0)
    for table in open_tables(st):
        owner = st.directory.get(table)
        if owner in load:
            load[owner] += 1
    return min(sorted(load), key=lambda p: load[p])


def place(
    st: Directing, out: list[Instruction], live: dict[str, str], default: str
) -> dict[int, str]:
    """A process for every table the decisions open."""
    placed: dict[int, str] = {}
    for dec in out:
        assignment = dec.table if isinstance(dec, FinalTable) else dec
        if isinstance(assignment, TableAssignment):
            owner = pick(st, live, default)
            st.directory[assignment.table_id] = placed[assignment.table_id] = owner
    return placed


def take_over(
    st: Directing, live: dict[str, str], adopt: dict[int, dict[str, Any]], default: str, tid: str
) -> None:
    """Give the open tables of dead processes to live ones (``adopt``: table -> what the new
    owner needs to rebuild it)."""
    d = st.loop.director
    for table in sorted(open_tables(st)):
        owner = st.directory.get(table)
        if owner is None or owner in live:
            continue
        new = pick(st, live, default)
        log.warning("tournament %s: table %s of %s (gone) taken over by %s", tid, table, owner, new)
        st.directory[table] = st.adopting[table] = new
        adopt[table] = {"max_seats": d.table_hand(table).max_seats}


def seating(st: Directing, table: int) -> dict[int, list[Any]] | None:
    """The director's seating of ``table`` (seat -> [player, name, stack]); None if closed."""
    d = st.loop.director
    if table not in open_tables(st):
        return None
    return {
        seat: [pid, st.loop.names.get(pid, pid), d.stack(pid)]
        for seat, pid in d.seating(table).items()
    }


def recovered(
    st: Directing, data: dict[str, Any], proc: str, now: float, synced: set[int], tid: str
) -> list[Instruction]:
    """A process rebuilt a table from its snapshot: close the hand the director still
    believes in play, then publish the seating the table must take (``synced``)."""
    table = int(data["table"])
    if st.adopting.get(table) != proc or st.directory.get(table) != proc:
        return []  # given to another process meanwhile
    del st.adopting[table]
    synced.add(table)
    return close_recovered_hand(st.loop, data, now, tid)
