"""Replay a hand scenario from JSON (shared/specs/scenario-format.md — a stable contract).

    python -m server.engine.replay SCENARIO.json
    python -m server.engine.replay - < SCENARIO.json

Prints one JSON document. Exit 0 when the scenario was read and played (refused inputs are
reported in the output), 2 with a one-line message on stderr when the file is malformed.

Extensions (documented in docs/replay.md): a player may carry ``"dead": true`` (dealt a dead
hand: absent at the deal or serving a penalty, cdc 4.1 / 11.1); the scenario may carry
``"option": SEAT``, the seat posting the option (casino cash, the straddle: see
:attr:`~server.engine.setup.HandSetup.option`); a five-card draw scenario may carry
``"burn": CARD`` (the card burnt before the draw; default: a random undealt card) and
``"reshuffle": [CARDS]`` (the order of a new stub if the stub runs out, completed at random).

Five-card draw (``"game": "draw"``, the spec's "Five-card draw" section): five-card ``hole``,
no ``board``, an optional ``stub``, ``{"player": P, "draw": [CARDS]}`` inputs; the output adds
``holes`` and, during the draw, ``next`` is ``{"player", "draw": true, "max_discard"}``.
"""

from __future__ import annotations

import dataclasses
import json
import random
import sys
from collections.abc import Mapping
from typing import Any

from .cards import card_name, parse_card
from .commands import Act, Draw, Form, Muck, Say, Show, Verb
from .errors import RuleError, SetupError
from .events import Acted, Drew, Event, OutOfTurn, Pending
from .hand import Hand
from .profile import PROFILE_IDS, load_profile
from .setup import (
    DEFAULT_DENOMINATIONS,
    DRAW_HOLE,
    AnteFormat,
    Blinds,
    Game,
    HandSetup,
    SeatSetup,
    Structure,
)

__all__ = [
    "ScenarioError",
    "event_to_dict",
    "fields",
    "input_result",
    "integer",
    "main",
    "need",
    "parse_cards",
    "parse_input",
    "run_scenario",
    "whole",
]

_TOP = {
    "profile",
    "blinds",
    "denominations",
    "players",
    "button",
    "big_blind",
    "option",
    "hole",
    "board",
    "inputs",
    "game",
    "structure",
    "stub",
    "burn",
    "reshuffle",
}
_DRAW_ONLY = ("stub", "burn", "reshuffle")
_BLINDS = {"sb", "bb", "ante", "ante_format"}
_PLAYER = {"name", "seat", "stack", "dead"}
_INPUT = {"player", "say", "chips", "show", "muck", "time", "draw"}
_SAY = {"verb", "amount", "form"}


class ScenarioError(ValueError):
    """The scenario file itself is malformed (exit status 2)."""


def need(cond: bool, message: str) -> None:
    if not cond:
        raise ScenarioError(message)


def integer(value: Any, what: str, minimum: int = 0) -> int:
    need(
        isinstance(value, int) and not isinstance(value, bool) and value >= minimum,
        f"{what} must be an integer >= {minimum}",
    )
    return int(value)


def whole(value: Any, what: str) -> int:
    """A whole number of any sign (a gesture's amount: the rules judge its value)."""
    need(isinstance(value, int) and not isinstance(value, bool), f"{what} must be an integer")
    return int(value)


def fields(obj: Any, allowed: set[str], what: str) -> Mapping[str, Any]:
    need(isinstance(obj, dict), f"{what} must be an object")
    unknown = set(obj) - allowed
    need(not unknown, f"unknown field(s) in {what}: {', '.join(sorted(unknown))}")
    return obj  # type: ignore[no-any-return]


def parse_cards(values: Any, what: str) -> list[int]:
    need(isinstance(values, list), f"{what} must be a list of cards")
    try:
        return [parse_card(v) for v in values]
    except ValueError as exc:
        raise ScenarioError(f"{what}: {exc}") from None


