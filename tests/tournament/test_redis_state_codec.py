"""The director's state in Redis without pickle (issue 11): versioned, schema-checked msgpack.

A real tournament's state goes through exactly (the same bytes once loaded and dumped again)
at many points of several tournaments, and the director goes on from the loaded state as from
the original; a state of another version or schema, a pickle, an unregistered class are
refused with a message saying what to do, without running anything from the data."""

from __future__ import annotations

import ast
import dataclasses
import heapq
import itertools
import math
import os
import pickle  # only to make the blob of an older server
import random
import subprocess
import sys
import types
import typing
from collections.abc import Iterator
from enum import Enum
from pathlib import Path
from typing import Any

import msgpack
import pytest

from server.tournament import Rebought, Registered, redis_state, statecodec
from server.tournament.config import TournamentConfig
from server.tournament.coordinator import DirectorLoop, tournament_state
from server.tournament.decisions import Decision, Instruction, RefusalReason
from server.tournament.director import Director
from server.tournament.live import load_tournament
from server.tournament.redis_state import (
    CODEC,
    Directing,
    StateEncodeError,
    StateError,
    StateVersionError,
    decision_batch,
    dump,
    load,
)
from server.tournament.rules import TournamentRules
from server.tournament.simulation import Simulation, SimulationError
from server.tournament.statecodec import Codec

from .helpers import config, deal, end, one, players, started
from .test_simulation import LEVELS, PAYOUTS

ROOT = Path(__file__).resolve().parents[2]
CONFIG_FILES = sorted((ROOT / "docs" / "tournaments").glob("*.toml")) + sorted(
    (ROOT / "tests" / "tournament" / "configs").glob("*.toml")
)
BOUNTIES: list[dict[str, Any]] = [
    {"kind": "bounty", "players": ["p00003"], "chips": 10000, "plus_blind": "bb"},
    {"kind": "kill_the_pvs", "players": ["p00004", "p00005"], "chips": 2500, "plus_blind": "sb"},
]


def sim_config(profile: str = "cdc", **kw: Any) -> TournamentConfig:
    """test_simulation's structure: breaks, chip races, payouts, points, bounties."""
    data: dict[str, Any] = {
        "name": "sim",
        "profile": profile,
        "starting_stack": 10000,
        "denominations": [25, 100, 500, 1000, 5000],
        "table_size": 9,
        "late_registration_until_level": 0,
        "buy_in": 1000,
        "levels": LEVELS,
        "payouts": PAYOUTS,
        "points": {"scheme": "tour_des_potes"},
        "bounties": BOUNTIES,
    }
    data.update(kw)
    return TournamentConfig.from_dict(data)


def round_trip(st: Directing, cfg: TournamentConfig) -> tuple[bytes, Directing]:
    """Dump, load, dump again: the same bytes (nothing lost, nothing changed)."""
    blob = dump(st, cfg, st.loop.director._rng)
    back = load(blob, cfg)
    assert isinstance(back, Directing)
    assert dump(back, cfg, back.loop.director._rng) == blob
    return blob, back


def envelope(blob: bytes) -> dict[str, Any]:
    env = msgpack.unpackb(blob, raw=False)
    assert isinstance(env, dict)
    return env


def repack(env: dict[str, Any]) -> bytes:
    return bytes(msgpack.packb(env, use_bin_type=True))


def console_loop(cfg: TournamentConfig | None = None) -> DirectorLoop:
    """Twenty players at two tables, a hand dealt at table 1, console actions queued."""
    cfg = cfg or config(
        table_size=10,
        late_registration_until_level=2,
        rebuy={"until_level": 2, "max": 2, "stack": 5000, "price": 10},
        reentry={"until_level": 2, "max": 1},
    )
    loop = DirectorLoop(Director(cfg, random.Random(4), now=0.0))
    for p in players(20):
        loop.handle("register", {"player": p, "name": p.upper()}, 0.0)
    loop.handle("start", {}, 0.0)
    loop.handle("ready", {"table": 1}, 1.0)
    seated = loop.director.seating(1)
    a, b = seated[min(seated)], seated[max(seated)]
    loop.handle("adjust", {"player": a, "stack": 9000, "reason": "miscount"}, 2.0)
    loop.handle("move", {"player": b, "table": 2, "seat": 10}, 2.0)
    loop.handle("call", {"player": a, "hand": 1, "text": "string bet"}, 3.0)
    loop.handle("warn", {"player": b, "text": "language"}, 3.0)
    loop.handle("pause", {}, 4.0)
    return loop


# ---------------------------------------------------------------------- round trip, no pickle


