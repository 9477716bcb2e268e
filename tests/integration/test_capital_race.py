"""The season capital against a member who asks two tables at once, on real servers
(issue 26): a capital of 6,000 and two buy-ins of 5,000 sent at the same instant to two
tables of the season, on one process and across two ``--redis`` processes behind one real
Redis: one is seated, the other refused ``cash.capital``; the capital spent is 5,000, never
10,000. And who may sit at a season's table: members only, by the league's one membership
decision (an outsider, a member awaiting approval and a removed member refused).

fpc cash: « Le joueur ne peut en aucun cas engager une valeur de jetons supérieure à son
capital »."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest

from protocol import messages as m

from .conftest import Launch
from .test_league_cash import PASSWORD, buy, member, table
from .test_leagues import answer, guest
from .wsclient import Server, WsClient

START = 6000


async def season_of(owner: WsClient, token: str, approval: bool = False) -> tuple[m.League, str]:
    made = await answer(owner, m.LeagueCreate(member=token, name="Club", id=owner.next_id()))
    assert isinstance(made, m.League), made
    if approval:
        done = await answer(
            owner,
            m.LeagueSettings(member=token, league=made.league, approval=True, id=owner.next_id()),
        )
        assert isinstance(done, m.League), done
    league = await answer(
        owner,
        m.SeasonCreate(
            member=token, league=made.league, name="2026", points=f"capital:{START}",
            id=owner.next_id(),
        ),
    )  # fmt: skip
    assert isinstance(league, m.League), league
    return made, f"{made.league}/{league.seasons[0]['id']}"


async def logged_in(server: Server, name: str, token: str) -> WsClient:
    return await guest(server, name, token)


async def race(
    one: WsClient, made_one: m.TableCreated, two: WsClient, made_two: m.TableCreated
) -> list[m.Message]:
    """Two buy-ins of 5,000, one per table, sent together (each on its own connection)."""
    for client, made in ((one, made_one), (two, made_two)):
        await client.send(m.JoinTable(table=made.table))
    answers = await asyncio.gather(buy(one, made_one, 1, 5000), buy(two, made_two, 1, 5000))
    return list(answers)


def codes(answers: list[m.Message]) -> list[str]:
    return sorted("seated" if isinstance(a, m.Seated) else getattr(a, "code", "?") for a in answers)


@pytest.mark.asyncio
async def test_two_buy_ins_at_once_on_two_tables_spend_the_capital_once(launch: Launch) -> None:
    server = launch()
    ana, ana_account = await member(server, "ana")
    made, season = await season_of(ana, ana_account.token)
    one = await table(ana, season, "Mardi")
    two = await table(ana, season, "Mardi 2")
    bob, bob_account = await member(server, "bob")
    joined = await answer(bob, m.LeagueJoin(member=bob_account.token, invite=made.invite, id=5))
    assert isinstance(joined, m.League)
    # bob on two connections of his own, one per table, asking at the same instant
    first = await logged_in(server, "bob-1", bob_account.token)
    second = await logged_in(server, "bob-2", bob_account.token)
    answers = await race(first, one, second, two)
    assert codes(answers) == ["cash.capital", "seated"], answers
    refused = next(a for a in answers if isinstance(a, m.Error))
    assert refused.message == "your capital allows 1000"
    standing = server.get_json(
        f"/api/leagues/{made.league}/seasons/{season.split('/')[1]}/standings.json"
    )
    assert [(r["name"], r["capital"]) for r in standing["standings"]] == [("bob", START)]
    # the refused one was released: 1,000 is still his to bring, and no more
    seated_at = one if isinstance(answers[0], m.Seated) else two
    other = two if seated_at is one else one
    other_client = second if seated_at is one else first
    refused_again = await buy(other_client, other, 2, 1001)
    assert isinstance(refused_again, m.Error) and refused_again.code == "cash.capital"
    assert isinstance(await buy(other_client, other, 2, 1000), m.Seated)


@pytest.mark.asyncio
async def test_only_members_sit_at_a_seasons_table(launch: Launch) -> None:
    server = launch()
    ana, ana_account = await member(server, "ana")
    made, season = await season_of(ana, ana_account.token, approval=True)
    one = await table(ana, season, "Mardi")
    # an account in no league: refused, nothing reserved
    out, _ = await member(server, "outsider")
    refused = await buy(out, one, 2, 500)
    assert isinstance(refused, m.Error) and refused.code == "league.not_member", refused
    # a member still awaiting approval: refused
    pend, pend_account = await member(server, "pending")
    asked = await answer(pend, m.LeagueJoin(member=pend_account.token, invite=made.invite, id=7))
    assert isinstance(asked, m.Error | m.League)
    refused = await buy(pend, one, 3, 500)
    assert isinstance(refused, m.Error) and refused.code == "league.awaiting_approval", refused
    # admitted, then removed by the owner: refused again
    for role in ("member", "none"):
        done = await answer(
            ana,
            m.LeagueRole(
                member=ana_account.token, league=made.league, target=pend_account.member,
                role=role, id=ana.next_id(),
            ),
        )  # fmt: skip
        assert isinstance(done, m.League), done
    refused = await buy(pend, one, 4, 500)
    assert isinstance(refused, m.Error) and refused.code == "league.not_member", refused
    # a guest: an account is needed
    stranger = await guest(server, "guest")
    refused = await buy(stranger, one, 5, 500)
    assert isinstance(refused, m.Error) and refused.code == "league.account_required"
    # the owner is a member: seated
    assert isinstance(await buy(ana, one, 1, 500), m.Seated)


@pytest.fixture
def pair(tmp_path: Path, redis_url: str, redis_prefix: str) -> Iterator[list[Server]]:
    servers = [
        Server(tmp_path / name, redis=redis_url, redis_prefix=redis_prefix, process_id=name)
        for name in ("a", "b")
    ]
    try:
        for server in servers:
            server.start()
        yield servers
    finally:
        for server in servers:
            server.stop()


@pytest.mark.asyncio
async def test_the_race_across_two_redis_processes_spends_the_capital_once(
    pair: list[Server],
) -> None:
    a, b = pair
    ana_a, ana_account = await member(a, "ana")
    made, season = await season_of(ana_a, ana_account.token)
    ana_b = await logged_in(b, "ana-b", ana_account.token)
    one = await table(ana_a, season, "On a")
    two = await table(ana_b, season, "On b")
    bob_a = await guest(a, "bob")
    bob = await answer(bob_a, m.AccountRegister(login="bob", password=PASSWORD, id=1), 30)
    assert isinstance(bob, m.Account)
    joined = await answer(bob_a, m.LeagueJoin(member=bob.token, invite=made.invite, id=2))
    assert isinstance(joined, m.League)
    bob_b = await logged_in(b, "bob-b", bob.token)
    answers = await race(bob_a, one, bob_b, two)
    assert codes(answers) == ["cash.capital", "seated"], answers
    for server in (a, b):  # both processes read the one account
        doc = server.get_json(
            f"/api/leagues/{made.league}/seasons/{season.split('/')[1]}/standings.json"
        )
        assert [(r["name"], r["capital"]) for r in doc["standings"]] == [("bob", START)]


@pytest.mark.asyncio
async def test_a_password_changed_on_one_process_ends_the_members_rights_on_another(
    pair: list[Server],
) -> None:
    """docs/accounts.md: a new password ends the member's rights on every other connection;
    across ``--redis`` processes the one that did not see the change ends them at his next
    entry, seat or purchase (his account's version moved on)."""
    a, b = pair
    ana_a, ana_account = await member(a, "ana")
    _, season = await season_of(ana_a, ana_account.token)
    ana_b = await logged_in(b, "ana-b", ana_account.token)
    table_b = await table(ana_b, season, "On b")
    changed = await answer(
        ana_a,
        m.AccountUpdate(
            token=ana_account.token, password=PASSWORD, new_password="une autre main 2027",
            id=ana_a.next_id(),
        ),
    )  # fmt: skip
    assert isinstance(changed, m.Account), changed
    refused = await buy(ana_b, table_b, 1, 1000)
    told = [x for x in ana_b.messages if isinstance(x, m.Error)]
    assert any(x.code == "account.session_ended" for x in told), told
    assert isinstance(refused, m.Error) and refused.code in (
        "account.session_ended",
        "league.account_required",
    ), refused
    # with his new session on b, he buys in
    again = await logged_in(b, "ana-b2", changed.token)
    assert isinstance(await buy(again, table_b, 2, 1000), m.Seated)
