"""Member accounts over the wire (``account_register``, ``account_login``,
``account_update``, ``hello`` ``member``): the gateway's shell around server.accounts.

The work of a password hash (Scrypt, about 0.1 s and 32 MiB) never runs on the event loop:
it runs in threads, ``workers`` at a time (:class:`HashPool`), in two lanes with queues of
their own. Logins (and password changes) go first and may use every worker; registrations
use at most ``workers - 1`` and wait behind any login, so a flood of registrations never
starves a member's login. Beyond a lane's queue the answer is ``busy``.

Each address creates at most ``Limits.accounts_per_address`` accounts an hour (a bucket).
Guessing is slowed per login and per address, each guess counted before its hash runs
(server.accounts.guard); a member's own devices guess through a bucket of their own, so a
stranger cannot lock him out. A wrong login and a wrong password get the same answer.

A session token is issued only after what it opens is saved; a new password raises the
member's version, which ends every older session, and the desk ends at once the member's
rights on every other connection of this process where he is logged in (they are told
``account.session_ended`` and become guests).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import functools
import logging
import os
import secrets
import threading
import weakref
from collections.abc import Callable, Coroutine
from concurrent.futures import ThreadPoolExecutor
from dataclasses import replace
from enum import StrEnum
from typing import Any, TypeVar

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.accounts import (
    GuessGuard,
    Member,
    MemberError,
    PasswordError,
    ScryptParams,
    check_display,
    check_login,
    check_password,
    hash_password,
    verify_password,
)
from server.accounts.members import LANGUAGES
from server.accounts.store import MemberBook, MemberStoreError
from server.gateway.connection import Connection
from server.gateway.limits import Buckets, Limits
from server.tokens import TokenAuthority

__all__ = [
    "HASH_NICENESS",
    "LOCKED",
    "MEMBER_TOKEN_SECONDS",
    "REGISTRATION_LIMIT",
    "SESSION_ENDED",
    "AccountDesk",
    "HashPool",
    "Lane",
]

log = logging.getLogger("brasseur.accounts")

MEMBER_TOKEN_SECONDS = 30 * 86400
SESSION_ENDED = "account.session_ended"
"""Sent (unasked) to a connection whose member changed his password on another one: the
connection is a guest from now on."""
REGISTRATION_LIMIT = "account.registration_limit"
"""This address created its share of accounts for now (``Limits.accounts_per_address``)."""
LOCKED = "account.locked"
"""Too many guesses for this login or from this address for now: retry in the seconds said."""

T = TypeVar("T")


class Lane(StrEnum):
    """The queues of the hashing threads, in the order they are served."""

    LOGIN = "login"
    """``account_login`` and a password change: first served, every worker."""
    REGISTER = "register"
    """``account_register``: served when no login waits, on ``workers - 1`` workers."""


HASH_NICENESS = 5
"""The hashing threads run this much nicer than the event loop's (Linux schedules threads
apart): on a busy machine the tables' loop gets the cores first, and a hash is slower."""


def _nicer() -> None:
    """A hashing thread's start: lower its own priority (Linux: per thread; elsewhere, or
    when refused, nothing changes)."""
    with contextlib.suppress(AttributeError, OSError):
        os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), HASH_NICENESS)


