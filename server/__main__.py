"""``python -m server`` (or ``brasseur``): serve the tables and the browser client on one port.

With no other service: SQLite in ``--data`` (default ``./brasseur-data``), a friends table
created on first start, and an invite link printed to send to friends.

``python -m server tournament create CONFIG.toml`` records a tournament in ``--data`` and prints
its registration link and the director's console link; ``python -m server`` on the same
``--data`` runs it (restart a running server to pick it up).

Test-only environment hooks (never set them in production): see ``TEST_HOOKS``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import errno
import json
import logging
import os
import resource
import secrets
import signal
import sys
import time
from pathlib import Path
from typing import Any

from server import datadir
from server.accounts import MemberStore
from server.accounts.redis_store import RedisMemberStore
from server.cash import cash_rules
from server.dealing import Signer
from server.gateway.app import Gateway
from server.gateway.limits import Limits
from server.league_service import CapitalStore, LeagueStore, RedisCapital, RedisLeagueStore
from server.runtime import freeze_startup_objects, tune_gc
from server.store import Store
from server.table.clock import AcceleratedClock, Clock, RealClock
from server.table.config import TableConfig
from server.tokens import NonceBook, TokenAuthority
from server.tournament.live import load_tournament
from server.tournament.redis_coordinator import RedisLink

log = logging.getLogger("brasseur.server")

TEST_HOOKS = """test-only environment hooks (never in production):
BRASSEUR_TEST_DB_MAX_PAGES=N opens the SQLite store limited to N pages (PRAGMA max_page_count:
a full disk without root); BRASSEUR_TEST_DB_MAX_PAGES_FILE=PATH re-reads the limit from PATH
every second (a number of pages, or "none" for no limit), to give the space back at run time;
BRASSEUR_CRASH_AFTER=KIND[:N] ends the process (exit status 137) right after the N-th store
write holding an event of kind KIND (server/table/actor.py)."""

MAX_PAGES_EVERY = 1.0
"""Seconds between two reads of BRASSEUR_TEST_DB_MAX_PAGES_FILE."""


def parse_args(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="brasseur",
        description=__doc__,
        epilog=TEST_HOOKS,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--host", default=os.environ.get("HOST", "127.0.0.1"))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    parser.add_argument(
        "--data",
        default=os.environ.get("BRASSEUR_DATA", "brasseur-data"),
        help="directory for the SQLite database and the signing key",
    )
    parser.add_argument("--profile", default="cdc", help="rule profile of the default table")
    cash = parser.add_argument_group("a cash default table (docs/cash.md)")
    cash.add_argument(
        "--game",
        choices=["friends", "cash"],
        default="friends",
        help="friends: everyone starts with --starting-stack; cash: players buy in",
    )
    cash.add_argument("--min-buy-in", type=int, default=None, help="default: 20 big blinds")
    cash.add_argument("--max-buy-in", type=int, default=None, help="default: 100 big blinds")
    cash.add_argument("--rake-permille", type=int, default=0, help="rake per thousand of a pot")
    cash.add_argument("--rake-cap", type=int, default=0, help="most raked from a hand (0: none)")
    cash.add_argument(
        "--hours",
        default="",
        help="opening hours HH:MM-HH:MM (fpc cash: 20:00-23:30); default: always open",
    )
    cash.add_argument("--zone", default="Europe/Paris", help="the time zone of --hours")
    cash.add_argument(
        "--run-it",
        type=int,
        default=None,
        choices=[1, 2, 3],
        help="runs of the board when two players are all-in before the turn (both agree; "
        "fpc cash: 3 without asking)",
    )
    parser.add_argument("--action-seconds", type=float, default=30.0)
    parser.add_argument("--cut-seconds", type=float, default=8.0)
    parser.add_argument("--next-hand-seconds", type=float, default=3.0)
    parser.add_argument("--showdown-seconds", type=float, default=2.0)
    parser.add_argument("--starting-stack", type=int, default=10_000)
    parser.add_argument("--time-bank-seconds", type=float, default=60.0)
    parser.add_argument(
        "--time-call-after",
        type=float,
        default=60.0,
        help="seconds a player must have thought before the Time may be called (cdc 3.5)",
    )
    parser.add_argument(
        "--max-tables",
        type=int,
        default=int(os.environ.get("BRASSEUR_MAX_TABLES", "2000")),
        help="tables this process accepts to create over the wire",
    )
    parser.add_argument(
        "--clock-speed",
        type=float,
        default=1.0,
        help="run every clock this many times faster (demos and tests of tournaments)",
    )
    parser.add_argument(
        "--public-url",
        default=os.environ.get("PUBLIC_URL", ""),
        help="base URL printed in invite links (default http://HOST:PORT)",
    )
    add_limit_args(parser)
    add_redis_args(parser)
    parser.add_argument(
        "--process-id",
        default=os.environ.get("BRASSEUR_PROCESS_ID", ""),
        help="this process's name among the processes sharing --redis (default host:pid)",
    )
    return parser.parse_args(argv)


def default_cash(args: argparse.Namespace) -> dict[str, Any] | None:
    """The default table's cash settings (``--game cash``), checked against the profile's
    cash rules; None for a friends table."""
    if args.game != "cash":
        return None
    changes: dict[str, Any] = {"rake_permille": args.rake_permille, "rake_cap": args.rake_cap}
    if args.run_it is not None:
        changes["runs"] = args.run_it
    if args.hours:
        changes |= {"hours": args.hours, "zone": args.zone}
    if args.min_buy_in is not None:
        changes["min_buyin"] = args.min_buy_in
    if args.max_buy_in is not None:
        changes["max_buyin"] = args.max_buy_in
    defaults = TableConfig(table_id="friends")
    try:
        cash_rules(args.profile, sb=defaults.sb, bb=defaults.bb, **changes)
    except ValueError as exc:
        raise datadir.DataDirError(f"--game cash: {exc}") from None
    return changes


def _env(name: str, default: str) -> str:
    return os.environ.get(f"BRASSEUR_{name}", default)


def add_limit_args(parser: argparse.ArgumentParser) -> None:
    """The limits against strangers (server.gateway.limits; docs/operations.md "Limits"):
    each option also reads ``BRASSEUR_<NAME>`` from the environment; 0 means no limit."""
    d = Limits()
    g = parser.add_argument_group("limits (0: none)")
    for name, kind, default, help_text in (
        ("max-connections-per-address", int, d.connections_per_address, "open connections"),
        ("max-connections", int, d.max_connections, "in all (0: descriptor limit - 320)"),
        ("hello-seconds", float, d.hello_seconds, "to say hello once connected"),
        ("max-tables-per-address", int, d.tables_per_address, "tables created per hour"),
        ("max-tables-per-connection", int, d.tables_per_connection, "tables created"),
        ("max-registrations-per-address", int, d.registrations_per_address, "per hour"),
        ("max-accounts-per-address", int, d.accounts_per_address, "accounts created per hour"),
        ("max-guesses-per-login", int, d.guesses_per_login, "password guesses per hour"),
        ("max-guesses-per-address", int, d.guesses_per_address, "password guesses per hour"),
        ("max-trusted-guesses-per-login", int, d.trusted_guesses_per_login, "his own devices"),
        ("idle-table-hours", float, d.idle_table_hours, "a friends table unused is dropped"),
        ("unused-table-minutes", float, d.unused_table_minutes, "a table nobody sat at"),
    ):
        env = name.upper().replace("-", "_")
        g.add_argument(
            f"--{name}", type=kind, default=kind(_env(env, str(default))), help=help_text
        )
    g.add_argument(
        "--allowed-origins",
        default=_env("ALLOWED_ORIGINS", ""),
        help="web origins allowed to open /ws besides this server's own (comma-separated, * any)",
    )
    g.add_argument(
        "--trusted-proxies",
        default=_env("TRUSTED_PROXIES", ""),
        help="reverse proxies whose X-Forwarded-For names the client (comma-separated)",
    )


def _split(text: str) -> tuple[str, ...]:
    return tuple(part.strip() for part in text.split(",") if part.strip())


def limits_from(args: argparse.Namespace) -> Limits:
    return Limits(
        connections_per_address=args.max_connections_per_address,
        max_connections=args.max_connections,
        hello_seconds=args.hello_seconds,
        tables_per_address=args.max_tables_per_address,
        tables_per_connection=args.max_tables_per_connection,
        registrations_per_address=args.max_registrations_per_address,
        accounts_per_address=args.max_accounts_per_address,
        guesses_per_login=args.max_guesses_per_login,
        guesses_per_address=args.max_guesses_per_address,
        trusted_guesses_per_login=args.max_trusted_guesses_per_login,
        idle_table_hours=args.idle_table_hours,
        unused_table_minutes=args.unused_table_minutes,
        allowed_origins=_split(args.allowed_origins),
        trusted_proxies=_split(args.trusted_proxies),
    )


def raise_file_limit() -> int:
    """Raise the soft descriptor limit to the hard one (connections need descriptors)."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return resource.getrlimit(resource.RLIMIT_NOFILE)[0]


