"""What each recipient may see of a table: its snapshots (an event as a recipient gets it
is rendered by the outbox, :func:`server.table.outbox.render`, re-exported here).

A player sees only their own hole cards: everyone else gets the same ``hole`` event with no
cards. Spectators see the live hand (no hole cards, no menu); in a tournament's commentary
mode, the table as of the last completed hand.
"""

from __future__ import annotations

import math
from typing import Any

from server.engine import Game, Hand, Structure, card_name
from server.engine import events as ev
from server.table.cash import game_terms
from server.table.cash_views import cash_view
from server.table.core import TableCore
from server.table.events import PotView
from server.table.outbox import render
from server.table.phases import TablePhase
from server.table.runs import run_terms

__all__ = ["pot_views", "pots_view", "render", "table_view"]


def table_view(actor: TableCore, seat: int | None) -> dict[str, Any]:
    """The table as ``seat`` may see it (spectators in commentary mode: as of the last
    completed hand, time banks included)."""

    live = seat is not None or not actor.in_hand() or not actor.out.delayed
    hand = actor.hand if live and actor.playing() else None
    state: dict[str, Any] = {
        "name": actor.config.name,
        "profile": actor.profile.id,
        "blinds": [actor.blinds.sb, actor.blinds.bb, actor.blinds.ante],
        "ante_format": actor.blinds.ante_format.value,
        "max_seats": actor.config.max_seats,
        "denominations": list(actor.config.denominations),
        "phase": _phase(actor.phase) if live else "between",
        "hand": actor.hand_no if live else max(0, actor.hand_no - 1),
        "you": seat,
        "seats": [
            {
                "seat": s.seat,
                "player": s.name,
                "stack": s.stack
                if hand is None or str(s.seat) not in hand.index
                else hand.stack[hand.index[str(s.seat)]],
                "connected": s.connected,
                "sitting_out": s.sitting_out,
                "time_bank_ms": int((s.time_bank if live else s.bank_at_start) * 1000),
            }
            for s in sorted(actor.seats.values(), key=lambda s: s.seat)
        ],
    }
    # whole seconds on the wire (no floats): rounded up, so that a client offering the Time
    # from ``time_call_after`` never offers it before the table accepts it
    cash = cash_view(actor)
    if cash is not None:
        state["cash"] = cash
    game = _game_view(state, actor)
    state["run_it"] = run_terms(actor)[0]
    state["action_seconds"] = math.ceil(actor.config.action_seconds)
    state["time_call_after"] = math.ceil(actor.config.time_call_after)
    if actor.positions is not None and live:
        state["button"] = actor.positions.button
    if hand is not None:
        state["small_blind"] = int(hand.names[hand.sb_i]) if hand.sb_i >= 0 else None
        state["big_blind"] = int(hand.names[hand.bb_i])
        state["start_stacks"] = {str(s): v for s, v in actor.start_stacks.items()}
    if hand is not None:
        state["board"] = [card_name(c) for c in hand.board]
        state["bets"] = {p: hand.committed[i] for i, p in enumerate(hand.names)}
        state["folded"] = [int(p) for i, p in enumerate(hand.names) if hand.folded[i]]
        # absent at the deal (cdc 4.1): a dead hand, in ``folded`` too, never dealt cards
        state["dead"] = [int(p) for i, p in enumerate(hand.names) if hand.dead[i]]
        state["pots"] = pots_view(hand)
        mine = hand.index.get(str(seat)) if seat is not None else None
        if mine is not None and not hand.dead[mine]:
            # a dead hand (absent at the deal, cdc 4.1) is dealt no cards: no hole event
            state["hole"] = [card_name(c) for c in hand.hole[mine]]
        shown = {
            e.player: [card_name(c) for c in e.cards]
            for e in hand.events
            if isinstance(e, ev.Shown)
        }
        state["shown"] = shown
        state["pot_total"] = hand.pot_total()
        if actor.timers.action is not None:
            state["clock_remaining_ms"] = int(max(0.0, actor.timers.action - actor.now) * 1000)
            # how long the player to act has thought on this clock: the Time may be called
            # from time_call_after (cdc 3.5, tda 27; server.table.play.call_time)
            thinking = max(0.0, actor.now - actor.timers.action_started)
            state["thinking_ms"] = int(thinking * 1000)
            if actor.timers.time_called:  # the Time called on him, and by whom (cdc 3.5)
                state["time_called"] = {
                    "by": actor.timers.time_caller,
                    "countdown_ms": actor.profile.time_countdown * 1000,
                }
        _draw_view(state, hand, seat, game)
        menu = hand.menu()
        if menu is not None:
            state["to_act"] = int(menu.player)
            if seat is not None and int(menu.player) == seat:
                state["menu"] = {
                    "call": menu.call,
                    "can_check": menu.can_check,
                    "can_fold": menu.can_fold,
                    "can_raise": menu.can_raise,
                    "min_raise_to": menu.min_raise_to,
                    "max_raise_to": menu.max_raise_to,
                    "pending": menu.pending,
                }
    return state


