"""Benchmark: complete random 6-handed hands per second, our engine vs PokerKit 0.7.7.

Both engines play the same hands (same set-ups, cards and random action streams, from
``tests/engine/randomhands.py``), one after the other in this process, on one core. Set-up
generation is not timed; building the hand, playing it to the end and settling it is.

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

from tests.engine.randomhands import (
    RandomSetup,
    play_engine,
    play_pokerkit,
    random_setup,
)

PLAYERS = 6
WARMUP = 100


def time_engine(hands: list[RandomSetup], seed: int, profile: str) -> float:
    start = time.perf_counter()
    for k, rs in enumerate(hands):
        play_engine(rs, seed + k, profile)
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

    warnings.simplefilter("ignore")  # PokerKit warns on some dealing paths
    time_engine(warm, 0, args.profile)
    time_pokerkit(warm, 0)

    ours = args.hands / time_engine(hands[: args.hands], args.seed, args.profile)
    theirs = args.pokerkit_hands / time_pokerkit(hands[: args.pokerkit_hands], args.seed)
    print(f"players: {PLAYERS}, profile: {args.profile}, seed: {args.seed}")
    print(f"brasseur engine: {ours:,.0f} hands/s ({args.hands} hands)")
    print(f"pokerkit 0.7.7:  {theirs:,.0f} hands/s ({args.pokerkit_hands} hands)")
    print(f"engine_vs_pokerkit: {ours / theirs:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
