"""The messages a client sends to the server (see :mod:`protocol.messages`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from .base import BIG, CHIPS, NAME, TEXT, Message, _f

__all__ = [
    "Abandon",
    "Act",
    "AddChips",
    "CallClock",
    "CallDirector",
    "ChangeTable",
    "Chat",
    "CreateTable",
    "Cut",
    "Direct",
    "Draw",
    "FollowTournament",
    "Hello",
    "Host",
    "JoinTable",
    "JoinWaitingList",
    "LeaveTable",
    "Muck",
    "Ping",
    "Rebuy",
    "Reenter",
    "RefuseSeat",
    "Register",
    "Resync",
    "RunIt",
    "Show",
    "SitIn",
    "SitOut",
    "TakeOption",
    "TakeSeat",
    "UseTimeBank",
]


@dataclass(frozen=True, slots=True, kw_only=True)
class Hello(Message):
    """First frame of a connection. ``token``: a seat or invite token (friends mode);
    ``session``+``last_seq``: resume a previous connection."""

    TYPE: ClassVar[str] = "hello"
    version: int = _f(1000)
    nickname: str | None = _f(NAME, None)
    token: str | None = _f(1024, None)
    session: str | None = _f(128, None)
    member: str | None = _f(1024, None)
    """A member's session token (``account``): the connection is that member's."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinTable(Message):
    """Watch a table (spectators get a delayed view), or come back to one's seat."""

    TYPE: ClassVar[str] = "join"
    table: str = _f(NAME)
    last_seq: int | None = _f(BIG, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class LeaveTable(Message):
    TYPE: ClassVar[str] = "leave"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeSeat(Message):
    """Sit at ``seat`` with the table's invite token. At a cash table ``buy_in`` (the chips
    bought, within the table's limits) is required, and ``wait_for_bb`` waits for the big
    blind instead of posting a seat fee (casino cash); ``option`` comes in « directement en
    option »: dealt in once first after the big blind, posting the option, which is his seat
    fee (casino cash; ``cash.option`` where the table has no option)."""

    TYPE: ClassVar[str] = "sit"
    table: str = _f(NAME)
    seat: int = _f(10)
    token: str = _f(1024)
    buy_in: int | None = _f(BIG, None)
    wait_for_bb: bool = _f(1, False)
    option: bool = _f(1, False)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Host(Message):
    """An order of a table's host (his ``host`` token from ``table_created``): ``op`` is one
    of approve, refuse, remove (``seat``), pause, resume, blinds (``sb``, ``bb``, from the
    next hand), limits (``min_buy_in``, ``max_buy_in``: a cash table), close; in a room of
    cash tables: move (``seat`` to table ``to``), balance, merge (this table into ``to``)."""

    TYPE: ClassVar[str] = "host"
    table: str = _f(NAME)
    token: str = _f(1024)
    op: str = _f(16)
    seat: int | None = _f(10, None)
    to: str = _f(NAME, "")
    """The other table of a cash room's ``move`` (``seat`` to ``to``) or ``merge``."""
    sb: int | None = _f(BIG, None)
    bb: int | None = _f(BIG, None)
    min_buy_in: int | None = _f(BIG, None)
    max_buy_in: int | None = _f(BIG, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class ChangeTable(Message):
    """A seated cash player asks to change to table ``to`` of the same room: at once with his
    whole stack (fpc cash), or once the host agrees (casino cash: a ``seat_request`` with
    ``to`` reaches him; at most the new table's maximum, a seat fee again)."""

    TYPE: ClassVar[str] = "change_table"
    table: str = _f(NAME)
    to: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class RunIt(Message):
    """Answer the offer to run the board several times (a ``notice`` ``runs_offered`` to the
    two players all-in before the turn, at a table that asks them): ``runs`` 2 or 3 agrees,
    1 refuses. Both must name the same number, else one run."""

    TYPE: ClassVar[str] = "run_it"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    runs: int = _f(3)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class AddChips(Message):
    """Cash table: a rebuy after a bust, or a top-up (casino: within the table's maximum;
    fpc: only after a bust), applied between hands."""

    TYPE: ClassVar[str] = "add_chips"
    table: str = _f(NAME)
    amount: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class TakeOption(Message):
    """Cash table, a seated player's standing choice: ``on``, post the option (two big
    blinds, live) whenever you are the first player after the big blind; off, never (and no
    entry in option). From the next deal, never the hand in play (casino cash: « L'option
    est autorisée en Cash Game »; ``cash.option`` at a table without it)."""

    TYPE: ClassVar[str] = "option"
    table: str = _f(NAME)
    on: bool = _f(1)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class JoinWaitingList(Message):
    """Cash table: put your name on the table's waiting list (casino cash: seats are
    offered in order; a ``notice`` of kind ``seat_offered`` says which)."""

    TYPE: ClassVar[str] = "waiting_list"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class RefuseSeat(Message):
    """Cash table: refuse the seat offered to you; your name goes to the end of the list."""

    TYPE: ClassVar[str] = "refuse_seat"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Act(Message):
    """A declaration (``verb``/``amount``/``form``), chips pushed in one motion, or both:
    the two channels of a live table (cdc 9.4)."""

    TYPE: ClassVar[str] = "act"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    verb: str | None = _f(16, None)
    amount: int | None = _f(BIG, None)
    form: str | None = _f(16, None)
    chips: tuple[int, ...] | None = _f(CHIPS, None)
    decision: int | None = _f(BIG, None)
    """The ``decision`` of the ``turn`` (or snapshot ``menu``) this answers: refused with
    ``stale_decision`` unless it is the decision open for the seat now. Without it, an act out
    of turn is an out-of-turn declaration (cdc 9.3)."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Draw(Message):
    """Five-card draw: discard ``cards`` (names as dealt, ``"Ah"``; none: stand pat) and be
    dealt as many, when it is your turn to draw (a ``turn`` with ``draw`` true). ``decision``
    as in ``act``. Refused, changing nothing: ``bad_card`` (a name that is no card),
    ``rule.not_drawing``, ``rule.not_your_draw``, ``rule.card_not_held``,
    ``rule.same_card_twice``, ``rule.too_many_discards``, ``stale_decision``."""

    TYPE: ClassVar[str] = "draw"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    cards: tuple[str, ...] = _f(5, ())
    decision: int | None = _f(BIG, None)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Cut(Message):
    """The cut, sent by the player on the dealer's right (cdc 5.2)."""

    TYPE: ClassVar[str] = "cut"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    position: int = _f(51)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallClock(Message):
    """Call the "Time" on the player to act (cdc 3.5, tda 27)."""

    TYPE: ClassVar[str] = "clock"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class UseTimeBank(Message):
    TYPE: ClassVar[str] = "timebank"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class SitOut(Message):
    TYPE: ClassVar[str] = "sitout"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class SitIn(Message):
    TYPE: ClassVar[str] = "sitin"
    table: str = _f(NAME)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Show(Message):
    TYPE: ClassVar[str] = "show"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Muck(Message):
    TYPE: ClassVar[str] = "muck"
    table: str = _f(NAME)
    hand: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Chat(Message):
    TYPE: ClassVar[str] = "chat"
    table: str = _f(NAME)
    text: str = _f(TEXT)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Ping(Message):
    TYPE: ClassVar[str] = "ping"
    nonce: int = _f(BIG)


@dataclass(frozen=True, slots=True, kw_only=True)
class Resync(Message):
    """Send me every event of ``table`` after ``last_seq`` (or a snapshot)."""

    TYPE: ClassVar[str] = "resync"
    table: str = _f(NAME)
    last_seq: int = _f(BIG)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CreateTable(Message):
    """Create a friends table; the answer is ``table_created`` with its invite token.
    ``game`` ``cash`` makes a cash table: players buy in between ``min_buy_in`` and
    ``max_buy_in`` (20 and 100 big blinds when not given), the profile's cash rules apply
    (casino or fpc) and ``rake_permille`` (0 for friends) is the table's. ``run_it`` (1, 2
    or 3 runs when two players are all-in before the turn and both agree; fpc cash: 3
    without asking) is any table's.

    ``game`` ``draw`` makes a cash table of five-card draw (the fpc's « LE FIVE-CARD DRAW »,
    a cash game: a cave of 5,000, blinds 50/100, 2 to 6 players; docs/cash.md) and
    ``structure`` is the betting structure of a cash table, ``no_limit`` (empty: the
    default, or a season's) or ``pot_limit``; refused ``cash.game`` / ``cash.structure``."""

    TYPE: ClassVar[str] = "create"
    name: str = _f(NAME)
    profile: str = _f(8, "cdc")
    sb: int = _f(BIG, 50)
    bb: int = _f(BIG, 100)
    ante: int = _f(BIG, 0)
    ante_format: str = _f(16, "none")
    max_seats: int = _f(10, 9)
    starting_stack: int = _f(BIG, 10_000)
    action_seconds: int = _f(3600, 30)
    game: str = _f(8, "friends")
    min_buy_in: int | None = _f(BIG, None)
    max_buy_in: int | None = _f(BIG, None)
    rake_permille: int = _f(100, 0)
    rake_cap: int = _f(BIG, 0)
    run_it: int = _f(3, 1)
    approval: bool = _f(1, False)
    """The host approves (or refuses) each player asking to sit."""
    room: str = _f(1024, "")
    """The ``host`` token of an existing cash table: the new cash table joins its room (one
    host; table changes, balancing and merges between the room's tables)."""
    season: str = _f(NAME, "")
    """``<league>/<season>``: a cash table of a league's cash season (its creator logged in
    as one of the league's directors; members only; buy-ins from each member's capital)."""
    hours: str = _f(16, "")
    """A cash table's opening hours, ``HH:MM-HH:MM`` (fpc cash: « Les tables ouvrent à
    partir de 20h00 et ferment à 23h30 précise »), or ``always``; empty: always open (a
    table of an fpc cash season: the book's 20:00-23:30)."""
    zone: str = _f(NAME, "")
    """The time zone of ``hours`` (IANA, e.g. ``America/Montreal``); empty: Europe/Paris."""
    structure: str = _f(16, "")
    """A cash table's betting structure: ``no_limit`` or ``pot_limit``; empty: no-limit (a
    season's table: the season's)."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Register(Message):
    """Register for a tournament under the ``hello`` nickname; the answer is ``registered``
    with a player token (keep it: it brings you back to your seat wherever you are moved)."""

    TYPE: ClassVar[str] = "register"
    tournament: str = _f(NAME)
    lobby: bool = _f(1, True)
    """Registered, you follow the tournament (``follow``): with ``lobby`` false, your
    ``tournament`` states leave out the lobby's lists (a bot, a page not showing them)."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class FollowTournament(Message):
    """Watch a tournament (``tournament`` state events). With a player ``token``, also sit at
    your current table and seat, and follow every move (``moved``)."""

    TYPE: ClassVar[str] = "follow"
    tournament: str = _f(NAME)
    token: str | None = _f(1024, None)
    lobby: bool = _f(1, True)
    """False: the ``tournament`` states leave out the lobby's lists (``players``,
    ``registered``, ``tables``, ``results``, ``payouts``) and come only when what is left
    changed: what a player at his table needs (the SDK's bots say so)."""
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Abandon(Message):
    """A player announces he leaves the tournament (cdc 1.9): his chips are removed and he is
    ranked at once. Needs the player token; cannot be undone."""

    TYPE: ClassVar[str] = "abandon"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Rebuy(Message):
    """A busted tournament player buys a new stack and keeps his seat (tda 26: before his
    table's next hand, while the rebuy window is open). Needs the player token."""

    TYPE: ClassVar[str] = "rebuy"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Reenter(Message):
    """A busted tournament player enters again: a new entry and stack, seated as a late
    entry (tda 7), while the re-entry window is open. Needs the player token."""

    TYPE: ClassVar[str] = "reenter"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class CallDirector(Message):
    """A tournament player calls the director to his table (a dispute, a question): the call
    waits in the director's console for a ruling, which is said at the table."""

    TYPE: ClassVar[str] = "call_director"
    table: str = _f(NAME)
    hand: int | None = _f(BIG, None)
    text: str = _f(300, "")
    id: int | None = _f(BIG, None)


@dataclass(frozen=True, slots=True, kw_only=True)
class Direct(Message):
    """A director's command (director token): ``op`` is one of start, pause, resume, stop, move,
    warn, penalty, disqualify, adjust, rule, folded, spectators (see docs/protocol.md)."""

    TYPE: ClassVar[str] = "direct"
    tournament: str = _f(NAME)
    token: str = _f(1024)
    op: str = _f(16)
    player: str | None = _f(NAME, None)
    table: str | None = _f(NAME, None)
    seat: int | None = _f(10, None)
    amount: int | None = _f(BIG, None)
    hands: int | None = _f(1000, None)
    text: str | None = _f(TEXT, None)
    id: int | None = _f(BIG, None)