def open_data(path: str, max_pages: int | None = None) -> tuple[Store, Signer, bytes]:
    """The data directory (0700), its store, signing key and token secret (0600 each)."""
    data = datadir.prepare(Path(path))
    store = Store(data / "brasseur.sqlite", max_pages=max_pages)
    datadir.prepare(data)  # the database files just created: 0600
    signer = Signer.load_or_create(data / "signing-key.pem")
    secret = datadir.load_or_create_secret(
        data, lambda: store.get_meta("token_secret"), lambda: store.delete_meta("token_secret")
    )
    return store, signer, secret


def add_redis_args(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--redis",
        default=os.environ.get("BRASSEUR_REDIS", ""),
        help="run tournaments across every process sharing this Redis (redis://HOST:PORT/DB)",
    )
    parser.add_argument(
        "--redis-prefix",
        default=os.environ.get("BRASSEUR_REDIS_PREFIX", "brasseur"),
        help="prefix of every Redis key (one per deployment)",
    )
    parser.add_argument(
        "--allow-volatile-redis",
        action="store_true",
        default=os.environ.get("BRASSEUR_ALLOW_VOLATILE_REDIS", "") == "1",
        help="run tournaments on a Redis without persistence (no AOF, no RDB), refused "
        "otherwise: a Redis restart then ends them (docs/operations.md, Redis)",
    )