def build_setup(data: Any, rng: random.Random | None = None) -> HandSetup:
    """Parse the scenario's set-up part. Raises ScenarioError."""
    top = fields(data, _TOP, "scenario")
    for key in ("profile", "blinds", "players", "button"):
        need(key in top, f"missing field {key!r}")
    need(top["profile"] in PROFILE_IDS, f"unknown profile {top['profile']!r}")
    profile = load_profile(top["profile"])
    b = fields(top["blinds"], _BLINDS, "blinds")
    need("sb" in b and "bb" in b, "blinds need sb and bb")
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
    denominations = top.get("denominations", list(DEFAULT_DENOMINATIONS))
    need(isinstance(denominations, list) and len(denominations) > 0, "denominations: a list")
    denoms = tuple(integer(d, "denomination", 1) for d in denominations)
    need(isinstance(top["players"], list), "players must be a list")
    seats = []
    for entry in top["players"]:
        pl = fields(entry, _PLAYER, "player")
        need(isinstance(pl.get("name"), str) and pl["name"] != "", "player name: a string")
        dead = pl.get("dead", False)
        need(isinstance(dead, bool), "player dead: a boolean")
        seats.append(
            SeatSetup(
                player=pl["name"],
                seat=integer(pl.get("seat"), "seat"),
                stack=integer(pl.get("stack"), "stack", 1),
                dead=dead,
            )
        )
    try:
        game = Game(top.get("game", "holdem"))
        structure = Structure(top.get("structure", "no_limit"))
    except ValueError:
        raise ScenarioError(f"unknown game or structure in {top.get('game')!r}") from None
    names = [s.player for s in seats]
    rng = rng or random.Random()
    big_blind = top.get("big_blind")
    option = top.get("option")
    common: dict[str, Any] = {
        "profile": profile,
        "blinds": blinds,
        "seats": tuple(seats),
        "button": integer(top["button"], "button"),
        "denominations": denoms,
        "big_blind": None if big_blind is None else integer(big_blind, "big_blind"),
        "option": None if option is None else integer(option, "option"),
        "game": game,
        "structure": structure,
    }
    if game is Game.DRAW:
        setup = _draw_setup(top, names, rng, common)
    else:
        for key in _DRAW_ONLY:
            need(key not in top, f"{key!r} is for five-card draw only")
        setup = _holdem_setup(top, names, rng, common)
    try:
        setup.validate()
    except SetupError as exc:
        raise ScenarioError(f"impossible setup: {exc}") from None
    return setup


def _holdem_setup(
    top: Mapping[str, Any], names: list[str], rng: random.Random, common: dict[str, Any]
) -> HandSetup:
    hole_in = fields(top.get("hole", {}), set(names), "hole")
    hole: dict[str, list[int]] = {}
    for name, cards in hole_in.items():
        parsed = parse_cards(cards, f"hole[{name}]")
        need(len(parsed) <= 2, f"hole[{name}]: at most two cards")
        hole[name] = parsed
    board = parse_cards(top.get("board", []), "board")
    need(len(board) <= 5, "board: at most five cards")
    used = [c for cs in hole.values() for c in cs] + board
    need(len(set(used)) == len(used), "a card is given twice")
    rest = [c for c in range(52) if c not in set(used)]
    rng.shuffle(rest)  # "any card left unspecified is dealt at random"
    for name in names:
        cards = hole.setdefault(name, [])
        while len(cards) < 2:
            cards.append(rest.pop())
    while len(board) < 5:
        board.append(rest.pop())
    return HandSetup(
        hole={name: (cs[0], cs[1]) for name, cs in hole.items()},
        board=tuple(board),
        **common,
    )


