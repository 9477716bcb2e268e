"""Fisher–Yates: a permutation, driven only by the injected source, uniform."""

from __future__ import annotations

import itertools
import random
from collections import Counter
from collections.abc import Callable

import pytest

from server.dealing import shuffle, shuffled_deck


def test_default_source_gives_a_permutation_of_the_deck() -> None:
    for _ in range(20):
        deck = shuffled_deck()
        assert sorted(deck) == list(range(52))


def test_the_injected_source_is_called_with_n_down_to_2() -> None:
    calls: list[int] = []

    def source(n: int) -> int:
        calls.append(n)
        return 0

    shuffle(range(52), randbelow=source)
    assert calls == list(range(52, 1, -1))


def test_a_fixed_source_gives_a_known_order() -> None:
    # randbelow -> 0: i=3 swaps with 0 -> [3,1,2,0]; i=2 -> [2,1,3,0]; i=1 -> [1,2,3,0].
    assert shuffle([0, 1, 2, 3], randbelow=lambda n: 0) == [1, 2, 3, 0]
    # randbelow -> n-1 (j = i): every swap is a no-op.
    assert shuffle(range(52), randbelow=lambda n: n - 1) == list(range(52))
    # All-zero source on the full deck: rotates left by one.
    assert shuffled_deck(randbelow=lambda n: 0) == [*range(1, 52), 0]


def test_same_source_same_deck() -> None:
    a = shuffled_deck(randbelow=random.Random(7).randrange)
    b = shuffled_deck(randbelow=random.Random(7).randrange)
    assert a == b and sorted(a) == list(range(52))


@pytest.mark.parametrize("source", [lambda n: -1, lambda n: n])
def test_a_source_out_of_range_is_refused(source: Callable[[int], int]) -> None:
    with pytest.raises(ValueError, match="randbelow"):
        shuffle(range(52), randbelow=source)


def test_all_orders_of_four_cards_are_equally_likely() -> None:
    # Chi-square over the 24 permutations; a seeded source keeps the test deterministic
    # (it checks the algorithm, e.g. the classic randbelow(n)-instead-of-(i+1) bias).
    rng = random.Random(20240601)
    trials = 24_000
    counts = Counter(tuple(shuffle(range(4), randbelow=rng.randrange)) for _ in range(trials))
    assert set(counts) == set(itertools.permutations(range(4)))
    expected = trials / 24
    chi2 = sum((c - expected) ** 2 / expected for c in counts.values())
    assert chi2 < 70  # 23 degrees of freedom: p < 1e-6 above 70


def test_every_card_reaches_every_position() -> None:
    rng = random.Random(3)
    seen: list[set[int]] = [set() for _ in range(52)]
    for _ in range(2_000):
        for position, card in enumerate(shuffled_deck(randbelow=rng.randrange)):
            seen[position].add(card)
    assert all(len(cards) == 52 for cards in seen)