def ws_url(host: str, port: int, public_url: str) -> str:
    """Where players reach this process's websocket (sent to them with ``moved``)."""
    if public_url:
        scheme, _, rest = public_url.rstrip("/").partition("://")
        return f"{'wss' if scheme == 'https' else 'ws'}://{rest}/ws"
    shown = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
    return f"ws://{shown}:{port}/ws"


def _max_pages(text: str) -> int | None:
    """A page limit as written in the test hooks: a positive number, or "none"."""
    text = text.strip().lower()
    if text in ("", "none"):
        return None
    pages = int(text)
    if pages < 1:
        raise ValueError(f"a page limit must be positive, got {pages}")
    return pages


async def follow_max_pages(store: Store, path: Path) -> None:
    """Test hook: apply the page limit written in ``path`` whenever it changes."""
    applied: str | None = None
    while True:
        try:
            text = path.read_text("utf-8").strip()
        except OSError:
            text = None  # not written yet: the limit stays
        if text is not None and text != applied:
            applied = text
            try:
                limit = store.set_max_pages(_max_pages(text))
            except ValueError as exc:
                log.warning("%s: ignored: %s", path, exc)
            else:
                log.warning("test hook: the store is now limited to %s pages", limit)
        await asyncio.sleep(MAX_PAGES_EVERY)