def _draw_setup(
    top: Mapping[str, Any], names: list[str], rng: random.Random, common: dict[str, Any]
) -> HandSetup:
    """Five-card draw: five cards each (a player left out of ``hole`` gets five at random), no
    board; the ``stub`` given, then the undealt cards at random; a burn card (``burn``, else
    at random); the order of a new stub (``reshuffle`` then the other cards at random)."""
    need("board" not in top, "five-card draw has no board")
    hole_in = fields(top.get("hole", {}), set(names), "hole")
    hole: dict[str, list[int]] = {}
    for name, cards in hole_in.items():
        parsed = parse_cards(cards, f"hole[{name}]")
        need(len(parsed) == DRAW_HOLE, f"hole[{name}]: five cards in five-card draw")
        hole[name] = parsed
    stub = parse_cards(top.get("stub", []), "stub")
    burn = [] if top.get("burn") is None else parse_cards([top["burn"]], "burn")
    used = [c for cs in hole.values() for c in cs] + stub + burn
    need(len(set(used)) == len(used), "a card is given twice")
    rest = [c for c in range(52) if c not in set(used)]
    rng.shuffle(rest)  # "any card left unspecified is dealt at random"
    for name in names:
        if name not in hole:
            need(len(rest) >= DRAW_HOLE, "too many players for five cards each")
            hole[name] = [rest.pop() for _ in range(DRAW_HOLE)]
    if not burn and rest:
        burn = [rest.pop()]
    order = parse_cards(top.get("reshuffle", []), "reshuffle")
    need(len(set(order)) == len(order), "reshuffle: a card is given twice")
    others = [c for c in range(52) if c not in set(order)]
    rng.shuffle(others)
    return HandSetup(
        hole={name: tuple(cs) for name, cs in hole.items()},
        board=(),
        stub=(*stub, *rest),
        burn=burn[0] if burn else None,
        reshuffle=(*order, *others),
        **common,
    )


def parse_input(entry: Any) -> tuple[str, Any]:
    inp = fields(entry, _INPUT, "input")
    need(isinstance(inp.get("player"), str), "input.player: a string")
    player = inp["player"]
    if "draw" in inp:
        need(set(inp) == {"player", "draw"}, "a draw input carries only player and draw")
        return "draw", Draw(player=player, discard=tuple(parse_cards(inp["draw"], "draw")))
    if inp.get("time"):
        return "time", player
    if inp.get("show"):
        return "show", Show(player=player)
    if inp.get("muck"):
        return "muck", Muck(player=player)
    say = None
    if "say" in inp:
        s = fields(inp["say"], _SAY, "say")
        try:
            verb = Verb(str(s.get("verb")))
            form = Form(s.get("form", "total"))
        except ValueError:
            raise ScenarioError(f"unknown verb or form in {s!r}") from None
        amount = s.get("amount")
        if amount is not None:
            # a zero or negative amount is a move a client can send, refused by the rules
            # (accepted: false, bad_amount), not a malformed file: only the type is checked
            amount = whole(amount, "say.amount")
        say = Say(verb=verb, amount=amount, form=form)
    chips = None
    if "chips" in inp:
        need(isinstance(inp["chips"], list), "chips: a list of chip values")
        chips = tuple(whole(c, "chip") for c in inp["chips"])
    return "act", Act(player=player, say=say, chips=chips)


def input_result(hand: Hand, player: str, events: list[Event]) -> dict[str, Any]:
    i = hand.index[player]
    mine = [e for e in events if getattr(e, "player", None) == player]
    for cls in (Acted, Pending, OutOfTurn):
        for e in mine:
            if isinstance(e, cls):
                if isinstance(e, Acted):
                    out = {"action": e.action, "to": e.to, "added": e.added}
                elif isinstance(e, Pending):
                    out = {"action": "pending", "to": hand.committed[i], "added": e.added}
                else:
                    out = {
                        "action": "pending",
                        "to": hand.committed[i],
                        "added": 0,
                        "out_of_turn": True,
                    }
                return {"player": player, "accepted": True, **out, "rule": e.rule, "note": e.note}
    return {
        "player": player,
        "accepted": True,
        "action": "none",
        "to": hand.committed[i],
        "added": 0,
        "rule": "",
        "note": "",
    }


