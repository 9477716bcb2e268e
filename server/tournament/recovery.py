"""The director's side of a table rebuilt from its snapshot after its process died (Redis
coordinator, :mod:`server.tournament.redis_coordinator`): the hand the director still believes
in play there is closed with a :class:`~server.table.report.HandEnded`, so the chips always
balance; the reports of a table the director no longer directs (its old owner, taken for dead
while it was still running it) are refused (:func:`stale_table_report`).
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Final

from .coordinator import DirectorLoop
from .decisions import Bust, HandEnded, Instruction
from .director import Director

__all__ = ["TABLE_REPORTS", "close_recovered_hand", "hand_record_summary", "stale_table_report"]

log = logging.getLogger("brasseur.tournament")


def hand_record_summary(record: Mapping[str, Any]) -> dict[str, Any]:
    """What the director needs of a saved hand record: ``start`` and ``final`` stacks by seat
    (string keys) and the ``winners`` seats."""
    return {
        "start": {str(p["seat"]): int(p["stack"]) for p in record["players"]},
        "final": {str(s): int(v) for s, v in record["final_stacks"].items()},
        "winners": sorted({int(w) for pot in record["pots"] for w in pot["winners"]}),
    }


TABLE_REPORTS: Final = frozenset({"ready", "allin", "ended"})
"""The reports a table makes about its hands."""


def stale_table_report(
    kind: str,
    data: Mapping[str, Any],
    proc: str,
    directory: Mapping[int, str],
    adopting: Mapping[int, str],
) -> str | None:
    """Why the table report ``kind`` from process ``proc`` comes from a table the director no
    longer directs (None: it does). A live process taken for dead (stalled under load) runs
    its table until it applies the batch giving it away: its ``ready`` handled after the new
    owner's ``recovered`` would deal a hand nobody plays (the old table is closed, the rebuilt
    one not started yet), and the rebuilt table's own ``ready`` would then be refused
    ("asked to deal during hand N") forever. Until the new owner's ``recovered`` is handled,
    no table runs it for the director (the hand in play is closed then)."""
    if kind not in TABLE_REPORTS:
        return None
    try:
        table = int(data["table"])
    except (KeyError, TypeError, ValueError):
        return None
    if table in adopting:
        return f"table {table} is being taken over by {adopting[table]}"
    owner = directory.get(table)
    if owner is not None and owner != proc:
        return f"table {table} runs in {owner} now"
    return None


def close_recovered_hand(
    loop: DirectorLoop, data: dict[str, Any], now: float, tid: str = ""
) -> list[Instruction]:
    """Close the hand the director still believes in play at a rebuilt table.

    ``data``: ``{"table", "hand", "record"}``, the hand the rebuilt table was at and, if that
    hand's record was saved, its :func:`hand_record_summary`. The hand is closed as completed
    when the table finished it (its report died with the process), else as cancelled with the
    start-of-hand stacks (cdc 5.4; the director's own stacks, so the chips always balance).
    """
    table = int(data["table"])
    d = loop.director
    if table not in d.table_ids() or not d.busy(table):
        return []
    hand_no = d.table_hand(table).hand_no  # the hand the director dealt there
    out: list[Instruction] = []
    record = data.get("record")
    if int(data["hand"]) == hand_no and record is not None:
        # the hand was played to its end but the report died with the process
        out = loop.hand_ended(_played(d, table, record), now)
        if not d.busy(table):
            log.warning("tournament %s: table %s: hand %s ended", tid, table, hand_no)
            return out
    # cut by the crash (or never dealt there): cancelled, every bet returned
    out += loop.hand_ended(_cancelled(d, table), now)
    if d.busy(table):
        log.error("tournament %s: table %s stays in hand %s", tid, table, hand_no)
    else:
        log.warning("tournament %s: table %s: hand %s cancelled", tid, table, hand_no)
    return out


def _played(d: Director, table: int, record: Mapping[str, Any]) -> HandEnded:
    """The report the table would have made from its saved hand record."""
    t = d.table_hand(table)
    assert t.positions is not None
    seating = d.seating(table)
    stacks: dict[int, tuple[str, int]] = {}
    busts: list[Bust] = []
    for seat, pid in seating.items():
        if pid in t.gone:
            continue
        final = record["final"].get(str(seat))
        stack = d.stack(pid) if final is None else int(final)
        if stack > 0:
            stacks[seat] = (pid, stack)
        else:
            by = sorted({seating[w] for w in record["winners"] if w in seating} - {pid})
            start = int(record["start"].get(str(seat), 0))
            busts.append(Bust(player_id=pid, seat=seat, start_stack=start, eliminated_by=tuple(by)))
    busts.sort(key=lambda b: -b.start_stack)  # best ranked first (cdc 1.10)
    return HandEnded(
        table_id=table,
        hand_no=t.hand_no,
        positions=t.positions,
        stacks=stacks,
        busts=tuple(busts),
    )


def _cancelled(d: Director, table: int) -> HandEnded:
    """The hand called off with the start-of-hand stacks (the director's)."""
    t = d.table_hand(table)
    assert t.positions is not None
    stacks = {
        seat: (pid, d.stack(pid))
        for seat, pid in d.seating(table).items()
        if pid not in t.gone and d.stack(pid) > 0
    }
    return HandEnded(
        table_id=table, hand_no=t.hand_no, positions=t.positions, stacks=stacks, cancelled=True
    )
