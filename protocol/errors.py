"""Stable error codes on the wire, split by whose fault it is (STYLE.md 5).

Decode errors (the frame is not a valid message), session errors (who you are and what you
may do), and rule errors (the engine refused the command: the engine's own code, prefixed
``rule.``, e.g. ``rule.raise_not_allowed``). Codes never change meaning; new ones may appear.
"""

from __future__ import annotations

from enum import StrEnum

__all__ = ["ErrorCode", "ProtocolError"]


class ErrorCode(StrEnum):
    # --- decode errors: the frame itself is wrong
    FRAME_TOO_LARGE = "frame_too_large"
    """The frame exceeds the size limit; it was not decoded."""
    BAD_FRAME = "bad_frame"
    """Not a msgpack map (random bytes, truncated data, text frame), or a map without the
    key ``t``."""
    UNKNOWN_TYPE = "unknown_type"
    """The ``t`` key names no message type this side accepts."""
    MISSING_FIELD = "missing_field"
    UNKNOWN_FIELD = "unknown_field"
    BAD_TYPE = "bad_type"
    """A field has the wrong type."""
    OUT_OF_RANGE = "out_of_range"
    """A number, string or list outside its allowed range."""
    # --- session errors
    VERSION_MISMATCH = "version_mismatch"
    NOT_AUTHENTICATED = "not_authenticated"
    """Say ``hello`` first."""
    BAD_TOKEN = "bad_token"
    """Forged, malformed or for another table."""
    TOKEN_EXPIRED = "token_expired"
    TOKEN_REPLAYED = "token_replayed"
    """A single-use token was used twice."""
    UNKNOWN_TABLE = "unknown_table"
    NOT_SEATED = "not_seated"
    """The command needs a seat at this table."""
    SEAT_TAKEN = "seat_taken"
    HOST_REFUSED = "host_refused"
    """The host of the table did not seat you (a table that asks its host)."""
    BAD_SEAT = "bad_seat"
    NOT_YOUR_TURN = "not_your_turn"
    """Cut or clock command from a player who may not send it now."""
    STALE_HAND = "stale_hand"
    """The command's ``hand`` is not the table's current hand number (the latest
    ``hand_start``): a hand already over and replaced, or one not dealt yet."""
    BAD_CARD = "bad_card"
    """Five-card draw: a ``draw`` names something that is not a card (``"Ah"``, ``"Td"``...).
    Nothing was changed."""
    STALE_DECISION = "stale_decision"
    """An ``act`` carrying ``decision``: that decision is not the one open for your seat now
    (already answered, replaced by a new one, or never yours). Nothing was changed."""
    RATE_LIMITED = "rate_limited"
    """Too many frames; the frame was dropped."""
    LAGGING = "lagging"
    """The connection fell too far behind (a client that does not read) and was closed;
    reconnect and resync. Usually the socket is simply closed before this can be sent."""
    REPLACED = "replaced"
    """This connection was replaced by a newer login for the same seat."""
    SHOW_REFUSED = "show_refused"
    """No showing cards mid-hand (cdc 11.3-11.5)."""
    TOO_EARLY = "too_early"
    """The Time can be called only after the minimum delay (cdc 3.5: never under a minute)."""
    NOT_IN_HAND = "not_in_hand"
    """The Time call needs a player dealt in this hand and at his seat (cdc 3.5, tda 27), and
    under fpc an opponent still in the hand or the thinker himself (fpc 9-1)."""
    CHAT_LIMIT = "chat_limit"
    """Chat held during a hand is capped per player and per hand (one player to a hand,
    cdc 11.3): the message was dropped."""
    TABLE_HALTED = "table_halted"
    """The table's store failed (disk full, Redis down): the table is halted, nothing was
    changed; it resumes by itself when the store works again."""
    # --- limits against strangers (docs/operations.md, "Limits"): each one an option
    TOO_MANY_CONNECTIONS = "too_many_connections"
    """Too many open connections from this address (HTTP 429 before the websocket opens), or
    the process is at its connection limit (the connection is closed at once)."""
    HELLO_TIMEOUT = "hello_timeout"
    """The websocket said no valid ``hello`` in time: closed."""
    BAD_ORIGIN = "bad_origin"
    """A browser page of another site opened the websocket (HTTP 403)."""
    TABLE_LIMIT = "table_limit"
    """No more tables for now: this address or connection created its share, or the server
    runs as many tables as it accepts."""
    REGISTRATION_LIMIT = "registration_limit"
    """Too many tournament registrations from this address for now."""
    ALREADY_REGISTERED = "tournament.already_registered"
    """One entry per person per tournament: this connection (or this player token) already
    has one."""
    RESERVED_NAME = "reserved_name"
    """A ``hello`` nickname or a member's display name that would pass for the director, the
    host or the server ("Director", "d1recteur", "hôst"...): refused (docs/accounts.md)."""
    INTERNAL = "internal"
    """A bug on our side; the table goes on."""
    NOT_FOUND = "not_found"
    """HTTP: no such route, file, hand or result (404)."""
    BUSY = "busy"
    """HTTP: too many exports at once (503 with ``Retry-After``): retry a little later."""


class ProtocolError(Exception):
    """A frame or command refused at the protocol or session level."""

    def __init__(self, code: ErrorCode | str, message: str, ref: int | None = None) -> None:
        super().__init__(message)
        self.code = str(code)
        self.message = message
        self.ref = ref
        """The refused command's ``id`` when the frame was a map that carried a valid one
        (a validation refusal echoes it, docs/protocol.md), else None."""