class HashPool:
    """Threads for password hashes: ``workers`` at once, lanes served in :class:`Lane` order,
    each lane with its own queue (``admit``) and share of the workers. The threads are the
    pool's own (never asyncio's default ones) and run nicer than the loop (HASH_NICENESS)."""

    def __init__(self, workers: int, queues: dict[Lane, int], shares: dict[Lane, int]) -> None:
        self.executor = ThreadPoolExecutor(workers, "hash", initializer=_nicer)
        self.workers = workers
        self.queues = queues
        self.shares = shares
        self.pending: collections.Counter[Lane] = collections.Counter()
        """Requests admitted and not finished, per lane."""
        self.running: collections.Counter[Lane] = collections.Counter()
        self._waiting: dict[Lane, collections.deque[asyncio.Future[None]]] = {
            lane: collections.deque() for lane in Lane
        }

    def admit(self, lane: Lane) -> bool:
        """Take a place in ``lane``'s queue (False: it is full, nothing taken)."""
        if self.pending[lane] >= self.queues[lane]:
            return False
        self.pending[lane] += 1
        return True

    def done(self, lane: Lane) -> None:
        self.pending[lane] -= 1

    async def run(self, lane: Lane, fn: Callable[..., T], *args: Any) -> T:
        """``fn(*args)`` in a thread once ``lane`` gets a worker."""
        await self._slot(lane)
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.executor, functools.partial(fn, *args))
        finally:
            self.running[lane] -= 1
            self._dispatch()

    async def _slot(self, lane: Lane) -> None:
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting[lane].append(future)
        self._dispatch()
        try:
            await future
        except asyncio.CancelledError:
            if future.done() and not future.cancelled():  # the slot was given: give it back
                self.running[lane] -= 1
                self._dispatch()
            elif future in self._waiting[lane]:
                self._waiting[lane].remove(future)
            raise

    def _dispatch(self) -> None:
        for lane in Lane:
            waiting = self._waiting[lane]
            while waiting and self._free(lane):
                future = waiting.popleft()
                if future.done():
                    continue
                self.running[lane] += 1
                future.set_result(None)

    def _free(self, lane: Lane) -> bool:
        return sum(self.running.values()) < self.workers and self.running[lane] < self.shares[lane]


@functools.cache
def _dummy_hash(params: ScryptParams) -> str:
    """A hash no password gives: an unknown login costs the same work as a known one."""
    return hash_password(secrets.token_urlsafe(32), params)


def _check_unknown(params: ScryptParams, password: str) -> bool:
    """The work of a known login's check, for an unknown one (in a worker thread)."""
    verify_password(_dummy_hash(params), password)
    return False


def _locked(wait: float) -> ProtocolError:
    return ProtocolError(LOCKED, f"too many attempts: try again in {max(1, round(wait))} s")