async def amain(args: argparse.Namespace) -> None:
    max_pages = _max_pages(os.environ.get("BRASSEUR_TEST_DB_MAX_PAGES", ""))
    store, signer, secret = open_data(args.data, max_pages)
    pages_file = os.environ.get("BRASSEUR_TEST_DB_MAX_PAGES_FILE", "")
    follower = (
        asyncio.create_task(follow_max_pages(store, Path(pages_file))) if pages_file else None
    )
    timings = {
        "cut_seconds": args.cut_seconds,
        "next_hand_seconds": args.next_hand_seconds,
        "showdown_seconds": args.showdown_seconds,
        "time_bank_seconds": args.time_bank_seconds,
        "time_call_after": args.time_call_after,
    }
    clock: Clock = RealClock() if args.clock_speed == 1.0 else AcceleratedClock(args.clock_speed)
    link = None
    if args.redis:
        url = ws_url(args.host, args.port, args.public_url)
        link = RedisLink(args.redis, args.process_id, url, prefix=args.redis_prefix)
        link.require_persistence(args.allow_volatile_redis)  # docs/operations.md, "Redis"
    gateway = Gateway(
        store,
        signer,
        clock=clock,
        max_tables=args.max_tables,
        table_defaults=timings,
        redis=link,
        limits=limits_from(args),
        token_secret=secret,
        public_url=args.public_url,
        members=(  # several processes: one account whichever process a member reaches
            RedisMemberStore(link.client, link.prefix)
            if link is not None
            else MemberStore(Path(args.data) / "members.sqlite")
        ),
        leagues=(  # docs/leagues.md, "Where it is kept": with --redis, in Redis
            RedisLeagueStore(link.client, link.prefix)
            if link is not None
            else LeagueStore(Path(args.data) / "leagues.sqlite")
        ),
        capital=(  # the season capital's accounts: one place for every process
            RedisCapital(link.client, link.prefix)
            if link is not None
            else CapitalStore(Path(args.data) / "capital.sqlite")
        ),
    )
    datadir.prepare(Path(args.data))  # the members' and leagues' files just created: 0600
    restored = gateway.restore_tables()
    tournaments = gateway.restore_tournaments()
    gateway.leagues.restore()  # the league events' timers, and results stored meanwhile
    if not restored:
        gateway.create_table(
            TableConfig(
                table_id="friends",
                name="Friends",
                profile=args.profile,
                action_seconds=args.action_seconds,
                starting_stack=args.starting_stack,
                cash=default_cash(args),
                run_it=1 if args.game == "cash" else args.run_it or 1,  # friends: by agreement
                **timings,
            )
        )
    try:
        server = await gateway.start(args.host, args.port)
    except OSError as exc:
        await gateway.close()
        store.close()
        if exc.errno == errno.EADDRINUSE:
            raise datadir.DataDirError(
                f"port {args.port} on {args.host} is already in use (another server?): "
                "choose another with --port or PORT"
            ) from None
        raise datadir.DataDirError(
            f"cannot listen on {args.host}:{args.port}: {exc.strerror or exc}"
        ) from None
    freeze_startup_objects()
    shown = "localhost" if args.host in ("0.0.0.0", "127.0.0.1", "::") else args.host
    base = args.public_url or f"http://{shown}:{args.port}"
    print(f"Brasseur is serving on {base}  (health: {base}/healthz)", flush=True)
    for table, actor in list(gateway.tables.items()):
        if "created_by" in actor.config.extra or "tournament" in actor.config.extra:
            continue  # players' tables: their invites went to their creators
        print(f"Table {table!r}: send this link to your friends:", flush=True)
        print(f"  {gateway.invite_link(table, base)}", flush=True)
    for live in tournaments:
        # the director's link was printed once, at creation (python -m server tournament
        # link ID shows it again): never in a log at every start
        print(f"Tournament {live.tid!r}: players register at", flush=True)
        print(f"  {base}/?tournament={live.tid}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    if follower is not None:
        follower.cancel()
    server.close()
    await gateway.close()
    gateway.accounts.store.close()
    gateway.leagues.store.close()
    store.close()


def tournament_command(argv: list[str]) -> int:
    """``python -m server tournament create CONFIG.toml [--id ID] [--data DIR]``, or
    ``python -m server tournament link ID``: the director's link again (it is printed once,
    at creation, never in the server's log)."""
    parser = argparse.ArgumentParser(prog="brasseur tournament")
    parser.add_argument("action", choices=["create", "link"])
    parser.add_argument(
        "config", help="create: the tournament's TOML (see docs/tournaments/); link: its id"
    )
    parser.add_argument("--id", default="", help="short name used in links (default: random)")
    parser.add_argument("--data", default=os.environ.get("BRASSEUR_DATA", "brasseur-data"))
    parser.add_argument("--public-url", default=os.environ.get("PUBLIC_URL", ""))
    parser.add_argument("--port", type=int, default=int(os.environ.get("PORT", "8000")))
    add_redis_args(parser)
    args = parser.parse_args(argv)
    os.umask(0o077)
    if args.action == "link":
        return director_link_command(args)
    text = Path(args.config).read_text("utf-8")
    tid = args.id or secrets.token_hex(3)
    if not (tid.replace("_", "").isalnum() and tid.isascii()) or len(tid) > 24:
        parser.error("--id: letters, digits and _ only (24 at most)")
    if args.redis:
        return redis_tournament(args, tid, text)
    try:
        store, signer, secret = open_data(args.data)
    except datadir.DataDirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    data = Path(args.data)
    gateway = Gateway(store, signer, token_secret=secret)
    try:
        gateway.add_tournament(tid, text)
    except Exception as exc:  # a bad TOML or configuration: say which
        print(f"error: {args.config}: {exc}", file=sys.stderr)
        return 2
    base = args.public_url or f"http://localhost:{args.port}"
    print(f"Tournament {tid!r} created in {data}/ (start or restart the server to run it:")
    print(f"  python3 -m server --data {data})")
    print(f"Players register at:  {base}/?tournament={tid}")
    print(f"Director's console:   {gateway.director_link(tid, base)}")
    store.close()
    return 0


def director_link_command(args: argparse.Namespace) -> int:
    """``tournament link ID``: print the director's console link of tournament ID again."""
    tid = args.config
    base = (args.public_url or f"http://localhost:{args.port}").rstrip("/")
    if args.redis:
        link = RedisLink(args.redis, "cli", "", prefix=args.redis_prefix)
        known = {t for t, _ in link.tournaments()}
        secret = bytes.fromhex(link.token_secret())
        link.close()
    else:
        try:
            store, _, secret = open_data(args.data)
        except datadir.DataDirError as exc:
            print(f"error: {exc}", file=sys.stderr)
            return 2
        known = set(json.loads(store.get_meta("tournaments") or "[]"))
        store.close()
    if tid not in known:
        print(
            f"error: no tournament {tid!r} here (known: {', '.join(sorted(known))})",
            file=sys.stderr,
        )
        return 2
    nonces: dict[str, str] = {}
    auth = TokenAuthority(secret, time.time, NonceBook(nonces.get, nonces.__setitem__))
    print(f"Director's console:   {base}/?tournament={tid}&director={auth.director(tid)}")
    return 0


def redis_tournament(args: argparse.Namespace, tid: str, text: str) -> int:
    """``tournament create --redis URL``: record the tournament in Redis; every server process
    of the deployment runs it from its next start."""
    try:
        load_tournament(text)
    except Exception as exc:  # a bad TOML or configuration: say which
        print(f"error: {args.config}: {exc}", file=sys.stderr)
        return 2
    link = RedisLink(args.redis, "cli", "", prefix=args.redis_prefix)
    link.require_persistence(args.allow_volatile_redis)  # docs/operations.md, "Redis"
    link.add_tournament(tid, text)
    nonces: dict[str, str] = {}
    secret = bytes.fromhex(link.token_secret())
    auth = TokenAuthority(secret, time.time, NonceBook(nonces.get, nonces.__setitem__))
    base = (args.public_url or f"http://localhost:{args.port}").rstrip("/")
    print(f"Tournament {tid!r} created in {args.redis} (start or restart the servers to run it)")
    print(f"Players register at:  {base}/?tournament={tid}")
    print(f"Director's console:   {base}/?tournament={tid}&director={auth.director(tid)}")
    link.close()
    return 0


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["tournament"]:
        raise SystemExit(tournament_command(argv[1:]))
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    # one line per connection opened or closed would let any flood fill the disk
    logging.getLogger("websockets.server").setLevel(logging.WARNING)
    os.umask(0o077)  # every file and directory the server creates is private to its user
    tune_gc()
    args = parse_args(argv)
    raise_file_limit()
    try:
        asyncio.run(amain(args))
    except datadir.DataDirError as exc:
        print(f"error: {exc}", file=sys.stderr)
        raise SystemExit(2) from None


if __name__ == "__main__":
    main()
