"""Draw hands dealt from a committed deck (server.dealing.DrawDeal) and played by the engine
directly, then recorded and signed: shared by the draw tests of dealing, protocol and store."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from server.dealing import DrawDeal, Signer, draws_of
from server.engine import (
    Act,
    Blinds,
    Draw,
    Hand,
    Phase,
    Say,
    SeatSetup,
    Structure,
    Verb,
    load_profile,
)
from server.engine.events import (
    Acted,
    Drew,
    FaceUp,
    Mucked,
    Posted,
    PotAwarded,
    Returned,
    Shown,
)

SIGNER = Signer.generate()


@dataclass
class Played:
    deal: DrawDeal
    hand: Hand
    seat_of: dict[str, int]
    record: dict[str, Any]


def shown_seats(hand: Hand, seat_of: dict[str, int]) -> list[int]:
    """The seats whose five cards were shown: at the showdown, or face up after the draw."""
    seats: list[int] = []
    for event in hand.events:
        if isinstance(event, Shown):
            seats.append(seat_of[event.player])
        elif isinstance(event, FaceUp):
            seats.extend(seat_of[name] for name, _ in event.hands)
    return list(dict.fromkeys(seats))


def play(
    seed: int,
    players: int = 3,
    *,
    cut: int | None = None,
    discards: list[int] | None = None,
    fold_rate: float = 0.1,
    allin_rate: float = 0.0,
    stack: int = 5000,
) -> Played:
    """A draw hand of ``players`` on seats 1..n, button on seat 1, the deck and seed from
    ``random.Random(seed)``; each player calls or checks (or folds now and then), and at
    the draw discards ``discards[k]`` cards (the k-th drawer; random counts if None); with
    ``allin_rate``, a player who may raise goes all-in now and then."""
    rng = random.Random(seed)
    seats = list(range(1, players + 1))
    order = seats[1:] + seats[:1]  # first left of the button (seat 1)
    deal = DrawDeal.shuffled(order, randbelow=rng.randrange, token_bytes=rng.randbytes)
    deal.cut(rng.randrange(1000) if cut is None else cut)
    names = {s: f"p{s}" for s in seats}
    seat_of = {name: s for s, name in names.items()}
    setup = deal.hand_setup(
        names,
        profile=load_profile("fpc"),
        blinds=Blinds(sb=50, bb=100),
        seats=tuple(SeatSetup(player=names[s], seat=s, stack=stack) for s in seats),
        button=1,
        structure=Structure.NO_LIMIT,
    )
    hand = Hand(setup)
    drawn = 0
    for _ in range(500):
        if hand.phase in (Phase.FINISHED, Phase.CANCELLED):
            break
        draw_menu = hand.draw_menu()
        if draw_menu is not None:
            held = hand.hole[hand.index[draw_menu.player]]
            count = discards[drawn] if discards is not None else rng.randint(0, 5)
            hand.draw(Draw(player=draw_menu.player, discard=tuple(rng.sample(held, count))))
            drawn += 1
            continue
        menu = hand.menu()
        if menu is not None:
            if menu.can_fold and rng.random() < fold_rate:
                verb = Verb.FOLD
            elif menu.can_raise and rng.random() < allin_rate:
                verb = Verb.ALLIN
            else:
                verb = Verb.CHECK if menu.can_check else Verb.CALL
            hand.act(Act(player=menu.player, say=Say(verb=verb)))
            continue
        hand.auto_showdown()
    assert hand.phase is Phase.FINISHED, hand.phase
    fields = deal.fairness(draws_of(hand.events, seat_of), shown_seats(hand, seat_of))
    record = SIGNER.sign_record({"table": "draw-1", "hand": 1, "profile": "fpc", **fields})
    return Played(deal=deal, hand=hand, seat_of=seat_of, record=record)


def resign(record: dict[str, Any]) -> dict[str, Any]:
    """``record`` signed again as it is: a lying server signs its own lies."""
    return SIGNER.sign_record(record)


def table_record(played: Played) -> dict[str, Any]:
    """The whole record of a played draw hand, signed: the table's fields as the table will
    write them (actions of street ``preflop`` then ``draw``, pots, final stacks) and the
    fairness fields."""
    hand, seat_of = played.hand, played.seat_of
    posts = {"small_blind": "post_sb", "big_blind": "post_bb", "ante": "post_ante"}
    street, actions, pots, returned, mucked = "preflop", [], [], [], []
    for e in hand.events:
        if isinstance(e, Drew):
            street = "draw"
        elif isinstance(e, Posted):
            actions.append(
                {"street": street, "seat": seat_of[e.player], "name": e.player,
                 "action": posts[e.kind.value], "to": e.amount, "added": e.amount,
                 "allin": e.allin}
            )  # fmt: skip
        elif isinstance(e, Acted):
            actions.append(
                {"street": street, "seat": seat_of[e.player], "name": e.player,
                 "action": e.action, "to": e.to, "added": e.added, "allin": e.allin}
            )  # fmt: skip
        elif isinstance(e, PotAwarded):
            pots.append(
                {"amount": e.amount, "winners": [seat_of[w] for w in e.winners],
                 "shares": [[seat_of[w], s] for w, s in e.shares], "index": e.index}
            )  # fmt: skip
        elif isinstance(e, Returned):
            returned.append({"seat": seat_of[e.player], "name": e.player, "amount": e.amount})
        elif isinstance(e, Mucked):
            mucked.append(seat_of[e.player])
    players = [{"seat": s.seat, "name": s.player, "stack": s.stack} for s in hand.setup.seats]
    final = {str(seat_of[name]): chips for name, chips in hand.stacks().items()}
    return resign(
        {
            **played.record,
            "table_name": "Draw club",
            "started_at": "2026-11-27T20:00:00Z",
            "blinds": {"sb": 50, "bb": 100},
            "max_seats": 9,
            "button": 1,
            "players": players,
            "actions": actions,
            "returned": returned,
            "mucked": mucked,
            "pots": pots,
            "final_stacks": final,
        }
    )
