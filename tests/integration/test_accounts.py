"""Member accounts on a real server (issue 15): register, log in, a session that survives a
reload and a restart, guessing slowed down, a new password that ends the old sessions, a
session that acts only for its member, and passwords stored only as Scrypt hashes."""

from __future__ import annotations

import asyncio
import sqlite3

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import Server, WsClient

PASSWORD = "la bonne main 2026"
STRANGER = "127.0.0.2"
"""Another address to the server's limits (the member's connections come from 127.0.0.1)."""


async def guest(
    server: Server, name: str, member: str | None = None, source: str | None = None
) -> tuple[WsClient, m.Welcome]:
    client = await WsClient.connect(server.port, name, source=source)
    await client.send(m.Hello(version=m.PROTOCOL_VERSION, member=member))
    welcome = await client.wait_type(m.Welcome, 5)
    return client, welcome


async def answer(client: WsClient, message: m.Message, timeout: float = 10) -> m.Message:
    ref = getattr(message, "id", None)
    await client.send(message)
    return await client.wait_for(lambda x: getattr(x, "ref", None) == ref, timeout)


@pytest.mark.asyncio
async def test_a_member_registers_logs_in_and_keeps_his_session(launch: Launch) -> None:
    server = launch()
    ana, _ = await guest(server, "ana")
    made = await answer(
        ana, m.AccountRegister(login="Ana", password=PASSWORD, display="Ana B.", id=1)
    )
    assert isinstance(made, m.Account), made
    assert (made.login, made.display, made.lang) == ("ana", "Ana B.", "fr")
    taken = await answer(ana, m.AccountRegister(login="ANA", password=PASSWORD, id=2))
    assert isinstance(taken, m.Error) and taken.code == "account.taken"
    weak = await answer(ana, m.AccountRegister(login="bob", password="short", id=3))
    assert isinstance(weak, m.Error) and weak.code == "account.weak_password"

    # a reload: hello with the session token is the member again
    _, welcome = await guest(server, "ana-2", made.token)
    assert welcome.member == made.member and welcome.nickname == "Ana B."
    # after a restart too (the members' file is in the data directory)
    server.stop()
    server.start()
    back, welcome = await guest(server, "ana-3", made.token)
    assert welcome.member == made.member
    logged = await answer(back, m.AccountLogin(login="ana", password=PASSWORD, id=4))
    assert isinstance(logged, m.Account) and logged.member == made.member

    # stored only as a Scrypt hash
    db = sqlite3.connect(server.data / "members.sqlite")
    (stored,) = db.execute("SELECT password_hash FROM members WHERE login='ana'").fetchone()
    db.close()
    assert stored.startswith("scrypt$15$8$1$") and PASSWORD not in stored
    assert PASSWORD.encode() not in (server.data / "members.sqlite").read_bytes()


@pytest.mark.asyncio
async def test_guessing_is_locked_out_and_a_new_password_ends_old_sessions(
    launch: Launch,
) -> None:
    server = launch()
    ana, _ = await guest(server, "ana")
    made = await answer(ana, m.AccountRegister(login="ana", password=PASSWORD, id=1))
    assert isinstance(made, m.Account)
    thief, _ = await guest(server, "thief", source=STRANGER)  # not where ana is logged in
    codes = []
    for k in range(7):
        refused = await answer(
            thief, m.AccountLogin(login="ana", password=f"guess {k}!x", id=10 + k)
        )
        assert isinstance(refused, m.Error)
        codes.append(refused.code)
    # a wrong password and an unknown login look the same; then the address waits
    assert codes[:5] == ["account.bad_credentials"] * 5 and codes[5:] == ["account.locked"] * 2
    unknown = await answer(thief, m.AccountLogin(login="nobody", password=PASSWORD, id=30))
    assert isinstance(unknown, m.Error) and unknown.code in (
        "account.bad_credentials",
        "account.locked",
    )
    # even the right password waits (from this address): every guess counts before it is
    # checked
    locked = await answer(thief, m.AccountLogin(login="ana", password=PASSWORD, id=31))
    assert isinstance(locked, m.Error) and locked.code == "account.locked"

    # a session acts only for its own member: a forged token, then the real change
    forged = made.token[:-3] + ("AAA" if not made.token.endswith("AAA") else "BBB")
    refused = await answer(thief, m.AccountUpdate(token=forged, display="Pwned", id=40))
    assert isinstance(refused, m.Error) and refused.code == "bad_token"
    wrong = await answer(
        ana,
        m.AccountUpdate(
            token=made.token, password="not it at all", new_password="a whole new one!", id=41
        ),
    )
    assert isinstance(wrong, m.Error) and wrong.code == "account.bad_credentials"
    renewed = await answer(
        ana,
        m.AccountUpdate(
            token=made.token, password=PASSWORD, new_password="une autre main 2027", id=42
        ),
    )
    assert isinstance(renewed, m.Account) and renewed.token != made.token
    _, old = await guest(server, "old", made.token)
    assert old.member is None  # the old session ended with the new password
    _, new = await guest(server, "new", renewed.token)
    assert new.member == made.member
    stale = await answer(ana, m.AccountUpdate(token=made.token, display="Old", id=43))
    assert isinstance(stale, m.Error) and stale.code == "bad_token"


@pytest.mark.asyncio
async def test_a_flood_of_logins_never_stalls_the_tables(launch: Launch) -> None:
    # no guess limit here: what is measured is the hashing threads' queue
    server = launch(max_guesses_per_address=0, max_guesses_per_login=0)
    clients = [await guest(server, f"c{k}") for k in range(6)]
    sends = [
        c.send(m.AccountLogin(login=f"user{k}{j}", password="whatever it is", id=100 + j))
        for k, (c, _) in enumerate(clients)
        for j in range(6)
    ]
    loop = asyncio.get_running_loop()
    probe, _ = await guest(server, "probe")
    await asyncio.gather(*sends)
    # the event loop still answers at once while 36 hashes wait for their two threads
    started = loop.time()
    await probe.send(m.Ping(nonce=7))
    pong = await probe.wait_type(m.Pong, 5)
    assert pong.nonce == 7 and loop.time() - started < 1.0
    answers = []
    for client, _ in clients:
        for j in range(6):
            got = await client.wait_for(lambda x, j=j: getattr(x, "ref", None) == 100 + j, 60)
            answers.append(got.code if isinstance(got, m.Error) else "ok")
    # each request is answered: refused as a guess, locked out, or busy beyond the queue
    assert len(answers) == 36
    assert set(answers) <= {"account.bad_credentials", "account.locked", "busy"}
    assert "busy" in answers  # 36 at once: more than the 16 the desk queues