def test_the_state_is_plain_msgpack_in_a_versioned_envelope() -> None:
    loop = console_loop()
    st = Directing(loop, last_report="12-3", directory={1: "a", 2: "b"}, adopting={2: "b"})
    cfg = loop.director.config
    blob, back = round_trip(st, cfg)
    assert blob[:1] != b"\x80" and not blob.startswith(b"\x80\x05")  # no pickle header
    env = envelope(blob)  # any msgpack reader can read it
    assert env["format"] == "brasseur-director-state" and env["version"] == 1
    assert env["schema"] == CODEC.schema and len(CODEC.schema) == 16
    d, bd = loop.director, back.loop.director
    assert bd.config is cfg and bd.rules is cfg.rules and bd.clock.levels is cfg.levels
    assert type(bd._rng) is random.SystemRandom  # a new random source, never stored
    assert back.directory == {1: "a", 2: "b"} and back.adopting == {2: "b"}
    assert back.last_report == "12-3"
    assert bd.table_counts() == d.table_counts() and bd.busy(1) and not bd.busy(2)
    assert back.loop.adjust == loop.adjust and back.loop.moves == loop.moves
    assert back.loop.calls == loop.calls and back.loop.log == loop.log
    assert bd.paused and bd.phase is d.phase
    # an entry is one object, in the dict and in the list (identity kept)
    assert all(e is bd._entries[e.player_id] for e in bd._all)


@dataclasses.dataclass(eq=False)
class _Node:
    name: str
    links: list[_Node]


def test_the_codec_keeps_every_container_type_and_the_identity_of_mutable_objects() -> None:
    codec = Codec(format="f", version=1, classes=[_Node], enums=[RefusalReason])
    a = _Node("a", [])
    a.links.append(_Node("b", [a]))  # a cycle
    shared = [1, 2]
    keys: dict[Any, Any] = {(1, "x"): frozenset({3, 4}), RefusalReason.FULL: None, 2: 2.5}
    keys[None] = b"\x00"
    value = {
        "keys": keys,
        "proxy": types.MappingProxyType({1: (True, None, math.inf)}),
        "sets": [set(), {"b", "a"}, frozenset()],
        "shared": [shared, shared, [1, 2]],
        "nodes": a,
    }
    back = codec.unpack(codec.pack(value))
    assert back["keys"] == keys and list(back["keys"]) == list(keys)
    assert [type(k) for k in back["keys"]] == [tuple, RefusalReason, int, type(None)]
    assert type(back["keys"][(1, "x")]) is frozenset
    assert type(back["proxy"]) is types.MappingProxyType
    assert back["proxy"][1] == (True, None, math.inf) and back["proxy"][1][0] is True
    assert [type(x) for x in back["sets"]] == [set, set, frozenset]
    assert back["sets"][1] == {"a", "b"}
    first, second, third = back["shared"]
    assert first is second and first is not third and third == [1, 2]
    node = back["nodes"]
    assert node.links[0].name == "b" and node.links[0].links[0] is node


def test_neither_module_uses_pickle() -> None:
    banned = {"pickle", "_pickle", "cPickle", "dill", "marshal", "shelve", "copyreg"}
    for module in (redis_state, statecodec):
        tree = ast.parse(Path(str(module.__file__)).read_text("utf-8"))
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                assert not {a.name.split(".")[0] for a in node.names} & banned
            elif isinstance(node, ast.ImportFrom):
                assert (node.module or "").split(".")[0] not in banned


def test_rebuys_and_reentries_survive_the_round_trip() -> None:
    loop = console_loop()
    d = loop.director
    dl = deal(d, 2)
    v0, v1, v2 = sorted(dl.seats.values())[:3]
    end(d, dl, busts=[v0, v1, v2])  # busts who may rebuy (tda 26) or re-enter (tda 7)
    one(d.rebuy(v0, 5.0), Rebought)
    _, back = round_trip(Directing(loop), d.config)
    bd = back.loop.director
    bd._rng, d._rng = random.Random(9), random.Random(9)
    assert one(bd.rebuy(v1, 6.0), Rebought) == one(d.rebuy(v1, 6.0), Rebought)  # seat kept
    assert one(bd.reenter(v2, 7.0), Registered) == one(d.reenter(v2, 7.0), Registered)
    assert dump(Directing(back.loop), d.config, bd._rng) == dump(Directing(loop), d.config, d._rng)


# ---------------------------------------------------------------------- refused states


