"""The people at a table: seats (players and their chips) and watchers (connections)."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["HeldChat", "SeatState", "Timers", "Watcher"]


@dataclass
class SeatState:
    seat: int
    player: str
    """The player's identity (never the seat number: private events go to this)."""
    name: str
    stack: int
    time_bank: float
    sitting_out: bool = False
    connected: bool = False
    cid: str | None = None
    """The one live connection of this seat (a newer login replaces it)."""
    new: bool = True
    """Never dealt in at this table yet (newcomer rules, tda 7)."""
    leaving: bool = False
    """Left (or removed) during a hand: the seat is freed when it ends."""
    wants_out: bool | None = None
    """A sit-out or sit-in asked during a hand: applied and announced when it ends (never
    a signal to the table mid-hand)."""
    waits_for_button: bool = False
    """A tournament arrival that waits for the button (ligue art. 3, tda 10-A)."""
    returning: bool = False
    """A friend left out of a deal while sitting out: back at a seat between the button and
    the big blind, he waits for the button to pass as a newcomer does (tda 7)."""
    dead_hands: int = 0
    """Hands still to be dealt dead (a penalty, cdc 11.1)."""
    unclaimed: bool = False
    """Restored after a restart, never dealt in, nobody back on it yet: its seat token may
    have been lost in the crash (the seat is saved before the token is issued), so it is not
    dealt in and the invite holder may take the seat again (nothing of his is lost)."""
    moving: bool = False
    """A cash room moves him to another table when the hand he is dealt in ends."""
    removed_by: str = ""
    """Who stood him up when it was not his doing (the host): a cash table's ledger says so."""
    bank_at_start: float = 0.0
    """The time bank at the start of the hand (what spectators see until it ends)."""

    @property
    def present(self) -> bool:
        """Present at the deal (ONLINE_RULES: connected and not sitting out)."""
        return self.connected and not self.sitting_out and self.stack > 0


@dataclass
class Watcher:
    """A connection watching the table (a seated player's, or a spectator's)."""

    cid: str
    player: str | None
    seat: int | None
    delivered: int = 0
    """Last sequence number delivered (commentary-mode spectators lag one hand behind)."""
    resyncs: float = 3.0
    """Resync tokens (a bucket: bursts of 3, one more every RESYNC_EVERY seconds)."""
    resynced_at: float = 0.0


@dataclass
class Timers:
    action: float | None = None
    action_started: float = 0.0
    acting: int = -1
    """Seat whose decision the action clock times (-1: none)."""
    bank: bool = False
    time_called: bool = False
    time_caller: int = -1
    """Seat that called the Time on this decision (-1: nobody), told to all (cdc 3.5)."""
    cut: float | None = None
    showdown: float | None = None
    next_hand: float | None = None
    chat: float | None = None
    """Next release of held chat (paced after a hand)."""
    retry: float | None = None
    """Next retry of a failed store write (halted)."""
    closing: float | None = None
    """When a cash table with opening hours closes (fpc cash: « ferment à 23h30 précise »)."""

    def deadlines(self) -> list[float]:
        times = (self.action, self.cut, self.showdown, self.next_hand, self.chat, self.closing)
        return [t for t in times if t is not None]

    def shift(self, delta: float) -> None:
        """Move every running deadline ``delta`` seconds later (time lost while halted is
        nobody's thinking time)."""
        if self.action is not None:
            self.action += delta
            self.action_started += delta
        for name in ("cut", "showdown", "next_hand", "chat"):
            value = getattr(self, name)
            if value is not None:
                setattr(self, name, value + delta)


@dataclass
class HeldChat:
    """Table chat held while a hand is played (cdc 11.3-11.4), capped per sender."""

    items: list[tuple[int | None, str, str]] = field(default_factory=list)
    per_sender: dict[str, int] = field(default_factory=dict)
