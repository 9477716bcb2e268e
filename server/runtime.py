"""Process-wide settings of a long-running server process.

Garbage collector: CPython's default thresholds (700, 10, 10) run a young collection every
700 allocations. A busy server allocates events, frames and queue entries so fast that many
still-referenced objects get promoted to the oldest generation, and full collections then
scan every object of every table: at 1,000 tables (about 3 million objects) each full pass
stopped the event loop for up to 0.66 s, some 20 % of the process's time
(``bench/server.py``). Larger young generations let short-lived objects die young.
"""

from __future__ import annotations

import gc

__all__ = ["GC_THRESHOLDS", "freeze_startup_objects", "tune_gc"]

GC_THRESHOLDS = (50_000, 20, 10)


def tune_gc() -> None:
    """Collect the youngest generation every 50,000 allocations instead of 700."""
    gc.set_threshold(*GC_THRESHOLDS)


def freeze_startup_objects() -> None:
    """Move everything alive after start-up (modules, restored tables) out of the
    collector's sight: it lives as long as the process, so scanning it is wasted work."""
    gc.collect()
    gc.freeze()
