"""The load tester's tournament mode (``python -m bots.loadtest --tournament ID``).

P bots register by nickname for a tournament created with ``python -m server tournament
create``, are seated by its director and follow every move until they bust or the tournament
ends. With several server URLs (``--url A --url B`` or ``--url A,B``: the processes sharing one
Redis), bot ``k`` says hello to URL ``k mod n`` and knows them all: when the director seats it
on a table another process runs it follows the ``moved`` there, and when its process dies it
reconnects to another one (backing off, with jitter), says hello again, follows the tournament
with its player token and is put back on its seat wherever the takeover rebuilt its table.

Each bot counts its own actions, and the hands where it holds the lowest seat dealt in, so
hands and actions are counted once across moving tables. The report's ``tournament`` part:
entrants, busted, whether the end was seen, moves, and ``lost``: the bots whose connection was
lost for good before they busted or saw the end (every bot must come back: 0).
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

from protocol import messages as m

from .client import Bot, BotError
from .load_config import LoadConfig
from .notebook import Notebook
from .stats import Stats
from .strategies import make_strategy

__all__ = [
    "done",
    "release_busted",
    "setup_entrants",
    "start",
    "summarize_tournament",
    "tournament_part",
]


def entrant(cfg: LoadConfig, k: int, stats: Stats, notebook: Notebook, rng: random.Random) -> Bot:
    """Entrant ``k``: its first server is URL ``k mod n``, every other one a fallback."""
    servers = cfg.servers
    bot = Bot(
        servers[k % len(servers)],
        make_strategy(cfg.strategy, random.Random(rng.random())),
        nickname=f"lt{cfg.run_tag}-{k}",
        stats=stats,
        notebook=notebook,
        counts_own=True,
        rng=random.Random(rng.random()),
        compression=cfg.compression,
        trace=cfg.trace,
        urls=servers if len(servers) > 1 else (),
    )
    bot.light_lobby = True  # the lobby is the load tester's largest cost: see FULL_LOBBY_EVERY
    return bot


async def setup_entrants(
    cfg: LoadConfig,
    first: int,
    count: int,
    stats: Stats,
    notebook: Notebook,
    gate: asyncio.Semaphore,
    rng: random.Random,
) -> list[Bot]:
    """``count`` bots register (each by its own nickname) and follow the tournament."""
    assert cfg.tournament is not None
    bots = [entrant(cfg, first + k, stats, notebook, rng) for k in range(count)]

    async def enter(b: Bot) -> None:
        try:
            async with gate:
                await b.connect()
                await b.register(str(cfg.tournament))
        except (BotError, OSError, TimeoutError) as exc:
            code = exc.code if isinstance(exc, BotError) else type(exc).__name__
            stats.error(f"setup:{code}")

    await asyncio.gather(*(enter(b) for b in bots))
    return bots


async def start(cfg: LoadConfig, bots: list[Bot]) -> None:
    """Start the tournament from the director's console (``--director TOKEN``)."""
    assert cfg.tournament is not None and cfg.director is not None
    for b in bots:
        if b.ws is not None and not b.closed.is_set():
            await b.send(m.Direct(tournament=cfg.tournament, token=cfg.director, op="start"))
            return


def _lost(b: Bot) -> bool:
    return b.closed.is_set() and not (b.busted or b.tournament_over)


def tournament_part(bots: list[Bot]) -> dict[str, Any]:
    return {
        "entrants": sum(1 for b in bots if b.player_token is not None),
        "busted": sum(1 for b in bots if b.busted),
        "finished": any(b.tournament_over for b in bots),
        "moves": sum(b.moves for b in bots),
        "lost": sum(1 for b in bots if b.player_token is not None and _lost(b)),
        "lost_names": [b.nickname for b in bots if b.player_token is not None and _lost(b)][:20],
        "states": sum(b.states for b in bots),
        "state_bytes": sum(b.state_bytes for b in bots),
        "bytes_in": sum(b.bytes_in for b in bots),
    }


def release_busted(bots: list[Bot]) -> None:
    """Close the connections of the bots that busted (``leave_busted``)."""
    for b in bots:
        if b.busted and not b.tournament_over and not b.closed.is_set() and not b.closing:
            task = asyncio.get_running_loop().create_task(b.close())
            _closing.add(task)
            task.add_done_callback(_closing.discard)


_closing: set[asyncio.Task[None]] = set()
"""The bots being closed (a reference to each task until it is done)."""


def done(bots: list[Bot]) -> bool:
    """Every bot is out, has seen the end, or stopped for good."""
    return all(b.busted or b.tournament_over or b.closed.is_set() for b in bots)


def summarize_tournament(tid: str, parts: list[dict[str, Any]]) -> dict[str, Any]:
    seen = [p["tournament"] for p in parts if "tournament" in p]
    return {
        "id": tid,
        "entrants": sum(t["entrants"] for t in seen),
        "busted": sum(t["busted"] for t in seen),
        "finished": any(t["finished"] for t in seen),
        "moves": sum(t["moves"] for t in seen),
        "lost": sum(t.get("lost", 0) for t in seen),
        "lost_names": [n for t in seen for n in t.get("lost_names", [])][:20],
        "states": sum(t.get("states", 0) for t in seen),
        "state_bytes": sum(t.get("state_bytes", 0) for t in seen),
        "bytes_in": sum(t.get("bytes_in", 0) for t in seen),
    }
