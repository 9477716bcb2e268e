"""Rule profiles: every rule parameter on which the five rulebooks differ, as data.

A profile is a TOML file in ``profiles/`` (``tda.toml``, ``cdc.toml``...). Every parameter
is a table ``{ value = ..., cite = "..." }`` so that each choice names the section of the
rulebook it comes from; ``[rules]`` maps engine rule keys to the citation printed in
results (``"cdc-9.13"``).
"""

from __future__ import annotations

import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from enum import StrEnum
from functools import cache
from importlib import resources
from types import MappingProxyType
from typing import Any

from .errors import SetupError
from .positions import MissingBlind, Newcomer

__all__ = [
    "PROFILE_IDS",
    "Abbreviated",
    "AmountOnlyUndercall",
    "AntePriority",
    "MinRaise",
    "MissingBlind",
    "MultipleChips",
    "Newcomer",
    "OpenFold",
    "OutOfTurn",
    "PlusForm",
    "PotDeclaration",
    "Profile",
    "ShortDeclaredRaise",
    "SilentUnderbet",
    "SingleChipRaise",
    "SplitRemainder",
    "TimeCallers",
    "UndersizedChip",
    "load_profile",
]

PROFILE_IDS = ("tda", "cdc", "ligue", "casino", "fpc")


class MinRaise(StrEnum):
    INCREMENT = "increment"
    """A raise adds at least the largest previous bet or raise of the round (tda 43, cdc 9.6)."""
    DOUBLE = "double"
    """A raise is at least double the previous bet (ligue 6.1-6.4, casino "fausse relance")."""


class PlusForm(StrEnum):
    TOTAL = "total"
    """"Plus 4000" means a raise to 4000 in total (cdc 9.1, fpc 18-3)."""
    INCREMENT = "increment"
    """"Plus 4000" means 4000 more than the bet to call (tda 43-B)."""


class Abbreviated(StrEnum):
    POT = "pot"
    """"5" is 500 if the pot is under 5000, else 5000 (cdc 9.1)."""
    SMALLEST = "smallest"
    """"5" is the smallest reading, 500 (fpc 18-3, tda 52)."""


class MultipleChips(StrEnum):
    IDENTICAL = "identical"
    """Identical chips are a call if removing one leaves less than the call (cdc 9.13)."""
    ANY = "any"
    """Any chips are a call if removing the smallest leaves less than the call (tda 46)."""
    NONE = "none"
    """No multiple-chip rule: the chips' total is judged by the 50 % rule (casino, ligue)."""


class SingleChipRaise(StrEnum):
    CHIP_VALUE = "chip_value"
    """"Raise" with one chip and no amount: a raise to the chip's value (cdc 9.11, tda 45)."""
    MIN_RAISE = "min_raise"
    """"Raise" with one chip and no amount: the minimum raise (fpc 18-2, third case)."""


class UndersizedChip(StrEnum):
    COMPLETE = "complete"
    """A single chip smaller than the call is a call; the rest is owed (tda 41, fpc 18-16)."""
    COMMIT = "commit"
    """The chip goes in; the player must call or fold, never raise (ligue art. 6)."""
    HEADS_UP_COMPLETE = "heads_up_complete"
    """Heads-up: a call; three or more players: committed, call or fold (cdc 9.12)."""


class SilentUnderbet(StrEnum):
    ALIGN = "align"
    """Chips pushed silently below the big blind with no bet to face are a bet of the big
    blind (cdc 9.10 « underbet », fpc 18-9, casino « fausse ouverture »)."""
    COMMIT = "commit"
    """The chips go in; the player brings his bet up to the big blind or folds, the chips
    staying in the pot (ligue 6 intro: « il doit égaliser le big blind ... ou le joueur peut
    folder ses cartes mais les jetons restent dans le pot »)."""


