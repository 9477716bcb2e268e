"""Accounts that hold under abuse, on a real server (issue 26): a registration flood bounded
per address that never starves a member's logins, sixteen concurrent wrong guesses counted
before they are checked, a stranger who cannot lock a member out, a password change that
ends the member's other connections at once, and the reserved names.

Each 127.0.0.x source address is another person to the server's per-address limits."""

from __future__ import annotations

import asyncio
import sqlite3
import time

import pytest

from protocol import messages as m

from .conftest import Launch
from .wsclient import Server, WsClient

PASSWORD = "la bonne main 2026"
HOME = "127.0.0.1"
STRANGER = "127.0.0.2"


async def hello(
    server: Server, name: str, source: str, member: str | None = None, nickname: str | None = None
) -> tuple[WsClient, m.Welcome]:
    client = await WsClient.connect(server.port, name, source=source)
    await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname=nickname, member=member))
    return client, await client.wait_type(m.Welcome, 5)


async def answer(client: WsClient, message: m.Message, timeout: float = 30) -> m.Message:
    ref = getattr(message, "id", None)
    mark = len(client.messages)
    await client.send(message)
    return await client.wait_for(lambda x: getattr(x, "ref", None) == ref, timeout, mark)


async def answers(client: WsClient, refs: range, timeout: float = 60) -> list[m.Message]:
    return [
        await client.wait_for(lambda x, r=r: getattr(x, "ref", None) == r, timeout) for r in refs
    ]


def code(message: m.Message) -> str:
    return message.code if isinstance(message, m.Error) else message.TYPE


@pytest.mark.asyncio
async def test_a_registration_flood_is_bounded_per_address_and_never_starves_logins(
    launch: Launch,
) -> None:
    server = launch(max_accounts_per_address=5)  # (20 by default: a club behind one router)
    home, _ = await hello(server, "ana", HOME)
    made = await answer(home, m.AccountRegister(login="ana", password=PASSWORD, id=1))
    assert isinstance(made, m.Account)

    # one connection creates accounts in a loop while ana logs in from elsewhere
    flood, _ = await hello(server, "flood", STRANGER)
    await asyncio.gather(
        *(
            flood.send(m.AccountRegister(login=f"bot{k:03}", password=PASSWORD, id=100 + k))
            for k in range(40)
        )
    )
    logins = []
    for k in range(5):
        client, _ = await hello(server, f"ana-{k}", "127.0.0.3")
        logins.append(await answer(client, m.AccountLogin(login="ana", password=PASSWORD, id=9)))
    flooded = [code(x) for x in await answers(flood, range(100, 140))]
    # and then one after the other, as a patient flood would
    for k in range(40, 50):
        message = m.AccountRegister(login=f"bot{k:03}", password=PASSWORD, id=100 + k)
        flooded.append(code(await answer(flood, message)))

    assert [code(x) for x in logins] == ["account"] * 5  # never busy, never refused
    # Limits.accounts_per_address: 5 at once here (then one every 12 minutes); beyond the
    # registrations' own queue (4), ``busy`` spends nothing
    assert flooded.count("account") == 5, flooded
    assert set(flooded) <= {"account", "account.registration_limit", "busy"}
    assert flooded[-5:] == ["account.registration_limit"] * 5
    db = sqlite3.connect(server.data / "members.sqlite")
    (stored,) = db.execute("SELECT COUNT(*) FROM members").fetchone()
    db.close()
    assert stored == 1 + flooded.count("account")

    # asking which logins exist costs the same tokens: five probes an hour per address
    probe, _ = await hello(server, "probe", "127.0.0.4")
    probes = [
        code(await answer(probe, m.AccountRegister(login="ana", password=PASSWORD, id=200 + k)))
        for k in range(7)
    ]
    assert probes == ["account.taken"] * 5 + ["account.registration_limit"] * 2


@pytest.mark.asyncio
async def test_concurrent_guesses_are_counted_before_they_are_checked_and_the_member_gets_in(
    launch: Launch,
) -> None:
    server = launch()
    home, _ = await hello(server, "ana", HOME)
    made = await answer(home, m.AccountRegister(login="ana", password=PASSWORD, id=1))
    assert isinstance(made, m.Account)

    # 16 wrong guesses sent at once from one address: five are checked (the address's bucket)
    thief, _ = await hello(server, "thief", STRANGER)
    await asyncio.gather(
        *(
            thief.send(m.AccountLogin(login="ana", password=f"guess {k} !x", id=10 + k))
            for k in range(16)
        )
    )
    first = [code(x) for x in await answers(thief, range(10, 26))]
    assert first.count("account.bad_credentials") == 5
    assert first.count("account.locked") == 11
    # one address alone does not lock the member out: right password, another address
    roaming, _ = await hello(server, "ana-phone", "127.0.0.3")
    back = await answer(roaming, m.AccountLogin(login="ana", password=PASSWORD, id=30))
    assert isinstance(back, m.Account)

    # a botnet: four more addresses, five guesses each at once
    botnet = [(await hello(server, f"bot{k}", f"127.0.1.{k}"))[0] for k in range(4)]
    await asyncio.gather(
        *(
            bot.send(m.AccountLogin(login="ana", password=f"bot {k} {j}!", id=40 + j))
            for k, bot in enumerate(botnet)
            for j in range(5)
        )
    )
    second = [code(x) for bot in botnet for x in await answers(bot, range(40, 45))]
    # the login's bound: 10 guesses at once (then 10 an hour), whatever the concurrency
    wrong = first.count("account.bad_credentials") + second.count("account.bad_credentials")
    assert wrong == 10, (first, second)
    assert set(second) == {"account.bad_credentials", "account.locked"}

    # the login is slowed down for strangers: a new address without any session waits...
    fresh, _ = await hello(server, "ana-cafe", "127.0.0.5")
    slowed = await answer(fresh, m.AccountLogin(login="ana", password=PASSWORD, id=50))
    assert code(slowed) == "account.locked"
    # ...but not the member: from an address where he is logged in (the phone's)...
    desk, _ = await hello(server, "ana-desk", "127.0.0.3")
    ok = await answer(desk, m.AccountLogin(login="ana", password=PASSWORD, id=51))
    assert isinstance(ok, m.Account)
    # ...or from a browser that keeps one of his session tokens, anywhere
    laptop, welcome = await hello(server, "ana-laptop", "127.0.0.6", member=made.token)
    assert welcome.member == made.member
    again = await answer(laptop, m.AccountLogin(login="ana", password=PASSWORD, id=52))
    assert isinstance(again, m.Account)
    # and the strangers still wait
    late = await answer(botnet[0], m.AccountLogin(login="ana", password="one more !", id=53))
    assert code(late) == "account.locked"