def _game_view(state: dict[str, Any], actor: TableCore) -> Game:
    """The game and structure a table deals, in its state unless no-limit hold'em (whose
    snapshots stay as they were)."""
    game, structure = game_terms(actor)
    if game is not Game.HOLDEM or structure is not Structure.NO_LIMIT:
        state["game"] = game.value
        state["structure"] = structure.value
    return game


def _draw_view(state: dict[str, Any], hand: Hand, seat: int | None, game: Game) -> None:
    """Five-card draw: the draws made so far (public counts), whose turn it is to draw, and
    for that player only his draw's menu (his cards are in ``hole``, as they are now)."""
    if game is not Game.DRAW:
        return
    state["drew"] = {e.player: e.count for e in hand.events if isinstance(e, ev.Drew)}
    drawing = hand.draw_menu()
    if drawing is None:
        return
    state["drawing"] = int(drawing.player)
    if seat is not None and int(drawing.player) == seat:
        state["menu"] = {
            "draw": True,
            "max_discard": drawing.max_discard,
            "cards": [card_name(c) for c in hand.hole[hand.index[drawing.player]]],
        }


def pots_view(hand: Hand) -> list[dict[str, Any]]:
    """The pots as sent in snapshots and ``board`` events: :func:`pot_views` as JSON."""
    return [p.payload() for p in pot_views(hand)]


def pot_views(hand: Hand) -> tuple[PotView, ...]:
    """The pots as sent (``board`` events, snapshots): the engine's pots of the chips gathered
    in the middle, main pot first, ``{"amount", "eligible": [seats]}``. The bets of the
    round being played stay in front of the players (``bets``) until it ends, as at a live
    table: the pots are those of the last gathering, less the seats folded since, and
    ``pots`` + ``bets`` hold every chip of ``pot_total``. A side pot exists only when
    someone is all-in (cdc 10.7, tda 20)."""
    if hand.awarded or not any(hand.committed):
        pots = hand.pots()
    else:
        # the engine's layering (its own code, never a copy of it) of the chips put in
        # before this round: the contributions less the round's bets, for the time of a call
        contrib, unwinnable = hand.contrib, hand.unwinnable
        hand.contrib = [c - b for c, b in zip(contrib, hand.committed, strict=True)]
        try:
            pots = hand.pots()
        finally:
            hand.contrib, hand.unwinnable = contrib, unwinnable
    return tuple(PotView(amount=p.amount, eligible=tuple(int(x) for x in p.eligible)) for p in pots)


def _phase(phase: TablePhase) -> str:
    """The phase as clients know it: held for hand-for-hand is still betting to them, and
    awaiting the director is waiting."""
    if phase is TablePhase.HELD:
        return TablePhase.BETTING.value
    if phase is TablePhase.AWAITING_DIRECTOR:
        return TablePhase.WAITING.value
    return phase.value