def test_a_state_of_another_version_is_refused_with_what_to_do() -> None:
    loop = console_loop()
    cfg = loop.director.config
    env = envelope(dump(Directing(loop), cfg, loop.director._rng))
    env["version"] = 0
    with pytest.raises(StateVersionError) as info:
        load(repack(env), cfg)
    assert str(info.value) == (
        "brasseur-director-state version 0, this server reads version 1: finish the "
        "tournament with the server version that started it, or cancel the tournament"
    )
    assert isinstance(info.value, ValueError)


def test_a_state_of_another_schema_is_refused() -> None:
    loop = console_loop()
    cfg = loop.director.config
    env = envelope(dump(Directing(loop), cfg, loop.director._rng))
    env["schema"] = "0123456789abcdef"
    with pytest.raises(StateVersionError) as info:
        load(repack(env), cfg)
    assert str(info.value) == (
        f"brasseur-director-state schema '0123456789abcdef', this server's is '{CODEC.schema}' "
        "(the state's classes changed between server versions): finish the tournament with "
        "the server version that started it, or cancel the tournament"
    )


@dataclasses.dataclass
class _V1:
    a: int


@dataclasses.dataclass
class _V2:
    a: int
    b: int = 0


def test_a_class_that_changed_shape_changes_the_schema() -> None:
    # a deploy that adds a field to a class of the state: detected before anything is loaded
    old = Codec(format="f", version=1, classes=[_V1])
    _V2.__qualname__ = "_V1"  # the same class, one field more
    try:
        new = Codec(format="f", version=1, classes=[_V2])
    finally:
        _V2.__qualname__ = "_V2"
    assert old.schema != new.schema
    blob = old.pack([_V1(a=1)])
    assert old.unpack(blob) == [_V1(a=1)]
    with pytest.raises(StateVersionError, match="changed between server versions"):
        new.unpack(blob)
    # and if the schema is forged, the field count still does not match
    env = envelope(blob)
    env["schema"] = new.schema
    with pytest.raises(StateError, match=r"_V1 with 1 fields, this server's has 2 \(a, b\)"):
        new.unpack(repack(env))


_BOOM: list[str] = []


def _boom() -> None:
    _BOOM.append("ran")


class _Exploit:
    def __reduce__(self) -> tuple[Any, ...]:
        return _boom, ()


def test_a_pickle_is_refused_and_never_run() -> None:
    cfg = config()
    blob = pickle.dumps({"loop": _Exploit()}, protocol=5)
    with pytest.raises(StateVersionError) as info:
        load(blob, cfg)
    assert str(info.value) == (
        "a pickled state, from a server older than brasseur-director-state version 1 (this "
        "server reads version 1): finish the tournament with the server version that started "
        "it, or cancel the tournament"
    )
    with pytest.raises(StateVersionError, match="a pickled state"):
        load(pickle.dumps(Directing.__name__, protocol=2), cfg)
    assert _BOOM == []


def test_an_unregistered_class_is_refused_and_nothing_imported() -> None:
    loop = console_loop()
    cfg = loop.director.config
    env = envelope(dump(Directing(loop), cfg, loop.director._rng))
    env["state"][1] = "antigravity.geohash"  # [OBJ, name, fields...]: the Directing
    assert "antigravity" not in sys.modules
    with pytest.raises(StateError, match=r"names class 'antigravity\.geohash', not registered"):
        load(repack(env), cfg)
    assert "antigravity" not in sys.modules
    env["state"][1] = "Directing"
    env["state"][2][2][4] = [6, "Phase", "exploded"]  # loop.director.phase
    with pytest.raises(StateError, match="Phase has no member 'exploded'"):
        load(repack(env), cfg)


def _nested(depth: int) -> list[Any]:
    tree: list[Any] = [0]
    for _ in range(depth):
        tree = [0, tree]
    return tree


@pytest.mark.parametrize(
    ("tree", "message"),
    [
        ([8, "os.environ"], "unknown reference 'os.environ'"),
        ([9, 5], "IndexError"),
        ([42], "unknown tag"),
        ([], "unknown tag"),
        ([4, 1], "ValueError"),  # a key without its value
        ([2, [0]], "unhashable"),
        ([6, "subprocess.Popen", 1], "enum 'subprocess.Popen', not registered"),
        (_nested(600), "RecursionError"),  # within msgpack's depth, beyond Python's
    ],
)
def test_malformed_states_are_refused(tree: Any, message: str) -> None:
    env = {"format": redis_state.FORMAT, "version": 1, "schema": CODEC.schema, "state": tree}
    with pytest.raises(StateError, match=message):
        load(repack(env), config())


