"""Benchmark: a 10,000-player tournament to a single winner, in-process, on a simulated clock.

    python bench/tournament.py [--players 10000] [--seed 1] [--config docs/tournaments/X.toml]

The pure :class:`~server.tournament.director.Director` is driven exactly as
:class:`~server.tournament.simulation.Simulation` drives it (register..., start, ready -> Deal /
Wait / ChipRace, hand_ended, tick at ``next_deadline``, every decision applied: moves, table
breaks, final table, chip races, eliminations; tables interleaved by their own simulated time
through a heap), with the simulation's checks on (positions, seats, balancing gap, no big
blind skipped, hand-for-hand barrier, chips conserved at every hand end). The difference: every
hand is a real :class:`~server.engine.Hand` (the Deal's seats, stacks, button and pinned big
blind, the level's blinds and ante, cards from a seeded shuffle, the denominations still in
play) played to the end by a bot that picks random legal decisions from ``hand.menu()`` with
some all-in aggression (more when short-stacked), so the field shrinks. The report to the
director (stacks per seat, busts with their start stacks, eliminators = winners of the pot
that took the last chips) comes from the engine. A hand takes 60-120 s of tournament time
(90 s on average).

Reported: wall time, hands, peak memory (``ru_maxrss``), the time spent inside director calls
per hand (mean and the slowest call), the engine's time, tables at the start and the winner.
The last line reads ``tournament_10k: W s H hands M MiB``.
"""

from __future__ import annotations

import argparse
import dataclasses
import random
import resource
import sys
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from server.engine import Act, Hand, HandSetup, Phase, Profile, Say, SeatSetup, Verb, load_profile
from server.tournament import (
    Bust,
    ChipRace,
    Deal,
    Decision,
    Director,
    HandEnded,
    TableAssignment,
    TournamentConfig,
)
from server.tournament.simulation import FakeTable, Simulation, SimulationError

T = TypeVar("T")
ROOT = Path(__file__).resolve().parents[1]
DEFAULT_CONFIG = ROOT / "docs" / "tournaments" / "tour_des_potes_classic_ante.toml"
HAND_SECONDS = (60.0, 120.0)

SHOVE = 0.01
"""Chance to move all-in at a decision where raising is allowed (deep stack)."""
SHOVE_SHORT = 0.3
"""The same with 10 big blinds or less."""
BET = 0.15
"""Chance to bet or raise the minimum otherwise."""
FOLD = 0.45
"""Chance to fold facing a bet that does not put the player all-in."""
CALL_ALLIN = 0.2
"""Chance to call a bet that puts the player all-in (deep stack)."""
CALL_ALLIN_SHORT = 0.6


# ---------------------------------------------------------------------------- timing


