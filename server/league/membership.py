"""Who may enter a league's games: ONE decision that every entry path asks (issue 26).

Pure (no I/O): the league service hands it a :class:`~server.league.model.League` (or None)
and an account (or None), and asks :func:`admit` before it registers anyone anywhere.

- :func:`standing` says where an account stands with a league: its owner, a director, a
  member, a member awaiting approval, a removed member (removed by the owner, refused by a
  director, or who left), an account never in the league (an outsider), or no account at all
  (a guest).
- :func:`admit` reads :data:`ADMISSIONS`, the one table of answers by standing, entry path and
  whether the entry is members-only, and raises a :class:`~server.league.model.LeagueRefusal`
  with a stable code, or returns.

A members-only entry is an event with ``requires_account``, every heads-up cup, every night of
Sit'n Gos, every season cash table, and a satellite ticket's registration into its target
(a ticket is a member's). There the owner, the directors and the members are admitted; a
pending member is ``league.awaiting_approval``; a removed member and an outsider are
``league.not_member``; a guest is ``league.account_required``. An entry open to guests
(``requires_account`` false) admits everyone: the league does not check who plays.

docs/leagues.md "Who may enter" prints the table.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from types import MappingProxyType

from .model import League, LeagueRefusal, RefusalCode

__all__ = ["ADMISSIONS", "EntryPath", "Standing", "admit", "admitted", "standing"]


class Standing(StrEnum):
    """Where an account stands with a league (:func:`standing`)."""

    OWNER = "owner"
    """Created the league."""
    DIRECTOR = "director"
    """Runs the league's events."""
    MEMBER = "member"
    """Joined with the invite (admitted, when the league approves its members)."""
    PENDING = "pending"
    """Asked to join a league that approves its members; nobody admitted him yet."""
    REMOVED = "removed"
    """Was in the league (or asked to be) and is no more: removed by the owner, refused by a
    director, or left. Rejoining with the invite ends it (pending again under approval)."""
    OUTSIDER = "outsider"
    """An account that was never in the league."""
    GUEST = "guest"
    """No account: a guest connection."""


class EntryPath(StrEnum):
    """Every way a player enters a league's game."""

    REGISTER = "register"
    """``register`` for a league event before it starts."""
    LATE = "late"
    """A late registration (the event started, its late entry still open)."""
    REENTRY = "reentry"
    """A re-entry after a bust, in an event that allows it."""
    CUP = "cup"
    """``register`` for a heads-up cup."""
    NIGHT = "night"
    """``register`` for a night of Sit'n Gos."""
    TICKET = "ticket"
    """A satellite's ticket registering its holder into the target event."""
    CASH_TABLE = "cash_table"
    """A seat at a season's cash table."""


_MEMBERS_ONLY: Mapping[Standing, RefusalCode | None] = {
    Standing.OWNER: None,
    Standing.DIRECTOR: None,
    Standing.MEMBER: None,
    Standing.PENDING: RefusalCode.AWAITING_APPROVAL,
    Standing.REMOVED: RefusalCode.NOT_MEMBER,
    Standing.OUTSIDER: RefusalCode.NOT_MEMBER,
    Standing.GUEST: RefusalCode.ACCOUNT_REQUIRED,
}

ADMISSIONS: Mapping[tuple[Standing, EntryPath, bool], RefusalCode | None] = MappingProxyType(
    {
        (who, path, members_only): (_MEMBERS_ONLY[who] if members_only else None)
        for who in Standing
        for path in EntryPath
        for members_only in (True, False)
    }
)
"""The one table :func:`admit` reads: ``(standing, path, members_only)`` -> None (admitted) or
the refusal's code. Every path answers alike today (members-only: owner, director and member
in; pending ``league.awaiting_approval``; removed and outsider ``league.not_member``; guest
``league.account_required``; open to guests: everyone in); a path that ever needs its own
answer changes its cells here and nowhere else."""

_WHY: Mapping[RefusalCode, str] = {
    RefusalCode.AWAITING_APPROVAL: "your request to join waits for a director's approval",
    RefusalCode.NOT_MEMBER: "members of the league only",
    RefusalCode.ACCOUNT_REQUIRED: "members only: log in with your account",
}


def standing(league: League | None, member: str | None) -> Standing:
    """Where ``member`` (an account id; None: a guest) stands with ``league`` (None: no league,
    so every account is an outsider)."""
    if member is None:
        return Standing.GUEST
    if league is None:
        return Standing.OUTSIDER
    if member == league.owner:
        return Standing.OWNER
    if member in league.directors:
        return Standing.DIRECTOR
    if member in league.members:
        return Standing.MEMBER
    if member in league.pending:
        return Standing.PENDING
    if member in league.removed:
        return Standing.REMOVED
    return Standing.OUTSIDER


def admit(standing: Standing, path: EntryPath, *, members_only: bool) -> None:
    """Return if ``standing`` may enter by ``path``; raise :class:`LeagueRefusal` with the
    :data:`ADMISSIONS` code otherwise (nothing else changes)."""
    code = ADMISSIONS[(standing, path, members_only)]
    if code is not None:
        raise LeagueRefusal(code, _WHY[code])


def admitted(
    registered: Mapping[str, str], league: League | None, path: EntryPath
) -> dict[str, str]:
    """The accounts of ``registered`` (account -> name) that ``league`` still admits by
    ``path`` (members-only), in order: at the draw of a cup or the composition of a night,
    a member removed, or who left, since he registered is withdrawn; the others keep their
    place. The same decision as :func:`admit` (nothing else is read)."""
    out: dict[str, str] = {}
    for member, name in registered.items():
        if ADMISSIONS[(standing(league, member), path, True)] is None:
            out[member] = name
    return out
