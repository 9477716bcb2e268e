"""Brasseur bot SDK: an asyncio client on top of ``protocol/``, a table mirror that verifies
what it sees, strategies, and a load tester (``python -m bots.loadtest``). See docs/bots.md."""

from .client import Bot, BotError
from .mirror import TableMirror
from .notebook import Notebook
from .stats import Histogram, Stats
from .strategies import (
    STRATEGIES,
    CallingStation,
    FiveCardDraw,
    RandomLegal,
    RulesFuzzer,
    TightAggressive,
    make_strategy,
)
from .strategy import Decision, Strategy, View, chips_for

__all__ = [
    "STRATEGIES",
    "Bot",
    "BotError",
    "CallingStation",
    "Decision",
    "FiveCardDraw",
    "Histogram",
    "Notebook",
    "RandomLegal",
    "RulesFuzzer",
    "Stats",
    "Strategy",
    "TableMirror",
    "TightAggressive",
    "View",
    "chips_for",
    "make_strategy",
]
