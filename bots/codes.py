"""What the bot client knows of the server's answers: the error codes a fuzzer provokes on
purpose, the tournament phases where a player still in has a seat, how often a refused act
is answered again (:mod:`bots.client`)."""

from __future__ import annotations

__all__ = ["EXPECTED_FOR_FUZZER", "MAX_RETRIES", "PLAYING"]

EXPECTED_FOR_FUZZER = frozenset(
    {
        "not_your_turn",
        "stale_hand",
        "stale_decision",
        "out_of_range",
        "show_refused",
        "too_early",
        "chat_held",
        "not_seated",
    }
)
"""Error codes a fuzzer provokes on purpose (besides every ``rule.*`` code)."""
PLAYING = frozenset({"running", "break", "hand_for_hand", "final_table"})
"""Tournament phases where every player still in has a seat."""
MAX_RETRIES = 3
"""Replies to a refused act before the bot waits for its clock."""
