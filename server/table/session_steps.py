"""A table session file, parsed into typed frozen steps (shared/specs/session-format.md).

Pure parsing: every malformed part raises :class:`~server.engine.replay.ScenarioError` (the
replay exits 2 with its one-line message). What the table then makes of a well-formed step
(a seat taken, a rebuy the profile refuses) is the runner's business (:mod:`.session`).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from server.engine import PROFILE_IDS, AnteFormat, Blinds
from server.engine.replay import (
    ScenarioError,
    fields,
    integer,
    need,
    parse_cards,
    parse_input,
    whole,
)
from server.engine.setup import DEFAULT_DENOMINATIONS

__all__ = [
    "Away",
    "Back",
    "Clock",
    "DealHand",
    "Input",
    "Leave",
    "Queue",
    "Rebuy",
    "Refuse",
    "Session",
    "Sit",
    "Step",
    "parse_session",
]

_TOP = {
    "profile", "game", "structure", "table", "denominations", "button", "steps", "capital", "seed",
}  # fmt: skip
_TABLE = {"seats", "blinds", "buy_in", "rake", "run_it"}
_BLINDS = {"sb", "bb", "ante", "ante_format"}
_HAND = {"hole", "board", "boards", "stub", "inputs", "runs", "seed"}
GAMES = ("tournament", "cash", "draw")
"""``draw``: a cash table of five-card draw (fpc « LE FIVE-CARD DRAW »)."""
STRUCTURES = ("no_limit", "pot_limit")

Input = tuple[str, Any]
"""One input of a hand, as :func:`server.engine.replay.parse_input` returns it."""


@dataclass(frozen=True, slots=True, kw_only=True)
class Sit:
    name: str
    seat: int
    stack: int | None = None
    """Tournament: the chips he brings."""
    buy_in: int | None = None
    """Cash: the chips he buys."""
    wait_for_bb: bool = False


@dataclass(frozen=True, slots=True)
class Away:
    name: str


@dataclass(frozen=True, slots=True)
class Back:
    name: str


@dataclass(frozen=True, slots=True)
class Rebuy:
    name: str
    amount: int


@dataclass(frozen=True, slots=True)
class Leave:
    name: str


@dataclass(frozen=True, slots=True)
class Queue:
    name: str


@dataclass(frozen=True, slots=True)
class Refuse:
    name: str


@dataclass(frozen=True, slots=True)
class Clock:
    minutes: float


@dataclass(frozen=True, slots=True, kw_only=True)
class DealHand:
    hole: Mapping[str, tuple[int, ...]]
    boards: tuple[tuple[int, ...], ...]
    """One (partial) board per run; the first is the board of a single run."""
    inputs: tuple[Input, ...]
    runs: int = 1
    seed: int | None = None
    stub: tuple[int, ...] = ()
    """Five-card draw: the cards the draw deals from, in order (the rest at random)."""


Step = Sit | Away | Back | Rebuy | Leave | Queue | Refuse | Clock | DealHand


@dataclass(frozen=True, slots=True, kw_only=True)
class Session:
    profile: str
    game: str
    seats: int
    blinds: Blinds
    denominations: tuple[int, ...]
    button: int
    steps: tuple[Step, ...]
    seed: int | None = None
    buy_in: tuple[int, int] | None = None
    rake: tuple[int, int] = (0, 0)
    run_it: int = 1
    capital: Mapping[str, int] | None = None
    structure: str = ""
    """Five-card draw: ``no_limit`` or ``pot_limit`` (empty: the rules' default)."""


def _name(obj: Mapping[str, Any], what: str) -> str:
    name = obj.get("name")
    need(isinstance(name, str) and name != "", f"{what}.name: a non-empty string")
    return str(name)


def _blinds(data: Any) -> Blinds:
    b = fields(data, _BLINDS, "table.blinds")
    need("sb" in b and "bb" in b, "table.blinds needs sb and bb")
    try:
        ante_format = AnteFormat(b.get("ante_format", "none"))
    except ValueError:
        raise ScenarioError(f"unknown ante_format {b.get('ante_format')!r}") from None
    blinds = Blinds(
        sb=integer(b["sb"], "blinds.sb"),
        bb=integer(b["bb"], "blinds.bb", 1),
        ante=integer(b.get("ante", 0), "blinds.ante"),
        ante_format=ante_format,
    )
    need(blinds.sb <= blinds.bb, "blinds.sb is larger than blinds.bb")
    return blinds


def _sit(data: Any, game: str) -> Sit:
    s = fields(data, {"name", "seat", "stack", "buy_in", "wait_for_bb"}, "sit")
    wait = s.get("wait_for_bb", False)
    need(isinstance(wait, bool), "sit.wait_for_bb: a boolean")
    if game == "tournament":
        need("stack" in s, "sit.stack: a tournament player sits with a stack")
        need("buy_in" not in s and not wait, "sit: buy_in and wait_for_bb are cash-game fields")
        return Sit(name=_name(s, "sit"), seat=whole(s.get("seat"), "sit.seat"),
                   stack=integer(s["stack"], "sit.stack", 1))  # fmt: skip
    need("buy_in" in s, "sit.buy_in: a cash-game player sits with a buy-in")
    need("stack" not in s, "sit.stack is a tournament field (cash: buy_in)")
    return Sit(name=_name(s, "sit"), seat=whole(s.get("seat"), "sit.seat"),
               buy_in=integer(s["buy_in"], "sit.buy_in", 1), wait_for_bb=wait)  # fmt: skip


def _hand(data: Any, game: str) -> DealHand:
    h = fields(data, _HAND, "hand")
    if game == "draw":
        return _draw_hand(h)
    need("stub" not in h, "hand.stub is for five-card draw only")
    hole_in = h.get("hole", {})
    need(isinstance(hole_in, dict), "hand.hole: an object of player names")
    hole: dict[str, tuple[int, ...]] = {}
    for name, values in hole_in.items():
        cards = parse_cards(values, f"hole[{name}]")
        need(len(cards) <= 2, f"hole[{name}]: at most two cards")
        hole[name] = tuple(cards)
    need(not ("board" in h and "boards" in h), "hand: board or boards, not both")
    if "boards" in h:
        need(isinstance(h["boards"], list) and 1 <= len(h["boards"]) <= 3, "boards: 1 to 3")
        boards = tuple(tuple(parse_cards(b, "boards[]")) for b in h["boards"])
    else:
        boards = (tuple(parse_cards(h.get("board", []), "board")),)
    need(all(len(b) <= 5 for b in boards), "a board has at most five cards")
    used = [c for cs in hole.values() for c in cs] + list(boards[0])
    need(len(set(used)) == len(used), "a card is given twice")
    for extra in boards[1:]:
        # later runs share the cards already out when the runs start; each is its own deck
        mine = [c for cs in hole.values() for c in cs] + list(extra)
        need(len(set(mine)) == len(mine), "a card is given twice in a run's board")
    raw_inputs = h.get("inputs", [])
    need(isinstance(raw_inputs, list), "hand.inputs must be a list")
    runs = integer(h.get("runs", 1), "hand.runs", 1)
    need(runs <= 3, "hand.runs: 1, 2 or 3")
    seed = h.get("seed")
    return DealHand(
        hole=hole,
        boards=boards,
        inputs=tuple(parse_input(entry) for entry in raw_inputs),
        runs=runs,
        seed=None if seed is None else integer(seed, "hand.seed"),
    )


def _draw_hand(h: Mapping[str, Any]) -> DealHand:
    """A hand of five-card draw: up to five cards of ``hole`` each, no board, a ``stub`` the
    draw deals from (the rest at random), inputs that may be draws."""
    need("board" not in h and "boards" not in h, "five-card draw has no board")
    hole_in = h.get("hole", {})
    need(isinstance(hole_in, dict), "hand.hole: an object of player names")
    hole = {name: tuple(parse_cards(cs, f"hole[{name}]")) for name, cs in hole_in.items()}
    need(all(len(cs) <= 5 for cs in hole.values()), "hand.hole: at most five cards each")
    stub = tuple(parse_cards(h.get("stub", []), "stub"))
    used = [c for cs in hole.values() for c in cs] + list(stub)
    need(len(set(used)) == len(used), "a card is given twice")
    raw_inputs = h.get("inputs", [])
    need(isinstance(raw_inputs, list), "hand.inputs must be a list")
    need(integer(h.get("runs", 1), "hand.runs", 1) == 1, "five-card draw deals one run")
    seed = h.get("seed")
    return DealHand(
        hole=hole,
        boards=((),),
        stub=stub,
        inputs=tuple(parse_input(entry) for entry in raw_inputs),
        seed=None if seed is None else integer(seed, "hand.seed"),
    )


def _named(kind: type[Away | Back | Leave | Queue | Refuse], data: Any, key: str) -> Step:
    return kind(_name(fields(data, {"name"}, key), key))


def _step(entry: Any, game: str) -> Step:
    need(isinstance(entry, dict) and len(entry) == 1, "a step is an object with exactly one key")
    ((key, data),) = entry.items()
    named: dict[str, type[Away | Back | Leave | Queue | Refuse]] = {
        "away": Away, "back": Back, "leave": Leave, "queue": Queue, "refuse": Refuse,
    }  # fmt: skip
    if key in named:
        return _named(named[key], data, key)
    if key == "sit":
        return _sit(data, game)
    if key == "hand":
        return _hand(data, game)
    if key == "rebuy":
        r = fields(data, {"name", "amount"}, "rebuy")
        return Rebuy(_name(r, "rebuy"), integer(r.get("amount"), "rebuy.amount", 1))
    if key == "time":
        t = fields(data, {"minutes"}, "time")
        minutes = t.get("minutes")
        ok = isinstance(minutes, int | float) and not isinstance(minutes, bool) and minutes >= 0
        need(ok, "time.minutes: a number >= 0")
        return Clock(float(minutes or 0))
    raise ScenarioError(f"unknown step kind {key!r}")


def _cash_table(t: Mapping[str, Any]) -> tuple[tuple[int, int] | None, tuple[int, int], int]:
    buy_in = None
    if "buy_in" in t:
        b = fields(t["buy_in"], {"min", "max"}, "table.buy_in")
        low, high = integer(b.get("min"), "buy_in.min", 1), integer(b.get("max"), "buy_in.max", 1)
        need(low <= high, "table.buy_in: min above max")
        buy_in = (low, high)
    r = fields(t.get("rake", {}), {"percent", "cap"}, "table.rake")
    percent = integer(r.get("percent", 0), "rake.percent")
    need(percent <= 100, "rake.percent: at most 100")
    run_it = integer(t.get("run_it", 1), "table.run_it", 1)
    need(run_it <= 3, "table.run_it: 1, 2 or 3")
    return buy_in, (percent, integer(r.get("cap", 0), "rake.cap")), run_it


def parse_session(data: Any) -> Session:
    """The session file's object, checked. Raises ScenarioError."""
    top = fields(data, _TOP, "session")
    for key in ("profile", "game", "table", "button", "steps"):
        need(key in top, f"missing field {key!r}")
    need(top["profile"] in PROFILE_IDS, f"unknown profile {top['profile']!r}")
    need(top["game"] in GAMES, f"unknown game {top['game']!r} (tournament, cash or draw)")
    structure = top.get("structure", "")
    need(structure in ("", *STRUCTURES), f"unknown structure {structure!r}")
    need(not structure or top["game"] == "draw", "structure is for five-card draw sessions")
    t = fields(top["table"], _TABLE, "table")
    need("blinds" in t, "table.blinds is missing")
    seats = integer(t.get("seats", 9), "table.seats", 2)
    need(seats <= 10, "table.seats: 2 to 10")
    denominations = top.get("denominations", list(DEFAULT_DENOMINATIONS))
    need(isinstance(denominations, list) and len(denominations) > 0, "denominations: a list")
    denoms = tuple(integer(d, "denomination", 1) for d in denominations)
    need(list(denoms) == sorted(set(denoms)), "denominations: ascending, each once")
    button = integer(top["button"], "button", 1)
    need(button <= seats, "button: a seat of the table")
    need(isinstance(top["steps"], list), "steps must be a list")
    buy_in, rake, run_it = _cash_table(t)
    capital = None
    if "capital" in top:
        need(isinstance(top["capital"], dict), "capital: an object of player names")
        capital = {str(k): integer(v, f"capital[{k}]") for k, v in top["capital"].items()}
    seed = top.get("seed")
    return Session(
        profile=str(top["profile"]),
        game=str(top["game"]),
        seats=seats,
        blinds=_blinds(t["blinds"]),
        denominations=denoms,
        button=button,
        steps=tuple(_step(entry, str(top["game"])) for entry in top["steps"]),
        seed=None if seed is None else integer(seed, "seed"),
        buy_in=buy_in,
        rake=rake,
        run_it=run_it,
        capital=capital,
        structure=str(structure),
    )