class AmountOnlyUndercall(StrEnum):
    VOID = "void"
    """An amount said alone that is less than the call is void; restate (cdc 9.5)."""
    COMPLETE = "complete"
    """An amount said alone is chips of that amount; an undercall is completed (tda 37-C, 39)."""


class PotDeclaration(StrEnum):
    VOID = "void"
    """"Pot" is not a valid declaration in no-limit (cdc 9.15): restate."""
    PENDING = "pending"
    """"Pot" binds the player to a valid bet or raise whose amount follows (tda 50-C)."""


class OpenFold(StrEnum):
    BINDING = "binding"
    """Folding when a check is possible is binding, and penalised (tda 53, cdc 9.22)."""
    REFUSED = "refused"
    """Folding when a check is possible is not permitted (fpc 18-26)."""


class ShortDeclaredRaise(StrEnum):
    COMPLETE = "complete"
    """An announced raise short of the minimum is completed to it (cdc 9.10, tda 42-C and
    43-A, ligue 6.13, fpc 18-16)."""
    FIFTY = "fifty"
    """An announced raise short of the minimum is judged by the 50 % rule like chips: at least
    half of the complement → completed (or all-in), less → a call, the excess taken back
    (casino/fausse-relance: « Si un joueur fait une annonce constituant une fausse relance »)."""


class SplitRemainder(StrEnum):
    SPREAD = "spread"
    """The odd chips of a split pot go one (of the smallest denomination) each to the
    winners nearest the button's left (tda 19, fpc 19-12, cdc 10.8, ligue 6.24)."""
    FIRST = "first"
    """The whole remainder of a split pot goes to the winner nearest the button's left
    (casino/egalite: « celui-ci sera attribué au joueur en jeu placé le plus à gauche »)."""


class OutOfTurn(StrEnum):
    STANDARD = "standard"
    """Binding if the action has not changed; a bet or raise releases it; folds bind
    (cdc 9.3, tda 40, fpc 18-4)."""
    CASINO = "casino"
    """Binding; if a raise comes before the turn, call or fold only (casino rules)."""
    LIGUE = "ligue"
    """Player in turn checks: offender may only check; bets no more than announced: call or
    fold; bets more: free (ligue 6.14)."""


class AllinShowdown(StrEnum):
    NONE = "none"
    """No more than the general rule: hands turn face up once nobody can bet any more
    (cdc 10.4); otherwise the usual showdown, where a losing hand may be mucked."""
    ALL = "all"
    """Once a player is all-in and the betting is over, every live hand is tabled and none
    may be mucked (tda 15, its addendum example 3: at the river too)."""
    ALLIN = "allin"
    """The all-in players expose their cards once no more betting is possible (fpc 19-11);
    the others show or muck as usual."""


class TimeCallers(StrEnum):
    SEATED = "seated"
    """Any player at his seat may call the Time on the player to act, in the hand or not
    (cdc 3.5 "tout joueur en jeu dans le tournoi assis à sa table", tda 27, ligue 6.27
    "toute personne en jeu ou hors-jeu", casino "les autres joueurs de la table")."""
    IN_HAND = "in_hand"
    """Only an opponent still in the hand, or the player himself (fpc 9-1 "le donneur, un
    adversaire ou le joueur lui-même")."""


