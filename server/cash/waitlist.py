"""A cash table's waiting list (casino cash: « une liste d'attente de rentrants sera établie
par table de jeux et les places libres seront attribuées dans l'ordre d'inscription. Si un
joueur refuse un siège, son nom sera reporté en dernier sur la liste d'attente. »).

A free seat is offered to the first name; he accepts (he leaves the list and sits) or
refuses (his name goes to the end), or does not answer in time (a refusal). Pure.
"""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = ["WaitingList"]


@dataclass(slots=True)
class WaitingList:
    names: list[str] = field(default_factory=list)
    """Player ids in order of registration."""
    offered: dict[int, str] = field(default_factory=dict)
    """Seat -> the player it is offered to."""

    def join(self, player: str) -> int:
        """Register ``player`` (once); his place in the list, from 1."""
        if player not in self.names:
            self.names.append(player)
        return self.names.index(player) + 1

    def leave(self, player: str) -> None:
        if player in self.names:
            self.names.remove(player)
        for seat in [s for s, p in self.offered.items() if p == player]:
            del self.offered[seat]

    def __bool__(self) -> bool:
        return bool(self.names)

    def offer(self, seat: int) -> str | None:
        """Offer the free ``seat`` to the first name not already offered one; ``None`` when
        nobody waits."""
        if seat in self.offered:
            return self.offered[seat]
        busy = set(self.offered.values())
        for player in self.names:
            if player not in busy:
                self.offered[seat] = player
                return player
        return None

    def accept(self, seat: int, player: str) -> bool:
        """``player`` takes the seat offered to him: he leaves the list."""
        if self.offered.get(seat) != player:
            return False
        del self.offered[seat]
        self.names.remove(player)
        return True

    def refuse(self, seat: int, player: str) -> str | None:
        """``player`` refuses (or lets the offer expire): his name goes to the end; the seat
        is offered to the next name, returned."""
        if self.offered.get(seat) != player:
            return None
        del self.offered[seat]
        self.names.remove(player)
        self.names.append(player)
        return self.offer(seat)
