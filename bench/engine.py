"""Benchmark: complete random 6-handed hands per second, our engine vs PokerKit 0.7.7.

Both engines play the same hands (same set-ups, cards and random action streams, from
``tests/engine/randomhands.py``), one after the other in this process, on one core. Set-up
generation is not timed; building the hand, playing it to the end and settling it is.

Our engine also plays as many five-card draw hands (issue 31: the same set-ups with five cards
each, the same action streams, random discards of 0 to 5 cards), no limit: ``brasseur draw``
is its hands/s and ``draw_vs_holdem`` divides it by hold'em's.

    python bench/engine.py [--hands 2000] [--pokerkit-hands 500] [--profile tda]

The last line is ``engine_vs_pokerkit: R``: our hands/s divided by PokerKit's.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import warnings
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from server.engine import Draw, Game, Hand, HandSetup, Phase
from tests.engine.randomhands import (
    ActionStream,
    RandomSetup,
    engine_act,
    engine_view,
    play_engine,
    play_pokerkit,
    positions,
    random_setup,
)

PLAYERS = 6
WARMUP = 100


def time_engine(hands: list[RandomSetup], seed: int, profile: str) -> float:
    start = time.perf_counter()
    for k, rs in enumerate(hands):
        play_engine(rs, seed + k, profile)
    return time.perf_counter() - start


def draw_setup(rs: RandomSetup, rng: random.Random, profile: str) -> HandSetup:
    """The hand of ``rs`` as five-card draw: five cards each, a burn card, the rest the stub."""
    base = rs.engine_setup(profile)
    deck = rng.sample(range(52), 52)
    names = rs.names
    return HandSetup(
        profile=base.profile,
        blinds=base.blinds,
        seats=base.seats,
        button=base.button,
        hole={names[k]: tuple(deck[5 * k : 5 * k + 5]) for k in range(rs.n)},
        board=(),
        denominations=base.denominations,
        game=Game.DRAW,
        stub=tuple(deck[5 * rs.n + 1 :]),
        burn=deck[5 * rs.n],
        reshuffle=tuple(rng.sample(range(52), 52)),
    )


def play_draw(setup: HandSetup, rs: RandomSetup, seed: int) -> Hand:
    """Play a draw hand to the end: bets from ``ActionStream(seed)``, discards at random."""
    hand = Hand(setup)
    stream = ActionStream(seed)
    discards = random.Random(seed)
    pos = positions(rs)
    while True:
        drawing = hand.draw_menu()
        if drawing is not None:
            held = hand.hole[hand.index[drawing.player]]
            count = discards.randint(0, drawing.max_discard)
            hand.draw(Draw(player=drawing.player, discard=tuple(discards.sample(held, count))))
            continue
        menu = hand.menu()
        if menu is None:
            if hand.phase is Phase.SHOWDOWN:
                hand.auto_showdown()
            return hand
        engine_act(hand, menu, stream.next(engine_view(hand, menu, pos)))


def time_draw(hands: list[tuple[HandSetup, RandomSetup]], seed: int) -> float:
    start = time.perf_counter()
    for k, (setup, rs) in enumerate(hands):
        play_draw(setup, rs, seed + k)
    return time.perf_counter() - start


def time_pokerkit(hands: list[RandomSetup], seed: int) -> float:
    start = time.perf_counter()
    for k, rs in enumerate(hands):
        play_pokerkit(rs, seed + k)
    return time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="hands for our engine")
    parser.add_argument("--pokerkit-hands", type=int, default=500, help="hands for PokerKit")
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--profile", default="tda")
    args = parser.parse_args(argv)

    rng = random.Random(args.seed)
    count = max(args.hands, args.pokerkit_hands)
    hands = [random_setup(rng, players=PLAYERS) for _ in range(count)]
    warm = [random_setup(rng, players=PLAYERS) for _ in range(WARMUP)]

    draw_rng = random.Random(args.seed + 1)
    draws = [(draw_setup(rs, draw_rng, args.profile), rs) for rs in hands[: args.hands]]
    warm_draws = [(draw_setup(rs, draw_rng, args.profile), rs) for rs in warm]

    warnings.simplefilter("ignore")  # PokerKit warns on some dealing paths
    time_engine(warm, 0, args.profile)
    time_pokerkit(warm, 0)
    time_draw(warm_draws, 0)

    ours = args.hands / time_engine(hands[: args.hands], args.seed, args.profile)
    theirs = args.pokerkit_hands / time_pokerkit(hands[: args.pokerkit_hands], args.seed)
    draw = args.hands / time_draw(draws, args.seed)
    print(f"players: {PLAYERS}, profile: {args.profile}, seed: {args.seed}")
    print(f"brasseur engine: {ours:,.0f} hands/s ({args.hands} hands)")
    print(f"pokerkit 0.7.7:  {theirs:,.0f} hands/s ({args.pokerkit_hands} hands)")
    print(f"brasseur draw:   {draw:,.0f} hands/s ({args.hands} five-card draw hands)")
    print(f"draw_vs_holdem: {draw / ours:.2f}")
    print(f"engine_vs_pokerkit: {ours / theirs:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