class AntePriority(StrEnum):
    ANTE = "ante"
    """Big-blind ante: the ante is paid before the big blind (cdc 4.2)."""
    BLIND = "blind"
    """Big-blind ante: the big blind is paid before the ante (fpc 6-1)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Profile:
    """The rule parameters of one rulebook. Build with :func:`load_profile`."""

    id: str
    name: str
    min_raise: MinRaise
    plus_form: PlusForm
    abbreviated: Abbreviated
    multiple_chips: MultipleChips
    single_chip_raise: SingleChipRaise
    undersized_chip: UndersizedChip
    silent_underbet: SilentUnderbet
    """Chips pushed silently below the big blind with no bet to face (an unopened round
    after the flop); announced short bets are completed everywhere (``underbet``)."""
    amount_only_undercall: AmountOnlyUndercall
    pot_declaration: PotDeclaration
    open_fold: OpenFold
    out_of_turn: OutOfTurn
    short_declared_raise: ShortDeclaredRaise
    split_remainder: SplitRemainder
    bb_ante_priority: AntePriority
    allin_showdown: AllinShowdown
    no_heads_up_ante: tuple[str, ...]
    time_seconds: int
    """Seconds given once the Time is called, the counted-down seconds included."""
    time_countdown: int
    time_callers: TimeCallers
    """Who may call the Time (a player must also be at his seat: tda 27, cdc 4.1)."""
    missing_blind: MissingBlind
    """The next hand when a blind's player is gone: dead button (cdc 4.3, tda 31) or the
    same dealer without small blind (fpc 17-3, 17-4); see :mod:`server.engine.positions`."""
    newcomer: Newcomer
    """Where a tournament arrival (late or moved) waits instead of being dealt in: only
    strictly between the button and the big blind (cdc 2.3, tda 7, fpc 17-2), or also on the
    button and the small blind (ligue art. 3); see
    :func:`server.engine.positions.newcomer_waits`."""
    citations: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))
    rules: Mapping[str, str] = field(default_factory=lambda: MappingProxyType({}))

    def cite(self, key: str) -> str:
        """The citation printed in results for engine rule ``key`` (e.g. ``"cdc-9.13"``)."""
        return self.rules.get(key, "")


_ENUMS: dict[str, type[StrEnum]] = {
    "min_raise": MinRaise,
    "plus_form": PlusForm,
    "abbreviated": Abbreviated,
    "multiple_chips": MultipleChips,
    "single_chip_raise": SingleChipRaise,
    "undersized_chip": UndersizedChip,
    "silent_underbet": SilentUnderbet,
    "amount_only_undercall": AmountOnlyUndercall,
    "pot_declaration": PotDeclaration,
    "open_fold": OpenFold,
    "out_of_turn": OutOfTurn,
    "short_declared_raise": ShortDeclaredRaise,
    "split_remainder": SplitRemainder,
    "bb_ante_priority": AntePriority,
    "allin_showdown": AllinShowdown,
    "time_callers": TimeCallers,
    "missing_blind": MissingBlind,
    "newcomer": Newcomer,
}


def _build(data: Mapping[str, Any]) -> Profile:
    kwargs: dict[str, Any] = {"id": data["id"], "name": data["name"]}
    citations: dict[str, str] = {}
    names = {f.name for f in fields(Profile)} - {"id", "name", "citations", "rules"}
    for name in names:
        entry = data.get(name)
        if not isinstance(entry, dict) or "value" not in entry or "cite" not in entry:
            raise SetupError(f"profile {data['id']}: {name} needs {{ value, cite }}")
        value = entry["value"]
        if name in _ENUMS:
            value = _ENUMS[name](value)
        elif isinstance(value, list):
            value = tuple(value)
        kwargs[name] = value
        citations[name] = str(entry["cite"])
    unknown = set(data) - names - {"id", "name", "rules"}
    if unknown:
        raise SetupError(f"profile {data['id']}: unknown keys {sorted(unknown)}")
    kwargs["citations"] = MappingProxyType(citations)
    kwargs["rules"] = MappingProxyType({str(k): str(v) for k, v in data.get("rules", {}).items()})
    return Profile(**kwargs)


@cache
def load_profile(profile_id: str) -> Profile:
    """Load a rule profile by id. Raises :class:`SetupError` for an unknown id."""
    if profile_id not in PROFILE_IDS:
        raise SetupError(f"unknown profile {profile_id!r}; expected one of {PROFILE_IDS}")
    text = resources.files(__package__).joinpath(f"profiles/{profile_id}.toml").read_text("utf-8")
    return _build(tomllib.loads(text))
