"""Counters and a mergeable latency histogram shared by the bots of one process.

The histogram has logarithmic buckets (2 % wide, from 10 µs), so percentiles are within 2 % and
histograms from several processes merge by adding their counts.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

__all__ = ["Histogram", "Stats"]

_BASE_US = 10.0
_FACTOR = 1.02
_LOG = math.log(_FACTOR)


class Histogram:
    """Latencies in seconds, kept as counts per logarithmic bucket."""

    def __init__(self) -> None:
        self.counts: Counter[int] = Counter()
        self.total = 0
        self.max = 0.0

    def add(self, seconds: float) -> None:
        us = seconds * 1e6
        index = 0 if us <= _BASE_US else int(math.log(us / _BASE_US) / _LOG) + 1
        self.counts[index] += 1
        self.total += 1
        self.max = max(self.max, seconds)

    def merge(self, other: Histogram) -> None:
        self.counts.update(other.counts)
        self.total += other.total
        self.max = max(self.max, other.max)

    def percentile(self, p: float) -> float | None:
        """The ``p``-th percentile (0-100) in seconds, or None with no sample."""
        if not self.total:
            return None
        rank = max(1, math.ceil(self.total * p / 100.0))
        seen = 0
        for index in sorted(self.counts):
            seen += self.counts[index]
            if seen >= rank:
                return _BASE_US * _FACTOR**index / 1e6
        return self.max

    def to_dict(self) -> dict[str, Any]:
        return {"counts": dict(self.counts), "total": self.total, "max": self.max}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Histogram:
        h = cls()
        h.counts = Counter({int(k): int(v) for k, v in data["counts"].items()})
        h.total = int(data["total"])
        h.max = float(data["max"])
        return h


@dataclass
class Stats:
    """What the bots of one process saw. ``errors`` are unexpected error replies and connection
    failures; ``expected_errors`` are the fuzzer's (they are part of its test)."""

    hands: int = 0
    actions: int = 0
    """Betting actions broadcast (one count per table, not per bot; blinds excluded)."""
    draws: int = 0
    """Five-card draw: draws broadcast (``drew``; counted as ``actions`` are)."""
    acts: int = 0
    """Acts sent in turn whose action event came back (latency samples)."""
    frames: int = 0
    sent: int = 0
    connections: int = 0
    reconnects: int = 0
    resyncs: int = 0
    late_cuts: int = 0
    """Cuts refused because the server had already cut at random (its cut timer fired)."""
    late_acts: int = 0
    """Acts refused as ``stale_hand`` for a hand that had ended meanwhile (e.g. another
    player's out-of-turn fold, which binds at once, ended it while this bot was answering), or
    as ``stale_decision`` for a decision closed meanwhile (the clock ran out)."""
    errors: Counter[str] = field(default_factory=Counter)
    expected_errors: Counter[str] = field(default_factory=Counter)
    violations: Counter[str] = field(default_factory=Counter)
    examples: list[str] = field(default_factory=list)
    traces: list[list[str]] = field(default_factory=list)
    """Recent messages of a bot at its first violations (bots made with ``trace``)."""
    latency: Histogram = field(default_factory=Histogram)

    def reset_rates(self) -> None:
        """Zero the throughput counters and the latencies (errors and violations stay)."""
        self.hands = self.actions = self.acts = self.frames = self.sent = 0
        self.latency = Histogram()

    def violation(self, kind: str, detail: str) -> None:
        self.violations[kind] += 1
        if self.violations[kind] <= 5:  # the first few of each kind
            self.examples.append(f"{kind}: {detail}")

    def error(self, code: str, expected: bool = False) -> None:
        (self.expected_errors if expected else self.errors)[code] += 1

    def to_dict(self) -> dict[str, Any]:
        return {
            "hands": self.hands,
            "actions": self.actions,
            "acts": self.acts,
            "frames": self.frames,
            "sent": self.sent,
            "connections": self.connections,
            "reconnects": self.reconnects,
            "resyncs": self.resyncs,
            "late_cuts": self.late_cuts,
            "late_acts": self.late_acts,
            "draws": self.draws,
            "errors": dict(self.errors),
            "expected_errors": dict(self.expected_errors),
            "violations": dict(self.violations),
            "examples": list(self.examples),
            "traces": list(self.traces),
            "latency": self.latency.to_dict(),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Stats:
        s = cls()
        for key in ("hands", "actions", "acts", "frames", "sent", "connections", "reconnects"):
            setattr(s, key, int(data[key]))
        s.resyncs = int(data.get("resyncs", 0))
        s.late_cuts = int(data.get("late_cuts", 0))
        s.late_acts = int(data.get("late_acts", 0))
        s.draws = int(data.get("draws", 0))
        s.errors = Counter(data["errors"])
        s.expected_errors = Counter(data["expected_errors"])
        s.violations = Counter(data["violations"])
        s.examples = list(data["examples"])
        s.traces = list(data.get("traces", []))
        s.latency = Histogram.from_dict(data["latency"])
        return s

    def merge(self, other: Stats) -> None:
        for key in ("hands", "actions", "acts", "frames", "sent", "connections", "reconnects"):
            setattr(self, key, getattr(self, key) + getattr(other, key))
        self.resyncs += other.resyncs
        self.late_cuts += other.late_cuts
        self.late_acts += other.late_acts
        self.draws += other.draws
        self.errors.update(other.errors)
        self.expected_errors.update(other.expected_errors)
        self.violations.update(other.violations)
        self.traces.extend(other.traces[: max(0, 10 - len(self.traces))])
        have = Counter(e.split(":", 1)[0] for e in self.examples)
        for example in other.examples:
            kind = example.split(":", 1)[0]
            if have[kind] < 5:
                have[kind] += 1
                self.examples.append(example)
        self.latency.merge(other.latency)
