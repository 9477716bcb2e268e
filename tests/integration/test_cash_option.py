"""The casino « option » on a real server: a seated player asks for it with ``option`` and
posts two big blinds, live, whenever he is the first player after the big blind.

casino cash [53]: « L'option est autorisée en Cash Game, il est possible de rentrer sur la
table directement en option. »
"""

from __future__ import annotations

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_cash import CASH, RULES, sit
from .wsclient import Player, WsClient, table_config

BB = 50


def first_after(big_blind: int, dealt_in: list[int]) -> int:
    """The first seat dealt in left of the big blind (``HandSetup.option_seat``)."""
    seats = sorted(dealt_in)
    return next((s for s in seats if s > big_blind), seats[0])


@pytest.mark.asyncio
async def test_a_player_who_asks_for_the_option_posts_it_first_after_the_big_blind(
    launch: Launch,
) -> None:
    config = table_config(CASH, profile="casino", sb=25, bb=BB, max_seats=6, cash=RULES)
    server = launch(tables=(config,))
    clients = {s: await sit(server, f"p{s}", s, 1000) for s in (1, 2, 3, 4)}
    for s, client in clients.items():
        Player(client, seed=s, table=CASH)  # passive: checks or calls
    straddler = clients[3]
    asked = straddler.next_id()
    await straddler.send(m.TakeOption(table=CASH, on=True, id=asked))
    said = await straddler.wait_type(m.Notice, 5, kind="option")
    assert said.table == CASH
    # within ten hands seat 3 is first after the big blind once at least, and posts
    posted = await clients[1].wait_for(
        lambda x: isinstance(x, m.ActionEvent) and x.action == "post_option", 60
    )
    assert isinstance(posted, m.ActionEvent)
    start = next(x for x in clients[1].of(m.HandStart) if x.hand == posted.hand)
    assert posted.seat == 3 == first_after(start.big_blind, [int(s) for s in start.stacks])
    assert posted.added == posted.to == 2 * BB and posted.hand <= 10
    assert not [e for e in straddler.of(m.Error) if e.ref == asked]
    # the snapshot says the table offers the option, and who posts it
    watcher = await WsClient.connect(server.port, "w")
    await watcher.hello(server.invites[CASH], nickname="w")
    await watcher.send(m.JoinTable(table=CASH))
    snapshot = await watcher.wait_type(m.Snapshot, 5)
    cash = snapshot.state["cash"]
    assert cash["option"] is True and cash["straddles"] == [3]
