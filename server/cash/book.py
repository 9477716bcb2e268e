"""Buy-ins, rebuys and cash-outs at a cash table: what each book allows, and the ledger.

verify / can / do (STYLE.md 4): :meth:`CashBook.refusal` says why a move is not allowed (a
stable :class:`Refusal` code, nothing changes); :meth:`CashBook.buy_in` and
:meth:`CashBook.cash_out` apply an allowed move and write it in the :class:`Ledger`. The
table calls them between hands only (chips never change during a hand) and holds the stacks;
the book holds what the stacks do not say: how much each player bought in this session, when
he last cashed out, whether he left with chips (casino: a seat fee on his return), and the
fpc season capital (:class:`~server.cash.capital.Capital`). Pure: times are given.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from server.cash.capital import Capital
from server.cash.ledger import Entry, Ledger, Move
from server.cash.rules import CashRules, Rebuy

__all__ = ["CashBook", "CashError", "Refusal"]


class Refusal(StrEnum):
    """Why a buy-in, rebuy or cash-out is refused (stable codes on the wire)."""

    BELOW_MIN = "cash.below_min"
    """Less than the table's minimum buy-in, or a stack left under the big blind (casino
    cash: « on ne peut pas recevoir de cartes avec une cave inférieure à la grosse blind »)."""
    ABOVE_MAX = "cash.above_max"
    """The stack would exceed the table's maximum (casino cash: « de ne pas dépasser le
    maximum de la table »; fpc cash: 5,000)."""
    NOT_MULTIPLE = "cash.not_multiple"
    """Not a multiple of the table's unit (casino cash: « par multiples de la petite blind »)."""
    SESSION_CAP = "cash.session_cap"
    """More than the session allows in all (fpc cash: 5,000 in one or several buy-ins)."""
    NOT_BUSTED = "cash.rebuy_not_allowed"
    """A rebuy while chips remain (fpc cash: « une recave n'est pas possible tant que l'on
    possède des jetons devant soi »)."""
    WAIT = "cash.wait"
    """A new buy-in too soon after a cash-out (fpc cash: 30 minutes)."""
    CAPITAL = "cash.capital"
    """More than one's season capital, or a capital lost (fpc cash: « ne peut en aucun cas
    engager une valeur de jetons supérieure à son capital »; « l'adhérent ayant perdu la
    totalité de son capital ne pourra plus participer »)."""
    IN_HAND = "cash.in_hand"
    """Chips change between hands only."""
    WAITING_LIST = "cash.waiting_list"
    """The seat is offered to the next name on the waiting list (casino cash: « les places
    libres seront attribuées dans l'ordre d'inscription »), or no seat is offered to you."""
    BUY_IN = "cash.buy_in"
    """A cash table seats a player with a buy-in (``buy_in``, not ``take_seat``)."""
    CLOSED = "cash.closed"
    """The tables are closed at this hour (fpc cash: « Les tables ouvrent à partir de 20h00
    et ferment à 23h30 précise »)."""
    MEMBERS = "cash.members_only"
    """A table of a league's cash season seats members logged in with their account."""
    ROOM = "cash.room"
    """A move to a table that is not a cash table of the same room."""
    TABLE_FULL = "cash.table_full"
    """The table a move goes to has no free seat."""
    GAME = "cash.game"
    """A game this server does not deal (``holdem`` or ``draw``), or chips carried to a
    table of another game (fpc: « Les caves sont spécifiques à chaque jeu »)."""
    STRUCTURE = "cash.structure"
    """A betting structure this server does not know (``no_limit`` or ``pot_limit``)."""
    OPTION = "cash.option"
    """The table does not offer the option, the casino's straddle (casino cash: « L'option
    est autorisée en Cash Game »; fpc cash has none, ligue 6.9 forbids the straddle)."""


