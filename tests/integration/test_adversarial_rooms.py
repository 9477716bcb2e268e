"""The messages added for cash rooms, the option, accounts and leagues, attacked as the
older ones are (tests/integration/test_adversarial.py): forged and borrowed tokens, wrong
types and sizes, orders for a table that is not one's own. Each gets its stable code
(docs/protocol.md "Error codes"), the connection is still served, and the honest tables go
on without an error, a gap or a chip created or lost."""

from __future__ import annotations

import pytest

from protocol import encode
from protocol import messages as m
from protocol.codec import to_wire
from tests.protocol import docs

from .conftest import Launch
from .test_adversarial import ANNEX, TABLE, arena, check_unharmed, hands_so_far, pack
from .wsclient import WsClient

DOCUMENTED = docs.error_codes()
"""Every code docs/protocol.md's "Error codes" lists (a test checks it against the sources)."""


async def expect(client: WsClient, frame: bytes, *codes: str) -> m.Error:
    error = await client.request_error(frame)
    assert error.code in codes, (frame[:80], error)
    assert error.code in DOCUMENTED, error.code
    return error


@pytest.mark.asyncio
async def test_the_new_messages_refuse_forgeries_and_bad_input_and_harm_nobody(
    launch: Launch,
) -> None:
    a = await arena(launch)
    since = hands_so_far(a)
    bad = await WsClient.connect(a.server.port, "mallory")
    assert isinstance(await bad.hello(a.server.invite, "mallory"), m.Welcome)
    invite = a.server.invite
    forged = invite[:-4] + ("AAAA" if not invite.endswith("AAAA") else "BBBB")

    # cash rooms: a friends table has no room; a borrowed invite or a forged token orders
    # nothing; a room is joined only with a cash table's host token
    await expect(bad, encode(m.ChangeTable(table=TABLE, to=ANNEX)), "cash.room")
    await expect(bad, encode(m.ChangeTable(table=TABLE, to="nowhere")), "unknown_table")
    for token in (invite, forged):
        for op in ("balance", "merge", "move"):
            order = m.Host(table=TABLE, token=token, op=op, to=ANNEX, seat=1)
            await expect(bad, encode(order), "bad_token")
    for token in (invite, forged):
        create = m.CreateTable(name="x", game="cash", profile="casino", room=token)
        await expect(bad, encode(create), "bad_token")
    # the option and seasons belong to cash tables, seasons to a league's directors
    await expect(bad, encode(m.TakeOption(table=TABLE, on=True)), "not_seated", "cash.option")
    season = m.CreateTable(name="x", game="cash", profile="fpc", season="l/s")
    await expect(bad, encode(season), "league.not_member")
    plain = m.CreateTable(name="x", season="l/s")
    await expect(bad, encode(plain), "out_of_range")
    # accounts: wrong types, sizes and forged sessions
    login = to_wire(m.AccountLogin(login="ana", password="whatever it is"))
    await expect(bad, pack({**login, "login": 5}), "bad_type")
    await expect(bad, pack({**login, "password": "x" * 257}), "out_of_range")
    await expect(bad, pack({**login, "admin": True}), "unknown_field")
    await expect(bad, encode(m.AccountUpdate(token=forged, display="x")), "bad_token")
    await expect(bad, encode(m.AccountUpdate(token=invite, display="x")), "bad_token")
    await expect(bad, encode(m.AccountRegister(login="-x", password="p" * 12)), "account.bad_login")
    # leagues: a forged or borrowed session is no member
    for token in (forged, invite):
        await expect(bad, encode(m.LeagueCreate(member=token, name="x")), "bad_token")
        await expect(bad, encode(m.LeagueGet(member=token, league="x")), "bad_token")
    # still served, and nobody else noticed anything
    await bad.send(m.Ping(nonce=9))
    await bad.wait_type(m.Pong, 3, nonce=9)
    await check_unharmed(a, since)
