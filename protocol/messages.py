"""Every message on the wire as a typed frozen dataclass (one class per kind).

On the wire a message is a msgpack map: ``{"t": TYPE, ...fields}``. Client messages may carry
``id`` (an integer the server echoes in the ``error`` it may answer with). Field limits live in
each field's metadata (``max`` for numbers, strings and lists). See docs/protocol.md.

The classes are defined in :mod:`protocol.client_messages` (client -> server) and
:mod:`protocol.server_messages` (server -> client) over :mod:`protocol.base`; this module
gathers them (import them from here) with the registries of each direction by type.
"""

from __future__ import annotations

from .base import BIG, CHIPS, NAME, TEXT, Message
from .client_messages import (
    Abandon,
    Act,
    CallClock,
    CallDirector,
    Chat,
    CreateTable,
    Cut,
    Direct,
    FollowTournament,
    Hello,
    JoinTable,
    LeaveTable,
    Muck,
    Ping,
    Register,
    Resync,
    Show,
    SitIn,
    SitOut,
    TakeSeat,
    UseTimeBank,
)
from .server_messages import (
    ActionEvent,
    BoardEvent,
    ChatEvent,
    ClockEvent,
    CutPrompt,
    Error,
    HandEnd,
    HandStart,
    HoleCards,
    HoleProof,
    Moved,
    Notice,
    Pong,
    PotAwarded,
    Registered,
    Seated,
    SeatEvent,
    ShownEvent,
    Snapshot,
    TableCreated,
    TournamentState,
    Turn,
    Welcome,
)

__all__ = [
    "BIG",
    "CHIPS",
    "CLIENT_MESSAGES",
    "NAME",
    "PROTOCOL_VERSION",
    "SERVER_MESSAGES",
    "TEXT",
    "Abandon",
    "Act",
    "ActionEvent",
    "BoardEvent",
    "CallClock",
    "CallDirector",
    "Chat",
    "ChatEvent",
    "ClockEvent",
    "CreateTable",
    "Cut",
    "CutPrompt",
    "Direct",
    "Error",
    "FollowTournament",
    "HandEnd",
    "HandStart",
    "Hello",
    "HoleCards",
    "HoleProof",
    "JoinTable",
    "LeaveTable",
    "Message",
    "Moved",
    "Muck",
    "Notice",
    "Ping",
    "Pong",
    "PotAwarded",
    "Register",
    "Registered",
    "Resync",
    "SeatEvent",
    "Seated",
    "Show",
    "ShownEvent",
    "SitIn",
    "SitOut",
    "Snapshot",
    "TableCreated",
    "TakeSeat",
    "TournamentState",
    "Turn",
    "UseTimeBank",
    "Welcome",
]

PROTOCOL_VERSION = 1

CLIENT_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Hello,
        JoinTable,
        LeaveTable,
        TakeSeat,
        Act,
        Cut,
        CallClock,
        UseTimeBank,
        SitOut,
        SitIn,
        Show,
        Muck,
        Chat,
        Ping,
        Resync,
        CreateTable,
        Register,
        FollowTournament,
        Direct,
        CallDirector,
        Abandon,
    )
}
SERVER_MESSAGES: dict[str, type[Message]] = {
    cls.TYPE: cls
    for cls in (
        Welcome,
        Error,
        Pong,
        Snapshot,
        SeatEvent,
        HandStart,
        CutPrompt,
        HoleCards,
        ActionEvent,
        BoardEvent,
        ShownEvent,
        PotAwarded,
        HandEnd,
        ClockEvent,
        ChatEvent,
        Seated,
        Notice,
        TableCreated,
        Turn,
        HoleProof,
        Registered,
        TournamentState,
        Moved,
    )
}
