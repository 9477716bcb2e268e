"""Rules slips at the table, on a real ``python -m server`` with real websocket clients.

Each test describes what the rulebooks (``shared/rulebooks``) require of the table and what a
player or a spectator must therefore receive on the wire: the Time never adds time, only a
player in the hand calls it, sitting out is said between hands, the absent player never cuts,
and a hand won without a call is never ranked with cards that were not dealt.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time

import pytest

from protocol import ErrorCode
from protocol import messages as m
from server.engine.cards import evaluate, hand_type, parse_card

from .conftest import Launch
from .wsclient import (
    TABLE,
    Player,
    WsClient,
    always,
    join,
    table_config,
    wait_hands,
)

# ---------------------------------------------------------------------- helpers


def assert_clean(*clients: WsClient) -> None:
    for client in clients:
        assert not client.gaps, (client.name, client.gaps)
        assert not client.bad_frames, (client.name, client.bad_frames)
        assert not client.failures, (client.name, client.failures)


def arrival(client: WsClient, message: m.Message) -> float:
    """When ``message`` reached ``client`` (monotonic)."""
    return client.times[next(i for i, x in enumerate(client.messages) if x is message)]


def index_of(client: WsClient, message: m.Message) -> int:
    return next(i for i, x in enumerate(client.messages) if x is message)


async def sit_out_first(port: int, invite: str, seat: int, name: str) -> WsClient:
    """A player who takes his seat and sits out before any hand is dealt (an empty table:
    the sitting out is said at once)."""
    client = await join(port, invite, seat, name)
    await client.send(m.SitOut(table=TABLE))
    await client.wait_type(m.SeatEvent, 5, seat=seat, status="sitting_out")
    return client


async def call_time(caller: WsClient, hand: int) -> m.Message:
    """Call the Time; the answer is the ``clock_event`` of kind ``time`` or the ``error``."""
    mark = len(caller.messages)
    await caller.send(m.CallClock(table=TABLE, hand=hand))
    return await caller.wait_for(
        lambda x: isinstance(x, m.Error) or (isinstance(x, m.ClockEvent) and x.kind == "time"),
        5,
        since=mark,
    )


async def fold_out(clients: dict[int, WsClient], watch: WsClient, hand: int) -> m.HandEnd:
    """Fold whoever is to act (by his own connection) until ``hand`` is over."""
    answered: set[int] = set()
    loop = asyncio.get_running_loop()
    deadline = loop.time() + 15
    while True:
        ends = [x for x in watch.of(m.HandEnd) if x.hand == hand]
        if ends:
            return ends[0]
        assert loop.time() < deadline, f"hand {hand} never ended"
        turns = [
            (k, x)
            for k, x in enumerate(watch.messages)
            if isinstance(x, m.ClockEvent) and x.hand == hand and x.kind == "action"
        ]
        if turns and turns[-1][0] not in answered and turns[-1][1].seat in clients:
            k, turn = turns[-1]
            answered.add(k)
            await clients[turn.seat].send(m.Act(table=TABLE, hand=hand, verb="fold"))
        mark = len(watch.messages)
        with contextlib.suppress(TimeoutError):
            await watch.wait_for(lambda x: True, 1.0, since=mark)


def seat_events(client: WsClient, seat: int, status: str) -> list[m.SeatEvent]:
    return [x for x in client.of(m.SeatEvent) if x.seat == seat and x.status == status]


# ---------------------------------------------------------------------- 1. the Time


@pytest.mark.asyncio
@pytest.mark.parametrize(("profile", "time_seconds"), [("cdc", 30), ("tda", 60)])
async def test_calling_time_never_adds_time(
    launch: Launch, profile: str, time_seconds: int
) -> None:
    """cdc 3.5: « Quand un délai raisonnable s'est écoulé [...] le « Time » peut être demandé.
    [...] Le joueur qui hésite se verra donner 30 secondes pour prendre une décision, les 5
    dernières secondes étant décomptées à haute voix. [...] Si le joueur n'a toujours pas agi
    à la fin du décompte, sa main sera brûlée. » tda 27: « Si le TD ou un de ses floors
    approuvent la demande, le joueur aura alors 50 secondes pour agir. Si aucune action n'a
    été prise dans ce temps, il y aura alors 10 secondes décomptées à voix haute. »

    The Time hurries a slow player: it can only shorten his clock. A player deep in his time
    bank with less left than the Time's duration keeps his own deadline: after the call he
    has min(what he had, the Time), and his hand is dead at that deadline, not later.

    Clock 8x faster: action clock 5 s, then a time bank of 20 s (his deadline is 25 s after
    his turn began), the Time may be called after 10 s: at the call he has at most 15 s
    left, less than the Time (30 s cdc, 60 s tda). Today the deadline is reset to
    now + the Time (``remaining_ms`` 30000 / 60000) and he thinks on past his own deadline.
    """
    speed = 8.0
    action, bank, call_after = 5.0, 20.0, 10.0
    deadline = action + bank  # game seconds after his turn began
    server = launch(
        tables=(
            table_config(
                profile=profile,
                action_seconds=action,
                time_bank_seconds=bank,
                time_call_after=call_after,
            ),
        ),
        clock_speed=speed,
    )
    clients = [await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)]
    for client in clients:
        Player(client, act=False)
    watcher = clients[0]
    turn = await watcher.wait_type(m.ClockEvent, 15, kind="action")
    thinker = turn.seat
    started = arrival(watcher, turn)
    caller = next(c for c in clients if c.seat != thinker)
    await asyncio.sleep(max(0.0, started + call_after / speed + 0.15 - time.monotonic()))
    answer = await call_time(caller, turn.hand)
    assert isinstance(answer, m.ClockEvent), f"the Time call was refused: {answer}"
    assert answer.seat == thinker
    left_at_most = int((deadline - call_after) * 1000)
    assert answer.remaining_ms <= left_at_most, (
        f"the Time gave {answer.remaining_ms} ms to a player who had at most {left_at_most} ms "
        f"left (profile {profile}: Time {time_seconds} s); calling the Time added time"
    )
    # his hand is dead at his own deadline, not at the call + the Time
    slack = 1.2
    limit = started + deadline / speed + slack
    try:
        dead = await watcher.wait_for(
            lambda x: isinstance(x, m.ActionEvent) and x.seat == thinker,
            max(0.1, limit - time.monotonic()),
            since=index_of(watcher, turn),
        )
    except TimeoutError:
        pytest.fail(
            f"seat {thinker} was still thinking {deadline / speed + slack:.1f} s after his turn "
            f"began: past his own deadline ({deadline:.0f} s of game time), the Time gave him more"
        )
    assert isinstance(dead, m.ActionEvent) and dead.action == "fold", dead
    assert arrival(watcher, dead) <= limit
    assert_clean(*clients)


# ---------------------------------------------------------------------- 2. who calls the Time


@pytest.mark.asyncio
@pytest.mark.parametrize("profile", ["cdc", "fpc"])
async def test_time_may_be_called_only_by_a_player_dealt_in(launch: Launch, profile: str) -> None:
    """cdc 3.5: « Cette demande peut être faite par tout joueur en jeu dans le tournoi assis à
    sa table ou un responsable du tournoi. » cdc 4.1: « Un joueur doit être assis à portée de
    sa place pour conserver sa main vivante, pour demander le « Time », ... » tda 27: « Un
    joueur doit être à son siège pour demander le "TIME". » fpc 9-1: « Ce délai chronométré
    peut être demandé par le donneur, un adversaire ou le joueur lui-même. »

    A seated player who is not in this hand (he sat out before the deal: absent, cdc 4.1) may
    not call the Time: ``error`` ``not_in_hand``. Under cdc a player at the table who folded
    this hand may call it; under fpc only an opponent still in the hand or the thinker himself
    may (a folded player: ``not_in_hand``). Today anyone seated can call it.

    Clock 10x faster, the Time callable after 10 s; seat 4 sits out before the first hand,
    seats 1-3 play it (the table deals with three players present).
    """
    speed = 10.0
    call_after = 10.0
    server = launch(
        tables=(
            table_config(
                profile=profile,
                action_seconds=600,
                time_bank_seconds=0,
                time_call_after=call_after,
                min_players=3,
            ),
        ),
        clock_speed=speed,
    )
    absent = await sit_out_first(server.port, server.invite, 4, "absent")
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)}
    for client in clients.values():
        Player(client, act=False)
    watcher = clients[1]
    first = await watcher.wait_type(m.ClockEvent, 15, kind="action")
    hand = first.hand
    folded = first.seat
    await clients[folded].send(m.Act(table=TABLE, hand=hand, verb="fold"))
    turn = await watcher.wait_for(
        lambda x: isinstance(x, m.ClockEvent) and x.kind == "action" and x.seat != folded,
        5,
        since=index_of(watcher, first) + 1,
    )
    assert isinstance(turn, m.ClockEvent)
    thinker = turn.seat
    (opponent,) = {1, 2, 3} - {folded, thinker}

    async def after_call_delay(clock: m.ClockEvent) -> None:
        start = arrival(watcher, clock)
        await asyncio.sleep(max(0.0, start + call_after / speed + 0.15 - time.monotonic()))

    await after_call_delay(turn)
    # the absent player, not at his seat and not in the hand: never (cdc 4.1, tda 27, fpc 9-1)
    answer = await call_time(absent, hand)
    assert isinstance(answer, m.Error) and answer.code == ErrorCode.NOT_IN_HAND, (
        f"{profile}: a player sitting out (absent at the deal) called the Time: {answer}"
    )
    if profile == "cdc":
        # cdc 3.5: any player still in the tournament seated at his table, folded or not
        answer = await call_time(clients[folded], hand)
        assert isinstance(answer, m.ClockEvent) and answer.seat == thinker, answer
        return
    # fpc 9-1: the dealer, an opponent or the player himself; a folded player is none of them
    answer = await call_time(clients[folded], hand)
    assert isinstance(answer, m.Error) and answer.code == ErrorCode.NOT_IN_HAND, (
        f"fpc: a player who folded this hand called the Time: {answer}"
    )
    answer = await call_time(clients[opponent], hand)
    assert isinstance(answer, m.ClockEvent) and answer.seat == thinker, answer
    # the thinker himself, on his next decision (or his opponent's: whoever thinks next)
    mark = len(watcher.messages)
    await clients[thinker].send(m.Act(table=TABLE, hand=hand, verb="call"))
    nxt = await watcher.wait_type(m.ClockEvent, 5, since=mark, kind="action")
    await after_call_delay(nxt)
    answer = await call_time(clients[nxt.seat], hand)
    assert isinstance(answer, m.ClockEvent) and answer.seat == nxt.seat, answer
    assert_clean(absent, *clients.values())


# ---------------------------------------------------------------------- 3. sitting out


@pytest.mark.asyncio
async def test_sitting_out_mid_hand_is_announced_only_after_the_hand(launch: Launch) -> None:
    """cdc 11.3: « Les joueurs se doivent de protéger les autres joueurs dans le tournoi en tout
    temps. De ce fait, qu'ils soient dans un coup ou non, par exemple ils ne peuvent : Révéler
    le contenu de mains en jeu ou couchées sur le coup en cours, [...] La règle « un jeu = un
    joueur » prévaudra. » cdc 4.1: « Un joueur doit être assis à sa place [...] lorsque la
    première carte de la donne est distribuée pour pouvoir jouer la main. Dans tout autre cas
    la main est déclarée morte. [...] Les éventuelles blindes et antes lui seront prélevées. »

    Sitting out (or back in) is a state for the next deal. Said during the hand it is a
    signalling channel to the players still in it ("I am off": I have nothing, or I do not
    care about this pot): nobody at the table receives the ``seat`` event ``sitting_out`` (or
    ``sitting_in``) before the hand is over, and it takes effect from the next deal (a dead
    hand, blinds posted; live again after sitting in). Today the ``seat`` event goes to
    everyone at once.
    """
    server = launch(tables=(table_config(action_seconds=30, min_players=3),))
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2, 3)}
    watch = clients[1]
    mover = 3
    first = await watch.wait_type(m.ClockEvent, 10, kind="action")
    hand = first.hand
    # a fourth player, so that three are present while seat 3 sits out (the table's minimum)
    clients[4] = await join(server.port, server.invite, 4, "p4")
    everyone = list(clients.values())
    # mid-hand: seat 3 sits out
    await clients[mover].send(m.SitOut(table=TABLE))
    await asyncio.sleep(0.4)
    early = [c.name for c in everyone if seat_events(c, mover, "sitting_out")]
    assert early == [], f"sitting out announced during hand {hand} to {early}"
    end = await fold_out(clients, watch, hand)
    for client in everyone:
        said = await client.wait_type(m.SeatEvent, 5, seat=mover, status="sitting_out")
        ended = next(x for x in client.of(m.HandEnd) if x.hand == hand)
        assert index_of(client, said) > index_of(client, ended), client.name
    # from the next deal: his hand is dead (or he is not dealt in)
    start = await watch.wait_type(m.HandStart, 10, hand=end.hand + 1)
    nxt = start.hand
    await watch.wait_type(m.CutPrompt, 5, hand=nxt)
    if str(mover) in start.stacks:
        await watch.wait_type(m.ActionEvent, 5, hand=nxt, seat=mover, action="dead_hand")
    # mid-hand again: he comes back; said only when that hand is over
    await clients[mover].send(m.SitIn(table=TABLE))
    await asyncio.sleep(0.4)
    early = [c.name for c in everyone if seat_events(c, mover, "sitting_in")]
    assert early == [], f"sitting in announced during hand {nxt} to {early}"
    await fold_out(clients, watch, nxt)
    for client in everyone:
        said = await client.wait_type(m.SeatEvent, 5, seat=mover, status="sitting_in")
        ended = next(x for x in client.of(m.HandEnd) if x.hand == nxt)
        assert index_of(client, said) > index_of(client, ended), client.name
    # and he is dealt a live hand again (at once, or once the button has passed if he is
    # back between the button and the big blind, as a newcomer, tda 7)
    back = await watch.wait_type(m.HandStart, 10, hand=nxt + 1)
    if str(mover) not in back.stacks:
        await fold_out(clients, watch, back.hand)
        back = await watch.wait_type(m.HandStart, 10, hand=nxt + 2)
    assert str(mover) in back.stacks
    mine = await clients[mover].wait_type(m.HoleCards, 10, hand=back.hand, seat=mover)
    assert len(mine.cards) == 2
    assert_clean(*everyone)


# ---------------------------------------------------------------------- 4. the cut


def _clockwise(after: int, seats: set[int], max_seats: int = 9) -> list[int]:
    """Seats of ``seats`` clockwise from the one after ``after`` (``after`` itself last)."""
    return [s for k in range(1, max_seats + 1) if (s := (after - 1 + k) % max_seats + 1) in seats]


def dealers_right(button: int, seats: set[int]) -> int:
    """The seated player on the dealer's right (a dead button's seat may be empty)."""
    order = _clockwise(button, seats)
    return order[-2] if order[-1] == button else order[-1]


@pytest.mark.asyncio
async def test_a_player_sitting_out_is_never_asked_to_cut(launch: Launch) -> None:
    """cdc 5.2: « Si toutefois il n'y a qu'un jeu de cartes, il devra être mélangé avant la
    donne par le donneur qui le fait couper par son voisin de droite [...] » fpc 5-9: « [...]
    le donneur récupère le jeu, le mélange et le fait couper par le cut-off (joueur placé à
    la droite du donneur). » cdc 4.1: « Le joueur dont la main est déclarée morte ne pourra
    pas voir ses cartes et elles seront jetées au rebut à la fin de la donne. Les éventuelles
    blindes et antes lui seront prélevées. »

    Seat 4 sat out: absent, dealt a dead hand with his blinds posted. When he is the one on
    the dealer's right, the ``cut_prompt`` goes to the next present player to the right, never
    to him. Today the prompt names the absent seat (and the table waits for the cut's
    deadline, then cuts at random).
    """
    server = launch(tables=(table_config(min_players=3, cut_seconds=0.5),))
    absent_seat = 4
    absent = await sit_out_first(server.port, server.invite, absent_seat, "absent")
    present = {1, 2, 3}
    players = {s: await join(server.port, server.invite, s, f"p{s}") for s in sorted(present)}
    for seat, client in players.items():
        Player(client, always("fold"), seed=seat)
    watch = players[1]
    seated = present | {absent_seat}
    covered = 0
    checked = 0
    problems = []
    while checked < 9 and covered < 2:
        await wait_hands(watch, checked + 1, timeout=10)
        end = watch.of(m.HandEnd)[checked]
        checked += 1
        start = next(x for x in watch.of(m.HandStart) if x.hand == end.hand)
        prompt = next(x for x in watch.of(m.CutPrompt) if x.hand == end.hand)
        nominal = dealers_right(start.button, seated)
        expected = nominal
        if nominal == absent_seat:
            covered += 1
            expected = next(s for s in reversed(_clockwise(nominal, present)) if s in present)
        if prompt.seat != expected:
            problems.append(
                f"hand {end.hand}: button {start.button}, dealer's right {nominal}, "
                f"cut asked of seat {prompt.seat}, not {expected}"
            )
    assert covered, "the absent player was never on the dealer's right: nothing was checked"
    assert problems == [], problems
    assert not [p for p in absent.of(m.CutPrompt) if p.seat == absent_seat]
    assert_clean(absent, *players.values())


# ---------------------------------------------------------------------- 5. no rabbit hunting


STREETS = ("preflop", "flop", "turn")


class UncontestedShower(Player):
    """Plays a script: hand k ends at street ``targets[k - 1]``: everyone checks or calls until
    then, there the first to speak bets (or folds facing a bet) and the others fold; the
    winner then shows his cards (cdc 10.1: a winner without a call may show)."""

    def __init__(self, client: WsClient, targets: list[str], seed: int) -> None:
        super().__init__(client, self.choose, seed=seed)
        self.targets = targets
        self.showed: set[int] = set()

    def street(self) -> int:
        return sum(1 for x in self.client.of(m.BoardEvent) if x.hand == self.hand)

    def choose(self, player: Player, rng: random.Random) -> tuple[str, int | None]:
        turns = [x for x in self.client.of(m.Turn) if x.hand == self.hand and x.seat == self.seat]
        menu = turns[-1]
        target = STREETS.index(self.targets[(self.hand - 1) % len(self.targets)])
        if self.street() < target:
            return "call", None
        if menu.call > 0:
            return "fold", None
        return "bet", menu.min_raise_to

    async def on_message(self, client: WsClient, msg: m.Message) -> None:
        if isinstance(msg, m.ClockEvent):
            return  # act on the private ``turn`` only: it carries what there is to call
        await super().on_message(client, msg)
        if isinstance(msg, m.HandEnd) and msg.hand not in self.showed:
            pots = [x for x in client.of(m.PotAwarded) if x.hand == msg.hand]
            if pots and pots[0].winners == (self.seat,):
                self.showed.add(msg.hand)
                await client.send(m.Show(table=TABLE, hand=msg.hand))


def rank_of_dealt(hole: tuple[str, ...], board: list[str]) -> str:
    """The category of the hole cards with the board cards actually dealt (eval7)."""
    return hand_type(evaluate([parse_card(c) for c in (*hole, *board)]))


@pytest.mark.asyncio
async def test_showing_after_an_uncontested_win_never_ranks_with_undealt_cards(
    launch: Launch,
) -> None:
    """cdc 3.6: « Le « rabbit hunting » n'est pas autorisé. Le « rabbit hunting » est le fait de
    révéler les cartes qui "seraient venues" si la main n'avait pas pris fin. » tda 28: « Il
    est strictement interdit de demander au croupier ou d'essayer de voir les cartes du board
    qui étaient à venir sur un coup terminé avant le flop, le turn et la river. »

    Everyone folds to one player, who then shows (``show`` after the hand, cdc 10.1): the
    ``shown`` event's ``rank`` may describe only his two cards with the board cards dealt
    (e.g. "Pair" or "High Card" with no board), or be empty; never a hand made with the flop,
    turn or river that were never dealt. Today the rank is computed with the full five-card
    board committed for the hand: it leaks what would have come (a "Straight" preflop...).

    Heads-up, seven hands ended preflop (five), on the flop and on the turn: with the undealt
    cards, the rank differs from the dealt cards' in about four hands out of five preflop.
    """
    targets = ["preflop", "flop", "preflop", "turn", "preflop", "preflop", "preflop"]
    server = launch(tables=(table_config(next_hand_seconds=0.6),))
    clients = {s: await join(server.port, server.invite, s, f"p{s}") for s in (1, 2)}
    for seat, client in clients.items():
        UncontestedShower(client, targets, seed=seat)
    watch = clients[1]
    await wait_hands(watch, len(targets), timeout=30)
    checked: list[str] = []
    problems: list[str] = []
    for end in watch.of(m.HandEnd)[: len(targets)]:
        hand = end.hand
        pots = [x for x in watch.of(m.PotAwarded) if x.hand == hand]
        (winner,) = pots[0].winners
        shown = await watch.wait_type(m.ShownEvent, 5, hand=hand, seat=winner)
        board = [c for b in watch.of(m.BoardEvent) if b.hand == hand for c in b.cards]
        street = STREETS[[0, 3, 4].index(len(board))]
        assert street == targets[(hand - 1) % len(targets)], (hand, board)
        dealt = rank_of_dealt(shown.cards, board)
        checked.append(f"hand {hand} ({street}): {shown.cards} {board} -> {shown.rank!r}")
        if shown.rank not in ("", dealt):
            problems.append(
                f"hand {hand} ended {street}, board {board}: {list(shown.cards)} shown as "
                f"{shown.rank!r}, the dealt cards make {dealt!r}"
            )
    assert problems == [], "\n".join(problems)
    assert len(checked) == len(targets)
    assert_clean(*clients.values())
