"""The rail of tournament tables over the wire: live by default (the public events of the hand
in play as they happen, never a hole card), or the commentary mode the director chooses (one
hand behind, with the hole cards of the finished hands, never of the hand in play).

Real gateway, in-memory director, fake clock (the ``test_table_slips`` harness): a hand moves
only when the test moves time, so "while the hand is played" is exact.
"""

from __future__ import annotations

from collections.abc import Callable

import pytest

from protocol import messages as m
from server.tournament.errors import ConfigError
from server.tournament.live import load_tournament
from tests.integration.wsclient import WsClient

from .test_second_chances import bust_index
from .test_table_slips import ONE_TABLE, Cup, cup_factory, playing

__all__ = ["cup_factory"]  # the fixture, used here


def live_cards(client: WsClient, table: str, hand: int | None) -> list[str]:
    """Hole cards ``client`` holds of ``hand`` (the hand in play), from events or snapshots."""
    out = [f"hole {x.seat}" for x in client.of(m.HoleCards) if x.cards and x.hand == hand]
    for snap in client.of(m.Snapshot):
        if snap.table == table and ("hole" in snap.state or "menu" in snap.state):
            out.append(f"snapshot {snap.seq}")
    return out


async def watch(cup: Cup, name: str, table: str) -> WsClient:
    rail = await cup.connect(name)
    await rail.send(m.JoinTable(table=table))
    await rail.wait_type(m.Snapshot, 5, table=table)
    return rail


@pytest.mark.asyncio
async def test_the_tournament_rail_is_live_and_never_sees_a_hole_card(
    cup_factory: Callable[[str], Cup],
) -> None:
    cup = cup_factory(ONE_TABLE)
    await cup.open()
    await cup.start(4)
    player = cup.players[0]
    table = cup.table_of(player)
    rail = await watch(cup, "rail", table)
    for _ in range(4):
        await cup.until(lambda: playing(player, table) not in (None, *ended(rail)))
        hand = playing(player, table)
        # mid-hand: the rail has the hand's public events, a snapshot shows it live
        assert [x for x in rail.of(m.ActionEvent) if x.hand == hand]
        assert [x for x in rail.of(m.HoleCards) if x.hand == hand]
        assert hand not in ended(rail)
        late = await watch(cup, f"late{hand}", table)
        snap = late.of(m.Snapshot)[-1]
        assert snap.state["hand"] == hand and snap.state["phase"] == "betting"
        assert snap.state["board"] is not None and "to_act" in snap.state
        for who in (rail, late):
            assert live_cards(who, table, hand) == [], who.name
        cup.all_in.add(table)  # to the end of the hand (and busts)
        await cup.until(lambda h=hand: h in ended(rail), limit=60)
        cup.all_in.discard(table)
        if len([p for p in cup.players if bust_index(p) is None]) < 2:
            break
    assert all(not x.cards for x in rail.of(m.HoleCards))
    assert not rail.of(m.HoleProof)
    # the busted players watch on (spectators of the table): never a card again
    out = [p for p in cup.players if bust_index(p) is not None]
    assert out, "nobody busted: nothing checked"
    for p in out:
        since = bust_index(p) or 0
        assert not [x for x in p.messages[since:] if isinstance(x, m.HoleCards) and x.cards]
    assert cup.live.host.public_state()["spectators"] == "live"


def ended(client: WsClient) -> set[int]:
    return {x.hand for x in client.of(m.HandEnd)}


@pytest.mark.asyncio
async def test_commentary_lags_a_hand_and_shows_only_the_finished_hands_cards(
    cup_factory: Callable[[str], Cup],
) -> None:
    cup = cup_factory(ONE_TABLE)
    await cup.open()
    await cup.start(3)
    assert cup.boss is not None
    mark = len(cup.boss.messages)
    await cup.direct("spectators", text="on air")
    refused = await cup.boss.wait_type(m.Error, 5, since=mark)
    assert refused.code == "out_of_range"
    await cup.direct("spectators", text="commentary")
    await cup.until(lambda: cup.live.host.public_state()["spectators"] == "commentary", 2)
    player = cup.players[0]
    table = cup.table_of(player)
    await cup.until(lambda: playing(player, table) is not None)
    first = playing(player, table)
    assert first is not None
    rail = await watch(cup, "rail", table)
    checked = 0
    for _ in range(400):  # 200 s of tournament clock at most
        if checked >= 3:
            break
        await cup.step(0.5)
        hand = playing(player, table)
        if hand is None or hand == first:
            continue
        # a hand in play: nothing of it on the rail, and never one of its cards
        assert not [x for x in rail.of(m.HandStart) if x.hand == hand]
        assert live_cards(rail, table, hand) == []
        cup.all_in.add(table)
        leaks: list[str] = []

        def over(h: int = hand, leaks: list[str] = leaks) -> bool:
            leaks.extend(live_cards(rail, table, playing(player, table)))
            return h in ended(player)

        await cup.until(over, limit=60)
        cup.all_in.discard(table)
        await cup.quiet()
        assert leaks == []
        # over: the rail gets it, with every hole card dealt, as each player saw his own
        shown = {x.seat: x.cards for x in rail.of(m.HoleCards) if x.hand == hand}
        dealt = next(x for x in player.of(m.HandStart) if x.hand == hand)
        assert set(shown) == {int(s) for s in dealt.stacks}
        for p in cup.players:
            own = [x for x in p.of(m.HoleCards) if x.hand == hand and x.cards]
            for x in own:
                assert shown[x.seat] == x.cards
        checked += 1
        if len(dealt.stacks) < 3:
            break
    assert checked >= 1


def test_the_rail_mode_is_a_tournament_setting() -> None:
    _, settings = load_tournament(
        ONE_TABLE.replace("[server]", '[server]\nspectators = "commentary"')
    )
    assert settings.spectators == "commentary"
    with pytest.raises(ConfigError):
        load_tournament(ONE_TABLE.replace("[server]", '[server]\nspectators = "delayed"'))