@pytest.mark.parametrize(
    ("blob", "message"),
    [
        (b"\xc1", "not a brasseur-director-state"),
        (bytes(msgpack.packb([1, 2])), "not a brasseur-director-state"),
        (bytes(msgpack.packb({"format": "x"})), "format 'x'"),
        (bytes(msgpack.packb({"format": redis_state.FORMAT})), "version None"),
    ],
)
def test_what_is_not_an_envelope_is_refused(blob: bytes, message: str) -> None:
    with pytest.raises(StateError, match=message):
        load(blob, config())


def test_dumping_an_unregistered_object_is_a_bug_named_with_its_path() -> None:
    loop = console_loop()
    cfg = loop.director.config
    with pytest.raises(StateEncodeError, match=r"random.Random is not registered \(at value"):
        dump(Directing(loop), cfg)  # the random source not given: never stored
    loop.log.append({"op": "x", "thing": object()})
    with pytest.raises(
        StateEncodeError, match=r"object is not.*value\.loop\.log\[\d+\]\['thing'\]"
    ):
        dump(Directing(loop), cfg, loop.director._rng)
    loop.log.pop()
    loop.director.extra = 1  # type: ignore[attr-defined]
    with pytest.raises(StateEncodeError, match=r"Director has unregistered attributes \['extra'\]"):
        dump(Directing(loop), cfg, loop.director._rng)


# ---------------------------------------------------------------------- the registry


def _classes(hint: Any) -> Iterator[type]:
    if hint is Any:
        return
    args = typing.get_args(hint)
    if args:
        for arg in args:
            yield from _classes(arg)
    elif isinstance(hint, type):
        yield hint


def test_every_class_a_registered_class_may_hold_is_registered() -> None:
    registered = {k.cls for k in CODEC.kinds.values()} | set(CODEC.enums.values())
    allowed = {type(None), bool, int, float, str, bytes, tuple, list, dict, set, frozenset}
    allowed |= {TournamentConfig, TournamentRules}  # references
    for cls in registered:
        if not dataclasses.is_dataclass(cls):
            continue
        for name, hint in typing.get_type_hints(cls).items():
            for found in _classes(hint):
                assert found in registered | allowed, f"{cls.__qualname__}.{name}: {found}"
    for found in _classes(Instruction):  # everything the decisions stream carries
        assert found in registered, found
    assert all(issubclass(e, Enum) for e in CODEC.enums.values())


SCHEMA = "4c9eb2aac4343396"
"""Changed by issue 13: the console's rail mode (the SpectatorMode decision)."""


