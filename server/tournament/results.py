"""Results export: CSV and JSON (pure functions returning strings)."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable
from typing import Any

from .config import TournamentConfig
from .decisions import Result

__all__ = ["results_csv", "results_json"]

_COLUMNS = (
    "place",
    "player_id",
    "name",
    "entry",
    "prize",
    "points",
    "bounty_points",
    "bounty_chips",
    "tied_with",
)


def _row(r: Result) -> dict[str, Any]:
    return {
        "place": r.place,
        "player_id": r.player_id,
        "name": r.name,
        "entry": r.entry,
        "prize": r.prize,
        "points": r.points,
        "bounty_points": r.bounty_points,
        "bounty_chips": r.bounty_chips,
        "tied_with": list(r.tied_with),
    }


def results_csv(results: Iterable[Result]) -> str:
    """One line per entry, best place first; ``tied_with`` as ``a;b``."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=_COLUMNS, lineterminator="\n")
    writer.writeheader()
    for r in results:
        row = _row(r)
        row["tied_with"] = ";".join(r.tied_with)
        writer.writerow(row)
    return buf.getvalue()


def results_json(
    results: Iterable[Result],
    config: TournamentConfig | None = None,
    *,
    entries: int | None = None,
    prize_pool: int | None = None,
) -> str:
    """The results with the tournament's name and profile, as indented, key-sorted JSON."""
    rows = [_row(r) for r in results]
    doc: dict[str, Any] = {"results": rows}
    if config is not None:
        doc["tournament"] = {"name": config.name, "profile": config.profile}
    if entries is not None:
        doc["entries"] = entries
    if prize_pool is not None:
        doc["prize_pool"] = prize_pool
    return json.dumps(doc, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