class TimedDirector(Director):
    """The director, with the wall time of every public call recorded (nested calls once)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.seconds = 0.0
        self.calls = 0
        self.slowest = 0.0
        self.slowest_call = ""
        self._depth = 0

    def _timed(self, name: str, fn: Callable[..., T], *args: Any) -> T:
        if self._depth:
            return fn(*args)
        self._depth = 1
        start = time.perf_counter()
        try:
            return fn(*args)
        finally:
            spent = time.perf_counter() - start
            self._depth = 0
            self.seconds += spent
            self.calls += 1
            if spent > self.slowest:
                self.slowest, self.slowest_call = spent, name

    def reset(self) -> None:
        self.seconds = self.slowest = 0.0
        self.calls = 0
        self.slowest_call = ""

    def register(self, player_id: str, name: str, now: float) -> list[Decision]:
        return self._timed("register", super().register, player_id, name, now)

    def start(self, now: float) -> list[Decision]:
        return self._timed("start", super().start, now)

    def ready(self, table_id: int, now: float) -> list[Decision]:
        return self._timed("ready", super().ready, table_id, now)

    def hand_ended(self, report: HandEnded, now: float) -> list[Decision]:
        return self._timed("hand_ended", super().hand_ended, report, now)

    def allin_showdown(self, table_id: int, now: float) -> list[Decision]:
        return self._timed("allin_showdown", super().allin_showdown, table_id, now)

    def tick(self, now: float) -> list[Decision]:
        return self._timed("tick", super().tick, now)

    def next_deadline(self) -> float | None:
        return self._timed("next_deadline", super().next_deadline)


# ---------------------------------------------------------------------------- the bot


_FOLD = Say(verb=Verb.FOLD)
_CHECK = Say(verb=Verb.CHECK)
_CALL = Say(verb=Verb.CALL)


def bot_say(hand: Hand, rng: random.Random) -> tuple[str, Say] | None:
    """A random legal decision for the player to act (None: no betting decision awaited)."""
    menu = hand.menu()
    if menu is None:
        return None
    if menu.pending == "amount":
        return menu.player, Say(verb=Verb.RAISE, amount=menu.min_raise_to)
    i = hand.index[menu.player]
    short = hand.stack[i] + hand.committed[i] <= 10 * hand.bb
    r = rng.random()
    if menu.can_raise and r < (SHOVE_SHORT if short else SHOVE):
        return menu.player, Say(verb=Verb.RAISE, amount=menu.max_raise_to)
    if menu.call > 0:
        if menu.call >= hand.stack[i]:  # calling puts him all-in
            if rng.random() < (CALL_ALLIN_SHORT if short else CALL_ALLIN) or not menu.can_fold:
                return menu.player, _CALL
            return menu.player, _FOLD
        if menu.can_fold and rng.random() < FOLD:
            return menu.player, _FOLD
        if menu.can_raise and rng.random() < BET:
            return menu.player, Say(verb=Verb.RAISE, amount=menu.min_raise_to)
        return menu.player, _CALL
    if menu.can_raise and rng.random() < BET:
        return menu.player, Say(verb=Verb.RAISE, amount=menu.min_raise_to)
    return menu.player, _CHECK


# ---------------------------------------------------------------------------- tables


@dataclass(slots=True)
class EngineStats:
    profile: Profile
    config: TournamentConfig
    hands: int = 0
    seconds: float = 0.0
    actions: int = 0
    showdowns: int = 0
    allin_showdowns: int = 0
    busts: int = 0
    players_dealt: Counter[int] = field(default_factory=Counter)


@dataclass(slots=True, eq=False)
class EngineTable(FakeTable):
    """A simulation table whose hands are played by the rules engine."""

    engine: EngineStats | None = None

    def play(
        self, deal: Deal, stacks: dict[str, int], rng: random.Random
    ) -> tuple[HandEnded, bool]:
        """Play the dealt hand to the end at once; returns the report and whether the hand
        ended in an all-in showdown during hand-for-hand (hands held face down, cdc 2.7)."""
        st = self.engine
        assert st is not None
        seats = self.seats
        dealt = self.begin(deal)
        pos = deal.positions
        if len(dealt) < 2:
            raise SimulationError(
                f"table {self.table_id} hand {deal.hand_no}: {len(dealt)} player(s) dealt in "
                f"({seats}, {pos})"
            )
        names = [seats[s] for s in dealt]
        start = {p: stacks[p] for p in names}
        deck = rng.sample(range(52), 2 * len(names) + 5)
        began = time.perf_counter()
        hand = Hand(
            HandSetup(
                profile=st.profile,
                # fpc 17-3/17-4: a hand without small blind, though a player sits before the BB
                blinds=deal.blinds if pos.small_blind else dataclasses.replace(deal.blinds, sb=0),
                seats=tuple(
                    SeatSetup(player=seats[s], seat=s, stack=stacks[seats[s]]) for s in dealt
                ),
                button=pos.button,
                big_blind=pos.big_blind,
                hole={p: (deck[2 * k], deck[2 * k + 1]) for k, p in enumerate(names)},
                board=tuple(deck[2 * len(names) :]),
                denominations=st.config.denominations_at(deal.level_index),
            )
        )
        while (choice := bot_say(hand, rng)) is not None:
            player, say = choice
            hand.act(Act(player=player, say=say))
            st.actions += 1
        allin_showdown = hand.face_up
        if hand.phase is Phase.SHOWDOWN:
            st.showdowns += 1
            hand.auto_showdown()
        if hand.phase is not Phase.FINISHED:
            raise SimulationError(f"table {self.table_id}: hand stuck in {hand.phase}")
        after = hand.stacks()
        st.seconds += time.perf_counter() - began
        st.hands += 1
        st.allin_showdowns += allin_showdown
        st.players_dealt[len(names)] += 1
        if sum(after.values()) != sum(start.values()):
            raise SimulationError(
                f"table {self.table_id} hand {deal.hand_no}: {sum(start.values())} chips dealt "
                f"in, {sum(after.values())} after"
            )
        stacks.update(after)
        pots = hand.pots()
        busts = []
        for s in dealt:
            p = seats[s]
            if after[p]:
                continue
            mine = [pot for pot in pots if p in pot.eligible]
            by = mine[-1].winners if mine else tuple(w for pot in pots for w in pot.winners)
            busts.append(Bust(player_id=p, seat=s, start_stack=start[p], eliminated_by=by))
        st.busts += len(busts)
        report = HandEnded(
            table_id=self.table_id,
            hand_no=deal.hand_no,
            positions=pos,
            stacks={s: (p, stacks[p]) for s, p in seats.items() if stacks[p] > 0},
            busts=tuple(busts),
        )
        return report, allin_showdown and deal.hand_for_hand


class EngineSimulation(Simulation):
    """:class:`Simulation` with engine tables and a timed director."""

    def __init__(
        self,
        config: TournamentConfig,
        players: int,
        *,
        seed: int = 1,
        hand_seconds: tuple[float, float] = HAND_SECONDS,
    ) -> None:
        super().__init__(config, players, seed=seed, check=True, hand_seconds=hand_seconds)
        self.director: TimedDirector = TimedDirector(config, random.Random(seed + 1), now=0.0)
        self.engine = EngineStats(profile=load_profile(config.profile), config=config)
        self.tables_at_start = 0
        self.race_delta = 0
        self.chip_checks = 0
        self.setup_seconds = 0.0

    def _open(self, a: TableAssignment) -> None:
        t = EngineTable(
            table_id=a.table_id,
            max_seats=a.max_seats,
            seats=dict(a.seats),
            engine=self.engine,
            missing_blind=self.director.missing_blind,  # fpc 17-3/17-4, else the dead button
        )
        t.button = a.button
        self.tables[a.table_id] = t
        for pid, stack in a.stacks.items():
            if pid not in self.stacks:
                self.stacks[pid] = stack
                self.expected_chips += stack
        if self.trace.hands == 0:
            self.tables_at_start += 1
        self._push(self.now + 1.0, "ready", a.table_id)

    def _apply(self, dec: Decision) -> None:
        if isinstance(dec, ChipRace):
            self.race_delta += sum(x.stack_after - x.stack_before for x in dec.lines)
        super()._apply(dec)
        if isinstance(dec, Deal) and self.trace.hands == 1:
            # the first hand: registration and the start's draw are behind us
            self.setup_seconds = self.director.seconds
            self.director.reset()

    def _check_chips(self) -> None:
        super()._check_chips()  # sum of every stack == the chips that entered play
        self.chip_checks += 1
        entries = self.director.entries
        base = entries * self.config.starting_stack
        if self.expected_chips != base + self.race_delta:
            raise SimulationError(
                f"chips: {self.expected_chips} expected, {entries} x "
                f"{self.config.starting_stack} {self.race_delta:+} (chip races)"
            )


# ---------------------------------------------------------------------------- running


@dataclass(slots=True)
class Report:
    players: int
    seed: int
    config: str
    wall: float
    hands: int
    peak_mib: int
    tables_at_start: int
    winner: str
    winner_stack: int
    total_chips: int
    chip_checks: int
    director_us_per_hand: float
    director_max_ms: float
    director_max_call: str
    director_setup_s: float
    engine_s: float
    sim: EngineSimulation

    def lines(self) -> list[str]:
        sim = self.sim
        tr, st, d = sim.trace, sim.engine, sim.director
        dealt = ", ".join(f"{k}:{v}" for k, v in sorted(st.players_dealt.items()))
        return [
            f"config: {self.config} ({sim.config.profile}, table size {sim.config.table_size}, "
            f"stack {sim.config.starting_stack}); players: {self.players}; seed: {self.seed}",
            f"tables at start: {self.tables_at_start}",
            f"hands: {self.hands} (hand-for-hand {tr.hand_for_hand_hands}, all-in showdowns "
            f"held {tr.holds}); actions: "
            f"{st.actions}; showdowns: {st.showdowns} (all-in {st.allin_showdowns})",
            f"players dealt in per hand: {dealt}",
            f"moves: {tr.moves}; tables broken: {tr.breaks}; chip races: {tr.chip_races} "
            f"({sim.race_delta:+} chips); eliminated: {len(tr.eliminated)}; hand-for-hand "
            f"periods: {len(tr.hand_for_hand_on)}",
            f"checks: chips conserved at {self.chip_checks} hand ends; gap violations "
            f"{tr.gap_violations} (max gap at a deal {tr.max_gap_at_deal}); big blinds skipped "
            f"after a move {tr.moved_skips}, after a break {tr.break_skips}",
            f"tournament time: {sim.now / 3600:.1f} h, last level index {tr.level_at_end}",
            f"director: {self.director_us_per_hand:.0f} us per hand ({d.calls} calls after the "
            f"start), slowest call {self.director_max_ms:.1f} ms ({self.director_max_call}); "
            f"registration + start {self.director_setup_s:.2f} s",
            f"engine: {self.engine_s:.1f} s ({self.hands / max(self.engine_s, 1e-9):,.0f} hands/s)",
            f"winner: {self.winner} with {self.winner_stack} chips (all {self.total_chips})",
            f"wall: {self.wall:.1f} s; peak memory: {self.peak_mib} MiB",
            f"tournament_10k: {self.wall:.1f} s {self.hands} hands {self.peak_mib} MiB",
        ]


def run(players: int, seed: int, config_path: Path | str = DEFAULT_CONFIG) -> Report:
    config = TournamentConfig.load(config_path)
    if config.max_entries and players > config.max_entries:
        raise SystemExit(f"{config_path}: at most {config.max_entries} entries")
    began = time.perf_counter()
    sim = EngineSimulation(config, players, seed=seed)
    tr = sim.run()
    wall = time.perf_counter() - began
    assert tr.finished is not None
    winner = tr.finished.results[0]
    alive = [p for p, n in sim.stacks.items() if n > 0]
    if alive != [winner.player_id] or len(tr.finished.results) != players:
        raise SimulationError(f"winner {winner.player_id}, players with chips {alive[:5]}")
    d = sim.director
    hands = tr.hands
    return Report(
        players=players,
        seed=seed,
        config=str(config_path),
        wall=wall,
        hands=hands,
        peak_mib=resource.getrusage(resource.RUSAGE_SELF).ru_maxrss // 1024,
        tables_at_start=sim.tables_at_start,
        winner=winner.player_id,
        winner_stack=sim.stacks[winner.player_id],
        total_chips=sim.expected_chips,
        chip_checks=sim.chip_checks,
        director_us_per_hand=d.seconds / max(hands, 1) * 1e6,
        director_max_ms=d.slowest * 1e3,
        director_max_call=d.slowest_call,
        director_setup_s=sim.setup_seconds,
        engine_s=sim.engine.seconds,
        sim=sim,
    )


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--config", default=str(DEFAULT_CONFIG), help="a tournament TOML")
    args = parser.parse_args(argv)
    report = run(args.players, args.seed, args.config)
    for line in report.lines():
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