class AccountDesk:
    """The accounts' requests of every connection, and the connections where each member is
    logged in (to end them when he changes his password)."""

    def __init__(
        self,
        store: MemberBook,
        auth: TokenAuthority,
        now: Callable[[], float],
        params: ScryptParams | None = None,
        workers: int = 2,
        queue: int = 16,
        limits: Limits | None = None,
    ) -> None:
        self.store = store
        self.auth = auth
        self.now = now
        self.params = params or ScryptParams()
        limits = limits or Limits()
        self.guard = GuessGuard(
            {
                "login": limits.guesses_per_login,
                "address": limits.guesses_per_address,
                "trusted": limits.trusted_guesses_per_login,
                "member": limits.guesses_per_login,
            }
        )
        self.registrations = Buckets(limits.accounts_per_address)
        self.pool = HashPool(
            workers,
            queues={Lane.LOGIN: queue, Lane.REGISTER: max(1, queue // 4)},
            shares={Lane.LOGIN: workers, Lane.REGISTER: max(1, workers - 1)},
        )
        self._sessions: dict[str, weakref.WeakSet[Connection]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    # ------------------------------------------------------------------ sessions

    def token(self, member: Member) -> str:
        claims = {"k": "member", "m": member.id, "v": member.version}
        return self.auth.issue(claims, MEMBER_TOKEN_SECONDS)

    def member_of(self, token: str) -> Member:
        """The member a session token opens; ``bad_token`` once it ended (a new password,
        or a member unknown here)."""
        claims = self.auth.verify(token, "member")
        member = self.store.by_id(str(claims.get("m")))
        if member is None or claims.get("v") != member.version:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this session ended: log in again")
        return member

    def hello(self, conn: Connection, token: str) -> Member:
        """``hello`` with a session token: the connection is the member's (his seats and
        entries carry his id); a connection that already has a seat identity keeps it. A
        token of ours that ended (a newer password) still names the member's device
        (``conn.device``): his logins there guess through his own bucket."""
        claims = self.auth.verify(token, "member")
        conn.device = str(claims.get("m"))
        member = self.member_of(token)
        self._open(conn, member)
        return member

    def logged_in(self, member_id: str, address: str | None = None) -> list[Connection]:
        """The open connections of this process where ``member_id`` is logged in (from
        ``address`` only, when given)."""
        conns = self._sessions.get(member_id, ())
        return [
            c
            for c in conns
            if c.member == member_id and not c.closed and (address is None or c.address == address)
        ]

    def _open(self, conn: Connection, member: Member) -> None:
        conn.member = member.id
        conn.member_version = member.version
        conn.device = member.id
        conn.nickname = member.display
        if conn.pid is None:
            conn.pid = f"m.{member.id}"
        self._sessions.setdefault(member.id, weakref.WeakSet()).add(conn)

    def _end_sessions(self, member: Member, keep: Connection) -> None:
        """A new password: every other connection of the member is a guest from now on (his
        seat identity goes with his membership), and is told."""
        for conn in self.logged_in(member.id):
            if conn is not keep:
                self._end(conn, member.id)

    def _end(self, conn: Connection, member: str) -> None:
        conn.member = None
        if conn.pid == f"m.{member}":
            conn.pid = None
        self._sessions.get(member, set()).discard(conn)
        message = "your password was changed on another connection: log in again"
        conn.deliver(encode(m.Error(code=SESSION_ENDED, message=message)))

    def still(self, conn: Connection) -> None:
        """Before a request that uses the member's rights (an entry, a seat, a purchase):
        his session still stands. A password changed on another process since he logged in
        here (``--redis``: this process's other connections were ended at once, not those of
        the others) ends it now: the connection is told and is a guest from now on."""
        if conn.member is None:
            return
        member = self.store.by_id(conn.member)
        if member is None or member.version != conn.member_version:
            self._end(conn, conn.member)

    # ------------------------------------------------------------------ requests

    def register(self, conn: Connection, msg: m.AccountRegister) -> None:
        try:
            login = check_login(msg.login)
            display = check_display(msg.display, login)
            check_password(msg.password, login)
        except PasswordError as exc:
            raise ProtocolError("account.weak_password", str(exc)) from None
        except MemberError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        if msg.lang not in LANGUAGES:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "lang: fr or en")
        now = self.now()
        if not self.registrations.take(conn.address, now):
            raise ProtocolError(
                REGISTRATION_LIMIT, "too many accounts created from your address: try later"
            )
        # a login taken spends the address's token all the same: probing is as slow
        if self.store.by_login(login) is not None:
            raise ProtocolError("account.taken", "this login is taken")
        if not self.pool.admit(Lane.REGISTER):
            self.registrations.give_back(conn.address, now)
            raise ProtocolError(ErrorCode.BUSY, "too many account requests now: retry")
        self._spawn(conn, msg.id, Lane.REGISTER, self._register(conn, msg, login, display))

    async def _register(
        self, conn: Connection, msg: m.AccountRegister, login: str, display: str
    ) -> None:
        hashed = await self.pool.run(Lane.REGISTER, hash_password, msg.password, self.params)
        member = Member(
            id=secrets.token_urlsafe(9),
            login=login,
            display=display,
            lang=msg.lang,
            password_hash=hashed,
            created=self.now(),
        )
        self.store.add(member)  # saved first: the token opens a saved account
        self._answer(conn, member, msg.id)

    def login(self, conn: Connection, msg: m.AccountLogin) -> None:
        login = msg.login.strip().casefold()
        member = self.store.by_login(login)
        keys = self._guess_keys(conn, login, member)
        now = self.now()
        wait = self.guard.take(keys, now)  # counted before the hash: no guess in flight is free
        if wait > 0:
            raise _locked(wait)
        if not self.pool.admit(Lane.LOGIN):
            self.guard.refund(keys, now)
            raise ProtocolError(ErrorCode.BUSY, "too many account requests now: retry")
        self._spawn(conn, msg.id, Lane.LOGIN, self._login(conn, msg, member, keys))

    def _guess_keys(self, conn: Connection, login: str, member: Member | None) -> tuple[str, ...]:
        """The buckets a login guess spends: the member's own (his device, or an address where
        he is logged in) or those of strangers (the login's and the address's)."""
        if member is not None and (
            conn.device == member.id or self.logged_in(member.id, conn.address)
        ):
            return (f"trusted:{login}",)
        return (f"login:{login}", f"address:{conn.address}")

    async def _login(
        self, conn: Connection, msg: m.AccountLogin, member: Member | None, keys: tuple[str, ...]
    ) -> None:
        if member is None:
            await self.pool.run(Lane.LOGIN, _check_unknown, self.params, msg.password)
            raise ProtocolError("account.bad_credentials", "wrong login or password")
        ok = await self.pool.run(Lane.LOGIN, verify_password, member.password_hash, msg.password)
        current = self.store.by_id(member.id)
        if not ok or current is None or current.version != member.version:
            # (a password changed while this one was checked: the old one opens nothing)
            raise ProtocolError("account.bad_credentials", "wrong login or password")
        self.guard.refund(keys, self.now())
        self._answer(conn, current, msg.id)

    def update(self, conn: Connection, msg: m.AccountUpdate) -> None:
        member = self.member_of(msg.token)  # only the token's member: never another one
        if msg.lang is not None and msg.lang not in LANGUAGES:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "lang: fr or en")
        try:
            display = member.display if msg.display is None else check_display(msg.display, "")
            if msg.new_password is not None:
                check_password(msg.new_password, member.login)
        except PasswordError as exc:
            raise ProtocolError("account.weak_password", str(exc)) from None
        except MemberError as exc:
            raise ProtocolError(exc.code, exc.message) from None
        changed = replace(member, display=display or member.display, lang=msg.lang or member.lang)
        if msg.new_password is None:
            self.store.update(changed)
            self._answer(conn, changed, msg.id)
            return
        keys = (f"member:{member.id}",)  # a stolen session does not guess the password either
        now = self.now()
        wait = self.guard.take(keys, now)
        if wait > 0:
            raise _locked(wait)
        if not self.pool.admit(Lane.LOGIN):
            self.guard.refund(keys, now)
            raise ProtocolError(ErrorCode.BUSY, "too many account requests now: retry")
        self._spawn(conn, msg.id, Lane.LOGIN, self._new_password(conn, msg, changed, keys))

    async def _new_password(
        self, conn: Connection, msg: m.AccountUpdate, member: Member, keys: tuple[str, ...]
    ) -> None:
        password = msg.password or ""
        ok = await self.pool.run(Lane.LOGIN, verify_password, member.password_hash, password)
        if msg.password is None or not ok:
            raise ProtocolError("account.bad_credentials", "the current password is wrong")
        self.guard.refund(keys, self.now())
        hashed = await self.pool.run(Lane.LOGIN, hash_password, msg.new_password or "", self.params)
        current = self.store.by_id(member.id)
        if current is None or current.version != member.version:
            raise ProtocolError(ErrorCode.BAD_TOKEN, "this session ended: log in again")
        renewed = replace(member, password_hash=hashed, version=member.version + 1)
        self.store.update(renewed)  # the older sessions end with this write
        self._end_sessions(renewed, keep=conn)
        self._answer(conn, renewed, msg.id)

    # ------------------------------------------------------------------ the work

    def _spawn(
        self, conn: Connection, ref: int | None, lane: Lane, work: Coroutine[Any, Any, None]
    ) -> None:
        """Run an admitted request (its place in ``lane`` is given back when it ends)."""
        task = asyncio.get_running_loop().create_task(self._guarded(conn, ref, lane, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(
        self, conn: Connection, ref: int | None, lane: Lane, work: Coroutine[Any, Any, None]
    ) -> None:
        try:
            await work
        except (ProtocolError, MemberError) as exc:
            conn.deliver(encode(m.Error(code=exc.code, message=exc.message, ref=ref)))
        except MemberStoreError:
            log.exception("the members' store failed")
            error = m.Error(code=ErrorCode.INTERNAL, message="not saved: retry later", ref=ref)
            conn.deliver(encode(error))
        finally:
            self.pool.done(lane)

    def _answer(self, conn: Connection, member: Member, ref: int | None) -> None:
        self._open(conn, member)
        account = m.Account(
            member=member.id,
            login=member.login,
            display=member.display,
            lang=member.lang,
            token=self.token(member),
            ref=ref,
        )
        conn.deliver(encode(account))
