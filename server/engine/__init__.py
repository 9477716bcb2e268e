"""Brasseur's rules engine: one hand of No-Limit Hold'em or five-card draw under a rule
profile, sans I/O.

Typical use::

    hand = Hand(HandSetup(profile=load_profile("cdc"), blinds=Blinds(sb=50, bb=100), ...))
    hand.menu()                      # who acts, call amount, raise bounds
    hand.act(Act(player="A", say=Say(verb=Verb.RAISE, amount=300)))   # -> events
"""

from .cards import card_name, parse_card
from .commands import Act, Draw, Form, Muck, Say, Show, Verb
from .errors import ErrorCode, RuleError, SetupError
from .events import Event
from .hand import DrawMenu, Hand, Menu, Phase, PotView, Street
from .profile import PROFILE_IDS, Profile, load_profile
from .setup import (
    DEFAULT_DENOMINATIONS,
    AnteFormat,
    Blinds,
    Game,
    HandSetup,
    SeatSetup,
    Structure,
)

__all__ = [
    "DEFAULT_DENOMINATIONS",
    "PROFILE_IDS",
    "Act",
    "AnteFormat",
    "Blinds",
    "Draw",
    "DrawMenu",
    "ErrorCode",
    "Event",
    "Form",
    "Game",
    "Hand",
    "HandSetup",
    "Menu",
    "Muck",
    "Phase",
    "PotView",
    "Profile",
    "RuleError",
    "Say",
    "SeatSetup",
    "SetupError",
    "Show",
    "Street",
    "Structure",
    "Verb",
    "card_name",
    "load_profile",
    "parse_card",
]