class CashError(Exception):
    def __init__(self, code: Refusal, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


@dataclass(slots=True)
class Account:
    player: str
    name: str
    seated: bool = False
    cashed_out_at: float | None = None
    left_with_chips: bool = False
    """He left with his stack: a seat fee on his return (casino cash)."""


@dataclass(slots=True)
class CashBook:
    rules: CashRules
    ledger: Ledger = field(default_factory=Ledger)
    capital: Capital | None = None
    accounts: dict[str, Account] = field(default_factory=dict)

    # ------------------------------------------------------------------ can

    def refusal(
        self,
        player: str,
        amount: int,
        stack: int,
        now: float,
        in_hand: bool = False,
        capital: int | None = None,
    ) -> tuple[Refusal, str] | None:
        """Why ``player``, who has ``stack`` at the table (0 if he is not seated or busted),
        may not bring ``amount`` now; ``None`` when he may. ``capital``: what his season
        capital still allows, over every table of the season (a league's cash season); None:
        no season, or this table's own capital."""
        account = self.accounts.get(player)
        rebuy = account is not None and account.seated
        if in_hand and rebuy:
            return Refusal.IN_HAND, "chips are added between hands"
        if capital is not None and amount > capital:
            # fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons
            # supérieure à son capital »; « L'adhérent ayant perdu la totalité de son capital
            # ne pourra plus participer aux sessions de Cash Game »
            lost = "your capital is lost: no more cash play this season"
            return Refusal.CAPITAL, lost if capital <= 0 else f"your capital allows {capital}"
        return self._limits(amount, stack, rebuy) or self._session(player, amount, now, rebuy)

    def _limits(self, amount: int, stack: int, rebuy: bool) -> tuple[Refusal, str] | None:
        """The table's limits, whoever brings the chips."""
        rules = self.rules
        if amount <= 0 or amount % rules.unit:
            return Refusal.NOT_MULTIPLE, f"buy in by multiples of {rules.unit}"
        if rebuy and rules.rebuy is Rebuy.BUSTED and stack > 0:
            return Refusal.NOT_BUSTED, "a rebuy only once every chip is lost (fpc cash)"
        if stack + amount > rules.max_buyin:
            return Refusal.ABOVE_MAX, f"the table's maximum is {rules.max_buyin}"
        # casino cash: « en respectant les limites minimales et maximales autorisées de la
        # table » (a rebuy too), « on ne peut pas recevoir de cartes avec une cave inférieure
        # à la grosse blind »; fpc cash: « la cave est comprise entre 500 et 5 000 jetons »
        least = max(rules.min_buyin, rules.min_stack)
        if stack + amount < least:
            return Refusal.BELOW_MIN, f"bring at least {least - stack}"
        return None

    def _session(
        self, player: str, amount: int, now: float, rebuy: bool
    ) -> tuple[Refusal, str] | None:
        """What this player did before: his cash-out, his session's buy-ins, his capital."""
        rules = self.rules
        account = self.accounts.get(player)
        if not rebuy and account is not None and account.cashed_out_at is not None:
            ready = account.cashed_out_at + rules.cashout_wait_seconds
            if now < ready:
                return Refusal.WAIT, f"a new buy-in in {int(ready - now) + 1} s (fpc cash: 30 min)"
        if rules.session_cap is not None:
            bought = self.ledger.bought(player)
            if bought + amount > rules.session_cap:
                left = rules.session_cap - bought
                return Refusal.SESSION_CAP, f"{left} more at most this session"
        if self.capital is not None:
            available = self.capital.available(player)
            if amount > available:
                return Refusal.CAPITAL, f"your capital allows {available} more"
        return None

    # ------------------------------------------------------------------ do

    def buy_in(
        self,
        player: str,
        name: str,
        amount: int,
        stack: int,
        now: float,
        hand: int = 0,
        capital: int | None = None,
        hold: str = "",
    ) -> Entry:
        """Bring ``amount`` to the table (a first buy-in or a rebuy); raises
        :class:`CashError` and changes nothing when :meth:`refusal` says no. ``hold``: the
        season capital's reservation it spends, written on the ledger line."""
        refused = self.refusal(player, amount, stack, now, capital=capital)
        if refused is not None:
            raise CashError(*refused)
        account = self.accounts.setdefault(player, Account(player, name))
        move = Move.BUY_IN if not account.seated else Move.REBUY if stack == 0 else Move.TOP_UP
        account.name = name
        account.seated = True
        if self.capital is not None:
            self.capital.take(player, amount)
        return self.ledger.add(
            Entry(at=now, move=move, player=player, name=name, amount=amount, hand=hand, hold=hold)
        )

    def cash_out(
        self, player: str, stack: int, now: float, hand: int = 0, by: str = ""
    ) -> Entry | None:
        """``player`` leaves the table with his whole ``stack`` (never part of it: casino
        cash « il est formellement interdit de diminuer sa cave », fpc cash « la décave ne
        peut être partielle »), or the host (``by``) removes him and returns it. ``None``
        when he leaves busted (nothing to write)."""
        account = self.accounts.get(player)
        if account is None or not account.seated:
            return None
        account.seated = False
        account.cashed_out_at = now
        account.left_with_chips = stack > 0
        if self.capital is not None:
            self.capital.give(player, stack)
        if stack == 0:
            return None
        move = Move.REMOVED if by else Move.CASH_OUT
        return self.ledger.add(
            Entry(
                at=now, move=move, player=player, name=account.name, amount=stack, hand=hand, by=by
            )
        )

    def move_out(
        self, player: str, stack: int, to: str, now: float, hand: int = 0, by: str = ""
    ) -> Entry | None:
        """``player`` goes to table ``to`` of the room with ``stack`` (moves.py): not a
        cash-out (no fpc wait, no casino return fee), his capital unchanged."""
        account = self.accounts.get(player)
        if account is None or not account.seated:
            return None
        account.seated = False
        if self.capital is not None:
            self.capital.give(player, stack)
        if stack == 0:
            return None
        return self.ledger.add(
            Entry(
                at=now,
                move=Move.MOVED_OUT,
                player=player,
                name=account.name,
                amount=stack,
                hand=hand,
                by=by,
                other=to,
            )
        )

    def move_in(
        self, player: str, name: str, stack: int, source: str, now: float, hand: int = 0
    ) -> Entry:
        """``player`` comes from table ``source`` with ``stack``: the limits do not apply
        (casino: a balanced or merged table's player « doit apporter son tapis complet et ce
        même s'il dépasse la cave maximum »; a changing player's stack was capped before)."""
        account = self.accounts.setdefault(player, Account(player, name))
        account.name = name
        account.seated = True
        if self.capital is not None:
            self.capital.take(player, stack, check=False)
        return self.ledger.add(
            Entry(
                at=now,
                move=Move.MOVED_IN,
                player=player,
                name=name,
                amount=stack,
                hand=hand,
                other=source,
            )
        )

    def rake(self, amount: int, now: float, hand: int) -> None:
        self.ledger.take_rake(amount, now, hand)

    def to_json(self) -> dict[str, Any]:
        """What a restart needs (the rules come from the table's settings)."""
        return {
            "ledger": self.ledger.to_json(),
            "accounts": [
                [a.player, a.name, a.seated, a.cashed_out_at, a.left_with_chips]
                for a in self.accounts.values()
            ],
            "capital": None if self.capital is None else dict(self.capital.balances),
        }

    def load(self, data: dict[str, Any]) -> None:
        self.ledger = Ledger.from_json(data["ledger"])
        self.accounts = {
            p: Account(p, name, seated, at, left) for p, name, seated, at, left in data["accounts"]
        }
        if self.capital is not None and data.get("capital") is not None:
            self.capital.balances = {str(k): int(v) for k, v in data["capital"].items()}

    def owes_return_fee(self, player: str) -> bool:
        """He left with his stack and comes back: a big blind as a seat fee (casino cash)."""
        account = self.accounts.get(player)
        return self.rules.return_fee and account is not None and account.left_with_chips
