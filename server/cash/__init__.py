"""Cash games (casino and fpc cash sections): pure rules, the ledger, absences and the
waiting list. The table's cash dealing policy uses them; nothing here does I/O."""

from server.cash.absence import (
    Arrival,
    Away,
    Deal,
    Dues,
    arrival_dues,
    big_blind_came,
    deal,
    small_blind_came,
)
from server.cash.book import CashBook, CashError, Refusal
from server.cash.capital import Capital, Settlement, settle
from server.cash.ledger import Entry as LedgerEntry
from server.cash.ledger import Ledger, Move, Totals
from server.cash.rules import Absence, CashRules, Entry, Rebuy, cash_rules
from server.cash.terms import Terms, cash_terms, game_refusal
from server.cash.waitlist import WaitingList

__all__ = [
    "Absence",
    "Arrival",
    "Away",
    "Capital",
    "CashBook",
    "CashError",
    "CashRules",
    "Deal",
    "Dues",
    "Entry",
    "Ledger",
    "LedgerEntry",
    "Move",
    "Rebuy",
    "Refusal",
    "Settlement",
    "Terms",
    "Totals",
    "WaitingList",
    "arrival_dues",
    "big_blind_came",
    "cash_rules",
    "cash_terms",
    "deal",
    "game_refusal",
    "settle",
    "small_blind_came",
]