async def league_event(client: WsClient, token: str) -> str:
    """A league of the member's, a season, and an event a day ahead that requires an
    account: its tournament id."""
    made = await answer(client, m.LeagueCreate(member=token, name="Club", id=client.next_id()))
    assert isinstance(made, m.League), made
    season = await answer(
        client,
        m.SeasonCreate(
            member=token, league=made.league, name="2026", points="places:10,6", id=client.next_id()
        ),
    )
    assert isinstance(season, m.League), season
    scheduled = await answer(
        client,
        m.LeagueEventCreate(
            member=token,
            league=made.league,
            season=season.seasons[0]["id"],
            name="Etape 1",
            kind="tournament",
            structure="tour_des_potes_bb_ante",
            starts_at=int(time.time()) + 86400,
            requires_account=True,
            id=client.next_id(),
        ),
    )
    assert isinstance(scheduled, m.League), scheduled
    return str(scheduled.seasons[0]["events"][0]["tournament"])


@pytest.mark.asyncio
async def test_a_password_change_ends_the_members_rights_on_his_other_connections(
    launch: Launch,
) -> None:
    server = launch()
    mine, _ = await hello(server, "ana", HOME, nickname="Ana")
    made = await answer(mine, m.AccountRegister(login="ana", password=PASSWORD, id=1))
    assert isinstance(made, m.Account)
    tid = await league_event(mine, made.token)
    other, welcome = await hello(server, "ana-tab", HOME, member=made.token)
    far, _ = await hello(server, "ana-phone", "127.0.0.3", member=made.token)
    assert welcome.member == made.member

    renewed = await answer(
        mine,
        m.AccountUpdate(
            token=made.token, password=PASSWORD, new_password="une autre main 2027", id=5
        ),
    )
    assert isinstance(renewed, m.Account)
    # every other connection is told at once, and is a guest from now on
    for client in (other, far):
        told = await client.wait_for(lambda x: isinstance(x, m.Error) and x.ref is None, 5)
        assert isinstance(told, m.Error) and told.code == "account.session_ended"
        refused = await answer(client, m.Register(tournament=tid, id=client.next_id()))
        assert isinstance(refused, m.Error), refused
    # the connection that changed it keeps the member's rights
    entered = await answer(mine, m.Register(tournament=tid, id=6))
    assert isinstance(entered, m.Registered), entered
    assert entered.player == f"m.{made.member}"
    assert not [x for x in mine.messages if isinstance(x, m.Error) and x.ref is None]


@pytest.mark.asyncio
async def test_reserved_names_are_refused_as_nicknames_and_display_names(launch: Launch) -> None:
    server = launch()
    client = await WsClient.connect(server.port, "imitator")
    for nickname in ("director", "Director", " DIRECTOR ", "d1rector", "dіrector", "Hôst"):
        await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname=nickname))
        refused = await client.wait_for(lambda x: isinstance(x, m.Error), 5, len(client.messages))
        assert isinstance(refused, m.Error) and refused.code == "reserved_name", nickname
    assert not [x for x in client.messages if isinstance(x, m.Welcome)]
    # still a guest who has not said hello: nothing else is allowed
    nothing = await answer(client, m.AccountLogin(login="ana", password=PASSWORD, id=1))
    assert code(nothing) == "not_authenticated"
    await client.send(m.Hello(version=m.PROTOCOL_VERSION, nickname="Ana"))
    assert (await client.wait_type(m.Welcome, 5)).nickname == "Ana"

    for k, (login, display) in enumerate((("ana", "H0ST"), ("director", ""), ("bob", "Admin"))):
        refused = await answer(
            client, m.AccountRegister(login=login, password=PASSWORD, display=display, id=10 + k)
        )
        assert code(refused) == "reserved_name", (login, display)
    made = await answer(client, m.AccountRegister(login="ana", password=PASSWORD, id=20))
    assert isinstance(made, m.Account)
    renamed = await answer(client, m.AccountUpdate(token=made.token, display="Sy5tem", id=21))
    assert code(renamed) == "reserved_name"