def event_to_dict(event: Event) -> dict[str, Any]:
    """A JSON-friendly view of an event (cards by name)."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in dataclasses.fields(event):
        value = getattr(event, f.name)
        if f.name in ("cards", "discarded", "received"):
            value = [card_name(c) for c in value]
        elif f.name == "hands":
            value = {p: [card_name(c) for c in cs] for p, cs in value}
        elif f.name in ("stacks", "shares", "busted"):
            value = [list(v) for v in value]
        elif isinstance(value, tuple):
            value = list(value)
        out[f.name] = value
    return out


def run_scenario(data: Any, rng: random.Random | None = None) -> dict[str, Any]:
    """Play a scenario (the spec's input object) and return the spec's output object."""
    setup = build_setup(data, rng)
    raw_inputs = data.get("inputs", [])
    need(isinstance(raw_inputs, list), "inputs must be a list")
    inputs = [parse_input(entry) for entry in raw_inputs]
    draw_game = setup.game is Game.DRAW
    need(draw_game or all(kind != "draw" for kind, _ in inputs), "a draw input in hold'em")
    hand = Hand(setup)
    results: list[dict[str, Any]] = []
    for kind, payload in inputs:
        if kind == "time":
            results.append(
                {
                    "player": payload,
                    "accepted": True,
                    "action": "time",
                    "to": 0,
                    "added": 0,
                    "rule": "",
                    "note": "clock call: ignored in replay",
                }
            )
            continue
        try:
            if kind == "show":
                hand.show(payload)
                results.append({"player": payload.player, "accepted": True, "action": "show"})
            elif kind == "muck":
                hand.muck(payload)
                results.append({"player": payload.player, "accepted": True, "action": "muck"})
            elif kind == "draw":
                events = hand.draw(payload)
                drew = next(e for e in events if isinstance(e, Drew))
                results.append(
                    {
                        "player": payload.player,
                        "accepted": True,
                        "action": "draw",
                        "count": drew.count,
                        "rule": drew.rule,
                    }
                )
            else:
                events = hand.act(payload)
                results.append(input_result(hand, payload.player, events))
        except RuleError as exc:
            results.append(
                {
                    "player": payload.player,
                    "accepted": False,
                    "error": exc.message,
                    "code": exc.code.value,
                    "rule": exc.rule,
                }
            )
    hand.auto_showdown()
    menu = hand.menu()
    out: dict[str, Any] = {
        "results": results,
        "stacks": hand.stacks(),
        "pots": [
            {"amount": p.amount, "eligible": list(p.eligible), "winners": list(p.winners)}
            for p in hand.pots()
        ],
        "finished": hand.finished,
    }
    if draw_game:
        holes = zip(hand.names, hand.hole, strict=True)
        out["holes"] = {name: [card_name(c) for c in cs] for name, cs in holes}
    else:
        out["board"] = [card_name(c) for c in hand.board]
    out["events"] = [event_to_dict(e) for e in hand.events]
    draw_menu = hand.draw_menu()
    if draw_menu is not None:
        out["next"] = {
            "player": draw_menu.player,
            "draw": True,
            "max_discard": draw_menu.max_discard,
        }
    elif menu is not None:
        out["next"] = {
            "player": menu.player,
            "call": menu.call,
            "min_raise_to": menu.min_raise_to,
            "max_raise_to": menu.max_raise_to,
            "can_raise": menu.can_raise,
            "can_check": menu.can_check,
            "can_fold": menu.can_fold,
            "pending": menu.pending,
        }
    return out


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m server.engine.replay SCENARIO.json | -", file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as fh:
                text = fh.read()
        data = json.loads(text)
        output = run_scenario(data)
    except (OSError, json.JSONDecodeError, ScenarioError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"replay: {message}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
