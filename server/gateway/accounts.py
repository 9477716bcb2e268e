"""Member accounts over the wire (``account_register``, ``account_login``,
``account_update``, ``hello`` ``member``): the gateway's shell around server.accounts.

The work of a password hash (Scrypt, about 0.1 s and 32 MiB) never runs on the event loop:
at most ``workers`` hashes run in threads at once, and beyond ``queue`` waiting requests the
answer is ``busy``. Guessing is slowed per login and per address (AttemptGuard), and a wrong
login and a wrong password get the same answer. A session token is issued only after what it
opens is saved; a new password raises the member's version, which ends every older session.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import secrets
from collections.abc import Callable, Coroutine
from dataclasses import replace
from typing import Any

from protocol import ErrorCode, ProtocolError, encode
from protocol import messages as m
from server.accounts import (
    AttemptGuard,
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
from server.tokens import TokenAuthority

__all__ = ["MEMBER_TOKEN_SECONDS", "AccountDesk"]

log = logging.getLogger("brasseur.accounts")

MEMBER_TOKEN_SECONDS = 30 * 86400


@functools.cache
def _dummy_hash(params: ScryptParams) -> str:
    """A hash no password gives: an unknown login costs the same work as a known one."""
    return hash_password(secrets.token_urlsafe(32), params)


class AccountDesk:
    def __init__(
        self,
        store: MemberBook,
        auth: TokenAuthority,
        now: Callable[[], float],
        params: ScryptParams | None = None,
        workers: int = 2,
        queue: int = 16,
    ) -> None:
        self.store = store
        self.auth = auth
        self.now = now
        self.params = params or ScryptParams()
        self.guard = AttemptGuard()
        self._workers = asyncio.Semaphore(workers)
        self._queue = queue
        self._pending = 0
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
        entries carry his id); a connection that already has a seat identity keeps it."""
        member = self.member_of(token)
        conn.member = member.id
        conn.nickname = member.display
        if conn.pid is None:
            conn.pid = f"m.{member.id}"
        return member

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
        if self.store.by_login(login) is not None:
            raise ProtocolError("account.taken", "this login is taken")
        self._spawn(conn, msg.id, self._register(conn, msg, login, display))

    async def _register(
        self, conn: Connection, msg: m.AccountRegister, login: str, display: str
    ) -> None:
        hashed = await self._hash(msg.password)
        member = Member(
            id=secrets.token_urlsafe(9),
            login=login,
            display=display,
            lang=msg.lang,
            password_hash=hashed,
            created=self.now(),
        )
        self._save(member, new=True)  # saved first: the token opens a saved account
        self._answer(conn, member, msg.id)

    def login(self, conn: Connection, msg: m.AccountLogin) -> None:
        login = msg.login.strip().casefold()
        keys = (f"login:{login}", f"address:{conn.address}")
        wait = max(self.guard.wait(key, self.now()) for key in keys)
        if wait > 0:
            raise ProtocolError("account.locked", f"too many attempts: try again in {wait:.0f} s")
        self._spawn(conn, msg.id, self._login(conn, msg, login, keys))

    async def _login(
        self, conn: Connection, msg: m.AccountLogin, login: str, keys: tuple[str, ...]
    ) -> None:
        member = self.store.by_login(login)
        stored = member.password_hash if member is not None else _dummy_hash(self.params)
        ok = await self._verify(stored, msg.password)
        if member is None or not ok:
            for key in keys:
                self.guard.failed(key, self.now())
            raise ProtocolError("account.bad_credentials", "wrong login or password")
        for key in keys:
            self.guard.succeeded(key)
        self._answer(conn, member, msg.id)

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
            self._save(changed, new=False)
            self._answer(conn, changed, msg.id)
            return
        key = f"member:{member.id}"  # a stolen session does not guess the password either
        wait = self.guard.wait(key, self.now())
        if wait > 0:
            raise ProtocolError("account.locked", f"too many attempts: try again in {wait:.0f} s")
        self._spawn(conn, msg.id, self._new_password(conn, msg, changed, key))

    async def _new_password(
        self, conn: Connection, msg: m.AccountUpdate, member: Member, key: str
    ) -> None:
        if msg.password is None or not await self._verify(member.password_hash, msg.password):
            self.guard.failed(key, self.now())
            raise ProtocolError("account.bad_credentials", "the current password is wrong")
        self.guard.succeeded(key)
        hashed = await self._hash(msg.new_password or "")
        renewed = replace(member, password_hash=hashed, version=member.version + 1)
        self._save(renewed, new=False)  # the older sessions end with this write
        self._answer(conn, renewed, msg.id)

    # ------------------------------------------------------------------ the work

    def _spawn(self, conn: Connection, ref: int | None, work: Coroutine[Any, Any, None]) -> None:
        if self._pending >= self._queue:
            work.close()
            raise ProtocolError(ErrorCode.BUSY, "too many account requests now: retry")
        self._pending += 1
        task = asyncio.get_running_loop().create_task(self._guarded(conn, ref, work))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _guarded(
        self, conn: Connection, ref: int | None, work: Coroutine[Any, Any, None]
    ) -> None:
        try:
            await work
        except ProtocolError as exc:
            conn.deliver(encode(m.Error(code=exc.code, message=exc.message, ref=ref)))
        except MemberError as exc:
            conn.deliver(encode(m.Error(code=exc.code, message=exc.message, ref=ref)))
        except MemberStoreError:
            log.exception("the members' store failed")
            error = m.Error(code=ErrorCode.INTERNAL, message="not saved: retry later", ref=ref)
            conn.deliver(encode(error))
        finally:
            self._pending -= 1

    async def _hash(self, password: str) -> str:
        async with self._workers:
            return await asyncio.to_thread(hash_password, password, self.params)

    async def _verify(self, stored: str, password: str) -> bool:
        async with self._workers:
            return await asyncio.to_thread(verify_password, stored, password)

    def _save(self, member: Member, new: bool) -> None:
        if new:
            self.store.add(member)
        else:
            self.store.update(member)

    def _answer(self, conn: Connection, member: Member, ref: int | None) -> None:
        conn.member = member.id
        conn.nickname = member.display
        if conn.pid is None:
            conn.pid = f"m.{member.id}"
        account = m.Account(
            member=member.id,
            login=member.login,
            display=member.display,
            lang=member.lang,
            token=self.token(member),
            ref=ref,
        )
        conn.deliver(encode(account))