def test_the_schema_is_known_and_the_same_in_every_process() -> None:
    assert CODEC.schema == SCHEMA, (
        "the director's state changed shape: a tournament started by the previous server "
        "version cannot be taken over by this one (its state is refused). Update SCHEMA here "
        "and say so in the release notes"
    )
    code = "from server.tournament.redis_state import CODEC; print(CODEC.schema)"
    env = {**os.environ, "PYTHONHASHSEED": "12345"}
    out = subprocess.run(
        [sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == SCHEMA


def test_the_registry_lists_every_attribute_of_the_plain_classes() -> None:
    loop = console_loop()
    for obj in (loop, loop.director, loop.director.clock):
        kind = CODEC.kinds[type(obj)]
        assert set(kind.fields) == set(vars(obj)), type(obj)


# ---------------------------------------------------------------------- real tournaments


def _check_every(sim: Simulation, every: int, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Round-trip the director's state after every ``every``-th event; the sizes seen."""
    count = itertools.count()
    sizes: list[int] = []
    event = sim._event

    def checked(kind: str, tid: int, at: float) -> None:
        event(kind, tid, at)
        if next(count) % every == 0:
            blob, _ = round_trip(Directing(DirectorLoop(sim.director)), sim.config)
            sizes.append(len(blob))

    monkeypatch.setattr(sim, "_event", checked)
    return sizes


@pytest.mark.parametrize("path", CONFIG_FILES, ids=lambda p: p.name)
def test_the_state_round_trips_all_along_the_example_tournaments(
    path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg, _ = load_tournament(path.read_text("utf-8"))
    # as many players as it takes (a heads-up cup's game: its two, a few hands long)
    players = min(60, cfg.max_entries or 60)
    sim = Simulation(cfg, players, seed=3)
    sizes = _check_every(sim, 5, monkeypatch)
    sim.run()
    assert len(sizes) > (10 if players > 2 else 0)


@pytest.mark.parametrize("profile", ["cdc", "tda", "ligue", "casino", "fpc"])
def test_the_state_round_trips_all_along_two_hundred_player_tournaments(
    profile: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # moves, breaks, chip races, table breaking, bounties, hand-for-hand, the final table
    sim = Simulation(sim_config(profile), 200, seed=5)
    sizes = _check_every(sim, 31, monkeypatch)
    tr = sim.run()
    assert tr.moves and tr.breaks and tr.chip_races and tr.bounties
    assert tr.hand_for_hand_hands or profile in ("ligue", "fpc")
    assert len(sizes) > 60


def _recording(sim: Simulation, monkeypatch: pytest.MonkeyPatch) -> list[Instruction]:
    """Every decision the simulation carries out from now on."""
    seen: list[Instruction] = []
    apply = sim.apply

    def recorded(decisions: list[Decision]) -> None:
        seen.extend(decisions)
        apply(decisions)

    monkeypatch.setattr(sim, "apply", recorded)
    return seen


def _finish(sim: Simulation) -> None:
    """Run a simulation stopped by ``max_events`` to its end (Simulation.run's loop)."""
    while sim.trace.finished is None:
        at, _, kind, tid = heapq.heappop(sim._events)
        sim.now = at
        sim._event(kind, tid, at)
        sim.trace.decision_calls += 1
        nxt = sim.director.next_deadline()
        if nxt is not None and nxt != sim._tick_at:
            sim._tick_at = nxt
            sim._push(nxt, "tick")


@pytest.mark.parametrize(
    ("stop", "phase"),
    [
        (40, "running"),  # the first hands
        (940, "break"),  # the first break (from event 933)
        (1500, "running"),  # tables broken, players moved
        (2236, "hand_for_hand"),  # at the money bubble (events 2232 to 2242)
        (2350, "final_table"),
    ],
)
def test_the_director_goes_on_from_its_loaded_state_as_from_the_original(
    stop: int, phase: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    cfg = sim_config("cdc")
    a, b = Simulation(cfg, 200, seed=1), Simulation(cfg, 200, seed=1)
    for sim in (a, b):
        with pytest.raises(SimulationError, match="too many events"):
            sim.run(max_events=stop)
    assert a.director.phase.value == phase
    _, back = round_trip(Directing(DirectorLoop(a.director)), cfg)
    back.loop.director._rng = b.director._rng  # the seeded source: the same draws
    b.director = back.loop.director
    seen_a, seen_b = _recording(a, monkeypatch), _recording(b, monkeypatch)
    _finish(a)
    _finish(b)
    assert seen_a and seen_a == seen_b
    assert a.trace == b.trace and a.trace.finished is not None
    end_a = dump(Directing(DirectorLoop(a.director)), cfg, a.director._rng)
    assert end_a == dump(Directing(DirectorLoop(b.director)), cfg, b.director._rng)


# ---------------------------------------------------------------------- the decisions stream


def test_decision_batches_round_trip(monkeypatch: pytest.MonkeyPatch) -> None:
    sim = Simulation(sim_config("fpc"), 60, seed=2)
    seen = _recording(sim, monkeypatch)
    sim.run()
    loop = console_loop()
    seen += loop.handle("rule", {"call": 1, "text": "the bet stands"}, 5.0)
    seen += loop.handle("move", {"player": "nobody", "table": 9, "seat": 1}, 5.0)
    kinds = {type(x).__name__ for x in seen}
    assert {"Deal", "MovePlayer", "ChipRace", "FinalTable", "BountyAwarded", "TableNote"} <= kinds
    cfg = sim.config
    state = tournament_state(loop, 6.0)
    sync: dict[int, dict[int, list[Any]] | None] = {3: {1: ["p1", "P1", 500]}, 4: None}
    for i in range(0, len(seen), 40):
        batch = decision_batch(seen[i : i + 40], {1: "a"}, state, sync, {5: {"max_seats": 9}})
        blob = dump(batch, cfg)
        back = load(blob, cfg)
        assert back == batch and dump(back, cfg) == blob
        assert list(back["sync"][3]) == [1] and list(back["directory"]) == [1]  # int keys
    assert load(dump(decision_batch(), cfg), cfg) == decision_batch()


def test_equal_states_encode_to_equal_bytes() -> None:
    # sets are written sorted: the bytes do not depend on the hash seed or on the history
    d = started(30, config(table_size=6))
    t = d._tables[1]
    t.arrivals.update(["p030", "p001", "p015"])
    blob = dump(Directing(DirectorLoop(d)), d.config, d._rng)
    t.arrivals = {"p001", "p015", "p030"}
    assert dump(Directing(DirectorLoop(d)), d.config, d._rng) == blob
