"""Pages of hand-record exports, and the worker processes that build them.

A page (:func:`page_of`) is at most ``count`` hands from hand ``start`` on, cut before
``max_bytes`` (:func:`~server.store.export.export_page`), with the number of the first hand of
the next page and the table's number of hands. The gateway builds the pages of the SQLite
store in worker processes (:func:`file_page`, reading the file with a connection of their
own): CPython runs the Python of one thread of a process at a time (the GIL), and a page
rendered in a thread of the server took the GIL from the event loop, for tens of ms whenever
the machine was busy (the thread holding it preempted). A worker process has its own GIL, and
a lower priority (:func:`worker_init`): the event loop competes with it for a core only.
"""

from __future__ import annotations

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any, NamedTuple

from .export import ExportFormat, export_page
from .reader import RecordReader

__all__ = ["Page", "file_page", "page_of", "worker_init"]


class Page(NamedTuple):
    body: bytes
    next: int | None
    """The first hand of the next page; None on the last page."""
    total: int | None
    """Hands of the table in all (None if the store cannot count them)."""


def _rows(source: Any, table: str, start: int, count: int) -> list[tuple[int, Any]]:
    """``(hand, record)`` of at most ``count`` hands from ``start`` on, in hand order; each
    record still as its JSON text from a store with ``hand_texts`` (SQLite, its reader,
    Redis), else a dict (``hand_page``, or ``hand_records`` sliced)."""
    for method in ("hand_texts", "hand_page"):
        page = getattr(source, method, None)
        if page is not None:
            return list(page(table, start, count))
    rows = [(int(record.get("hand", 0)), record) for record in source.hand_records(table)]
    return [row for row in rows if row[0] >= start][:count]


def _decoded(rows: list[tuple[int, Any]]) -> Iterator[Any]:
    """The records one at a time: only the one being written is alive (nothing piles up for
    the garbage collector to scan while a page is built)."""
    for _, record in rows:
        yield json.loads(record) if isinstance(record, str) else record


def page_of(
    source: Any,
    table: str,
    fmt: ExportFormat,
    start: int,
    count: int,
    *,
    max_bytes: int,
    pause: Callable[[], None] | None = None,
    player: str | None = None,
) -> Page:
    """A page of ``table``'s export from ``source`` (a Store, a RecordReader, a Redis table
    store). ``pause`` is called between hands (see :func:`export_page`). ``player``: the
    player id of the one exporting his own hands, whose hole cards the page shows."""
    rows = _rows(source, table, start, count + 1)
    mine: dict[int, tuple[int, list[str]]] = {}
    drawn: dict[int, tuple[int, dict[str, list[str]]]] = {}
    if player is not None and rows and hasattr(source, "hole_cards"):
        first, last = rows[0][0], rows[min(count, len(rows)) - 1][0]
        mine = source.hole_cards(table, player, first, last)
        if hasattr(source, "drawn_cards"):  # five-card draw: his own discards and new cards
            drawn = source.drawn_cards(table, player, first, last)
    body, used = export_page(
        _decoded(rows[:count]), fmt, max_bytes=max_bytes, pause=pause, mine=mine, drawn=drawn
    )
    following = rows[used][0] if used < len(rows) else None
    counter = getattr(source, "hand_count", None)
    return Page(body, following, None if counter is None else int(counter(table)))


def file_page(
    path: str | Path,
    table: str,
    fmt: ExportFormat,
    start: int,
    count: int,
    max_bytes: int,
    player: str | None = None,
) -> Page:
    """:func:`page_of` the SQLite store at ``path``, read-only (in a worker process)."""
    return page_of(RecordReader(path), table, fmt, start, count, max_bytes=max_bytes, player=player)


def worker_init(parent: int, niceness: int) -> None:
    """Set up a worker process: ``niceness`` more (the server's event loop goes first), and
    exit as soon as ``parent`` (the server) is gone, killed -9 included."""
    with contextlib.suppress(OSError):
        os.nice(niceness)
    threading.Thread(target=_watch, args=(parent,), daemon=True, name="parent-watch").start()


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)
