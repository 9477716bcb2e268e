"""The bot SDK plays five-card draw (issue 31): the simple draw, the mirror following a draw
hand (five cards, the draw, the second round) and catching what it must, then a real server:
six bots play 100 hands of a draw cash table with no violation and the ledger balanced, and
illegal draws are refused with their documented codes, changing nothing."""

from __future__ import annotations

import asyncio
import random
import re
import time
from collections.abc import Callable, Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest

from bots import (
    Bot,
    BotError,
    CallingStation,
    Decision,
    FiveCardDraw,
    Notebook,
    RandomLegal,
    RulesFuzzer,
    Stats,
    Strategy,
    View,
)
from bots.client import EXPECTED_FOR_FUZZER
from bots.connection import next_id
from bots.drawing import HandClass, discards, hand_class
from bots.launch import ServerProcess
from bots.mirror import HandNotes, TableMirror
from protocol import messages as m

from .test_cash_bots import FAST, imbalance, ledger

T = "d1"
DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"
DRAW = {"game": "draw", "profile": "fpc", "max_seats": 6, "action_seconds": 5}
"""A draw cash table of the fpc (« LE FIVE-CARD DRAW »: a cave of 5,000, blinds 50/100)."""
CAVE = 5000
DRAW_CODES = {
    "rule.not_drawing",
    "rule.not_your_draw",
    "rule.card_not_held",
    "rule.same_card_twice",
    "rule.too_many_discards",
    "bad_card",
    "out_of_range",
    "stale_decision",
}
"""The refusals of a ``draw`` docs/protocol.md lists ("Five-card draw"; six cards are more
than the frame may carry: ``out_of_range``)."""


# ---------------------------------------------------------------------- the simple draw


@pytest.mark.parametrize(
    ("cards", "thrown"),
    [
        (("Ah", "Kd", "7c", "7s", "2h"), ("Ah", "Kd", "2h")),  # a pair: draw three
        (("Jh", "Jd", "4c", "4s", "9h"), ("9h",)),  # two pair: draw one
        (("Qh", "Qd", "Qc", "4s", "9h"), ("4s", "9h")),  # trips: draw two
        (("Ah", "Kh", "7h", "2h", "9c"), ("9c",)),  # four to a flush
        (("5h", "6d", "7c", "8s", "Kh"), ("Kh",)),  # four to a straight
        (("Ah", "2d", "3c", "4s", "Jh"), ("Jh",)),  # four to the wheel
        (("9h", "Td", "Jc", "Qs", "Kh"), ()),  # a straight: pat
        (("Ah", "Kh", "7h", "2h", "9h"), ()),  # a flush: pat
        (("Ah", "Jd", "7c", "4s", "2h"), ("Jd", "7c", "4s", "2h")),  # nothing: keep the ace
    ],
)
def test_the_simple_draw_keeps_what_makes_a_hand(
    cards: tuple[str, ...], thrown: tuple[str, ...]
) -> None:
    assert discards(cards) == thrown


def test_hand_classes() -> None:
    assert hand_class(("Ah", "Ad", "Ac", "Kd", "Kh")) is HandClass.FULL_HOUSE
    assert hand_class(("Ah", "2h", "3h", "4h", "5h")) is HandClass.STRAIGHT_FLUSH
    assert hand_class(("Ah", "Ad", "Ac", "As", "Kh")) is HandClass.QUADS
    assert hand_class(("Ah", "2d", "3h", "4h", "5h")) is HandClass.STRAIGHT


def _view(turn: m.Turn, hole: tuple[str, ...], street: str = "preflop") -> View:
    return View(
        table=T, hand=1, seat=1, hole=hole, board=(), street=street, stacks={1: 900, 2: 900},
        bets={1: 0, 2: 0}, pot=200, in_hand=(1, 2), button=2, blinds=(50, 100, 0),
        denominations=(25, 100, 500), turn=turn, game="draw",
    )  # fmt: skip


def test_strategies_answer_a_draw_turn_with_a_draw() -> None:
    cards = ("Ah", "Kd", "7c", "7s", "2h")
    turn = m.Turn(
        table=T, hand=1, seat=1, call=0, can_fold=False, decision=9, draw=True, max_discard=5,
        cards=cards,
    )  # fmt: skip
    view = _view(turn, cards)
    assert view.drawing
    assert FiveCardDraw().draw(view) == Decision.draw("Ah", "Kd", "2h")
    assert CallingStation().draw(view) == Decision.draw("Ah", "Kd", "2h")  # the default
    refused = m.Error(code="rule.card_not_held", message="")
    assert Strategy.on_error(CallingStation(), view, refused) == Decision.stand_pat()
    fuzzer = RulesFuzzer(random.Random(3), clean=0.0, motions=0.0)
    for _ in range(200):  # never a legal draw when it is not told to play clean
        gesture = fuzzer.draw(view)
        assert isinstance(gesture, Decision)
        if gesture.discard is None:
            assert gesture.verb is not None  # a bet at the draw
            continue
        legal = len(gesture.discard) == len(set(gesture.discard)) <= 5
        assert not (legal and set(gesture.discard) <= set(cards)), gesture


def test_the_draw_player_bets_made_hands_after_the_draw() -> None:
    bet = m.Turn(
        table=T, hand=1, seat=1, call=0, can_check=True, can_raise=True, min_raise_to=100,
        max_raise_to=900, decision=12,
    )  # fmt: skip
    two_pair = ("Jh", "Jd", "4c", "4s", "9h")
    assert FiveCardDraw().decide(_view(bet, two_pair, "draw")).verb == "raise"
    nothing = ("Ah", "Jd", "7c", "4s", "2h")
    assert FiveCardDraw().decide(_view(bet, nothing, "draw")) == Decision.check()


def documented_drawer() -> type[Strategy]:
    """The ``Drawer`` of docs/bots.md, "Five-card draw", as published."""
    text = DOC.read_text(encoding="utf-8").split("\n## Five-card draw\n", 1)[1]
    source = re.findall(r"```python\n(.*?)```", text, re.S)[0]
    namespace: dict[str, object] = {}
    exec(compile(source, "docs/bots.md", "exec"), namespace)
    drawer = namespace["Drawer"]
    assert isinstance(drawer, type) and issubclass(drawer, Strategy)
    return drawer


def test_the_documented_drawer_draws_and_bets() -> None:
    cards = ("Jh", "Jd", "4c", "4s", "9h")
    turn = m.Turn(
        table=T, hand=1, seat=1, call=0, can_fold=False, decision=9, draw=True, max_discard=5,
        cards=cards,
    )  # fmt: skip
    drawer = documented_drawer()()
    assert drawer.draw(_view(turn, cards)) == Decision.draw("9h")
    bet = m.Turn(table=T, hand=1, seat=1, call=0, can_raise=True, min_raise_to=100, decision=10)
    assert drawer.decide(_view(bet, cards, "draw")) == Decision.raise_to(100)


# ---------------------------------------------------------------------- the mirror


def _mirror() -> tuple[TableMirror, list[str]]:
    seen: list[str] = []
    mir = TableMirror(T, 1, lambda kind, detail: seen.append(f"{kind}: {detail}"))
    state = {"phase": "waiting", "hand": 0, "you": 1, "blinds": [50, 100, 0], "seats": []}
    mir.apply_snapshot(m.Snapshot(table=T, seq=0, state=state))
    return mir, seen


def _feed(mir: TableMirror, *events: m.Message) -> None:
    for e in events:
        assert mir.accept(e.seq) == "apply"  # type: ignore[attr-defined]
        mir.apply(e)


def _act(seq: int, seat: int, kind: str, to: int, added: int, stack: int) -> m.ActionEvent:
    return m.ActionEvent(
        table=T, seq=seq, hand=1, seat=seat, action=kind, to=to, added=added, stack=stack
    )


MINE = ("Ah", "Kd", "7c", "7s", "2h")


def _first_round() -> list[m.Message]:
    return [
        m.HandStart(
            table=T, seq=1, hand=1, button=1, big_blind=2, blinds=(50, 100, 0),
            stacks={"1": 1000, "2": 1000}, commitment="ab", stub_commit="cd",
        ),
        _act(2, 1, "post_sb", 50, 50, 950),
        _act(3, 2, "post_bb", 100, 100, 900),
        m.HoleCards(table=T, seq=4, hand=1, seat=1, cards=MINE),
        m.HoleCards(table=T, seq=5, hand=1, seat=2, cards=()),
        _act(6, 1, "call", 100, 50, 900),
        _act(7, 2, "check", 100, 0, 900),
    ]  # fmt: skip


def test_a_draw_hand_is_mirrored_without_violation() -> None:
    mir, seen = _mirror()
    _feed(mir, *_first_round())
    assert mir.game == "draw" and mir.street == "preflop" and mir.hole == MINE
    _feed(
        mir,
        m.DrewEvent(table=T, seq=8, hand=1, seat=2, count=3),
        m.DrawnEvent(table=T, seq=9, hand=1, seat=2),
        m.DrewEvent(table=T, seq=10, hand=1, seat=1, count=3),
        m.DrawnEvent(
            table=T, seq=11, hand=1, seat=1, discarded=("Ah", "Kd", "2h"),
            received=("7d", "Qs", "3c"), cards=("7d", "Qs", "7c", "7s", "3c"),
        ),
    )  # fmt: skip
    assert mir.street == "draw" and mir.bets == {1: 0, 2: 0} and mir.drew == {2: 3, 1: 3}
    assert mir.hole == ("7d", "Qs", "7c", "7s", "3c")
    _feed(
        mir,
        _act(12, 2, "bet", 200, 200, 700),
        _act(13, 1, "call", 200, 200, 700),
        m.ShownEvent(table=T, seq=14, hand=1, seat=1, cards=("7s", "7d", "7c", "Qs", "3c")),
        m.PotAwarded(table=T, seq=15, hand=1, index=0, amount=600, winners=(1,), shares=(600,)),
        m.HandEnd(table=T, seq=16, hand=1, stacks={"1": 1300, "2": 700}),
    )
    assert seen == []
    assert mir.stacks == {1: 1300, 2: 700} and mir.pot == 0


@pytest.mark.parametrize(
    ("events", "kind"),
    [
        # another seat's cards in its drawn event
        ([m.DrawnEvent(table=T, seq=8, hand=1, seat=2, cards=("2c",) * 5)], "hole_leak"),
        # our draw: fewer cards received than thrown; a card thrown that we do not hold
        (
            [
                m.DrewEvent(table=T, seq=8, hand=1, seat=1, count=2),
                m.DrawnEvent(
                    table=T, seq=9, hand=1, seat=1, discarded=("Ah", "Kd"), received=("Qs",),
                    cards=("Qs", "Kd", "7c", "7s", "2h"),
                ),
            ],
            "drawn",
        ),
        (
            [
                m.DrewEvent(table=T, seq=8, hand=1, seat=1, count=1),
                m.DrawnEvent(
                    table=T, seq=9, hand=1, seat=1, discarded=("Qh",), received=("Qs",),
                    cards=("Ah", "Kd", "7c", "7s", "2h"),
                ),
            ],
            "drawn",
        ),
        # a card we hold dealt to us again
        (
            [
                m.DrewEvent(table=T, seq=8, hand=1, seat=1, count=1),
                m.DrawnEvent(
                    table=T, seq=9, hand=1, seat=1, discarded=("Ah",), received=("7c",),
                    cards=("7c", "Kd", "7c", "7s", "2h"),
                ),
            ],
            "drawn",
        ),
        # a seat drawing twice
        (
            [
                m.DrewEvent(table=T, seq=8, hand=1, seat=2, count=1),
                m.DrewEvent(table=T, seq=9, hand=1, seat=2, count=1),
            ],
            "draw",
        ),
    ],
)  # fmt: skip
def test_draw_violations_are_caught(events: list[m.Message], kind: str) -> None:
    mir, seen = _mirror()
    _feed(mir, *_first_round(), *events)
    assert [s.split(":")[0] for s in seen] == [kind], seen


def test_a_draw_hole_of_two_cards_is_missing_cards() -> None:
    mir, seen = _mirror()
    start, *rest = _first_round()
    _feed(mir, start, *rest[:2], m.HoleCards(table=T, seq=4, hand=1, seat=1, cards=MINE[:2]))
    assert [s.split(":")[0] for s in seen] == ["hole_missing"]


def test_the_notebook_compares_the_cards_after_the_draw() -> None:
    seen: list[str] = []
    book = Notebook(lambda kind, detail: seen.append(kind))
    book.join(T)
    book.join(T)
    a = HandNotes(T, 1, 1, holes={1: MINE, 2: ()}, drawn={1: ("Qs", "Kd", "7c", "7s", "2h")})
    a.shown = {1: ("Qs", "Kd", "7c", "7s", "2h"), 2: ("Qd", "Qs", "5c", "5d", "9h")}
    b = HandNotes(T, 1, 2, holes={1: (), 2: ("Qd", "Jd", "5c", "5d", "9h")})
    b.drawn = {2: ("Qd", "Qs", "5c", "5d", "9h"), 1: ()}
    book.hand_in(a)
    book.hand_in(b)
    assert seen == ["duplicate_card"]  # Qs in both hands after the draw; the shown ones match


# ---------------------------------------------------------------------- a real server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[ServerProcess]:
    data: Path = tmp_path_factory.mktemp("server")
    # the pauses between hands are most of a bot table's time: shorter than FAST's
    fast: dict[str, Any] = {**FAST, "next_hand_seconds": 0.01, "showdown_seconds": 0.01}
    with ServerProcess(data, max_tables=10, **fast) as proc:
        yield proc
    assert "Traceback" not in proc.stderr(), proc.stderr()[-3000:]


async def _seat(
    url: str,
    strategies: list[Strategy],
    stats: Stats,
    notebook: Notebook | None = None,
    action_seconds: int = 5,
) -> tuple[list[Bot], m.TableCreated]:
    """A draw cash table with a bot per strategy, each buying in for the cave."""
    bots = [
        Bot(url, s, nickname=f"d{i}", stats=stats, notebook=notebook, rebuy=True)
        for i, s in enumerate(strategies, 1)
    ]
    bots[0].counts_table = True
    await bots[0].connect()
    created = await bots[0].create_table(name="draw", **{**DRAW, "action_seconds": action_seconds})

    async def sit(seat: int, bot: Bot) -> None:
        if seat > 1:
            await bot.connect()
        await bot.take_seat(created.table, seat, created.invite, buy_in=CAVE)

    await asyncio.gather(*(sit(seat, bot) for seat, bot in enumerate(bots, 1)))
    return bots, created


def test_six_bots_play_100_draw_hands(server: ServerProcess) -> None:
    async def scenario() -> tuple[Stats, Notebook, str, str]:
        stats = Stats()
        notebook = Notebook(stats.violation)
        rng = random.Random(31)
        fuzzer = RulesFuzzer(random.Random(rng.random()), out_of_turn=0.05)
        strategies: list[Strategy] = [FiveCardDraw(rng), RandomLegal(rng), FiveCardDraw(rng)]
        strategies += [CallingStation(), fuzzer, documented_drawer()()]
        bots, created = await _seat(server.url, strategies, stats, notebook)
        try:
            played = await asyncio.wait_for(bots[0].play(hands=100), 60)
            assert played >= 100
        finally:
            await asyncio.gather(*(b.close() for b in bots))
        notebook.flush()
        return stats, notebook, created.table, created.host

    stats, notebook, table, host = asyncio.run(scenario())
    assert not stats.violations, stats.examples
    # a bot may lose its whole draw capital (50,000: ten caves) to the fuzzer's all-ins, and
    # then may not buy again (fpc: « ne pourra plus participer »): the only refusal allowed
    assert not set(stats.errors) - {"cash.capital"}, stats.errors
    assert stats.hands >= 100 and stats.draws >= 100, (stats.hands, stats.draws)
    assert notebook.checked >= 90  # five-card holes, draws and shown cards compared
    entries, on_table = ledger(server, table, host)
    assert imbalance(entries, on_table) == 0  # every chip: buy-ins = cash-outs + stacks
    # the fuzzer's illegal draws were refused with their documented codes
    expected = set(stats.expected_errors)
    assert {"rule.card_not_held", "rule.same_card_twice", "bad_card", "out_of_range"} <= expected
    assert expected & {"rule.not_drawing", "rule.not_your_draw"}, expected
    assert all(c.startswith("rule.") or c in EXPECTED_FOR_FUZZER for c in expected), expected


async def _until(what: str, predicate: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        await asyncio.sleep(0.01)


class Held(Strategy):
    """Answers nothing by itself: the test plays the seat."""

    expects_errors = True

    def decide(self, view: View) -> None:
        return None

    def draw(self, view: View) -> None:
        return None


async def _refused(bot: Bot, message: m.Draw | m.Act) -> str:
    """The code of the error answering ``message`` (sent with a new id)."""
    rid = next_id()
    try:
        await bot.request(replace(message, id=rid), lambda _: False, 5, rid)
    except BotError as refused:
        return refused.code
    raise AssertionError(f"{message} was not refused")


def test_illegal_draws_are_refused_and_change_nothing(server: ServerProcess) -> None:
    async def scenario() -> tuple[Stats, dict[str, str]]:
        stats = Stats()
        bots, _ = await _seat(server.url, [Held(), Held()], stats, action_seconds=30)
        codes: dict[str, str] = {}
        answered: set[int] = set()

        def open_turn(bot: Bot) -> m.Turn | None:
            turn = bot.turn
            live = turn is not None and bot.mirror is not None and turn.hand == bot.mirror.hand
            return turn if live and turn is not None and turn.decision not in answered else None

        def actor() -> tuple[Bot, Bot, m.Turn]:
            for bot in bots:
                turn = open_turn(bot)
                if turn is not None:
                    return bot, bots[1 - bots.index(bot)], turn
            raise AssertionError("no turn open")

        def seqs() -> list[int | None]:
            return [b.mirror.seq if b.mirror else None for b in bots]

        async def answer(bot: Bot, turn: m.Turn, decision: Decision) -> None:
            answered.add(turn.decision)
            await bot.act(turn.hand, decision, in_turn=True, decision=turn.decision)

        try:
            await _until("a turn", lambda: any(open_turn(b) for b in bots))
            bot, other, turn = actor()
            hand, table = turn.hand, bot.table or ""
            assert other.mirror is not None and bot.mirror is not None
            before = seqs()
            draw = m.Draw(table=table, hand=hand, cards=other.mirror.hole[:1])
            codes["draw while betting"] = await _refused(other, draw)
            draw = m.Draw(table=table, hand=hand, cards=bot.mirror.hole[:1], decision=turn.decision)
            codes["draw for a betting turn"] = await _refused(bot, draw)
            assert seqs() == before
            # the first betting round: call, then check
            while not (turn.draw or False):
                await answer(bot, turn, Decision.check() if turn.can_check else Decision.call())
                await _until("the next turn", lambda: any(open_turn(b) for b in bots))
                bot, other, turn = actor()
            assert bot.mirror is not None and other.mirror is not None and turn.cards
            held, before = bot.mirror.hole, seqs()
            assert tuple(turn.cards) == held
            gone = next(c for c in ("2c", "3d", "4h", "5s", "6c", "7d") if c not in held)
            tries = {
                "another's draw": (other, (other.mirror.hole[0],), None),
                "a card not held": (bot, (gone,), turn.decision),
                "the same card twice": (bot, (held[0], held[0]), turn.decision),
                "a name that is no card": (bot, ("Zz",), turn.decision),
                "six cards": (bot, (*held, gone), turn.decision),
                "another decision": (bot, held[:1], turn.decision + 1000),
            }
            for name, (who, cards, decision) in tries.items():
                draw = m.Draw(table=table, hand=hand, cards=cards, decision=decision)
                codes[name] = await _refused(who, draw)
            bet = m.Act(table=table, hand=hand, verb="check", decision=turn.decision)
            codes["a bet at the draw"] = await _refused(bot, bet)
            # nothing changed: no event went out, the cards are the same, nobody drew
            assert seqs() == before
            assert bot.mirror.hole == held and bot.mirror.drew == {} == other.mirror.drew
            await answer(bot, turn, Decision.draw(*held[:2]))
            await _until("the draw", lambda: bot.seat in other.mirror.drew)  # type: ignore[union-attr]
            assert bot.mirror.drew == {bot.seat: 2}
            assert bot.mirror.hole[2:] == held[2:] and not set(bot.mirror.hole[:2]) & set(held)
            draw = m.Draw(table=table, hand=hand, cards=(bot.mirror.hole[0],))
            codes["a second draw"] = await _refused(bot, draw)
            await _until("the other's draw", lambda: open_turn(other) is not None)
            await answer(other, open_turn(other), Decision.stand_pat())  # type: ignore[arg-type]
            both = {bot.seat: 2, other.seat: 0}
            await _until("both draws", lambda: other.mirror.drew == both)  # type: ignore[union-attr]
            # the second round, checked down to the showdown
            while bots[0].mirror is not None and bots[0].mirror.hands_seen == 0:
                turns = [(b, open_turn(b)) for b in bots]
                for b, t in turns:
                    if t is not None:
                        await answer(b, t, Decision.check() if t.can_check else Decision.call())
                await asyncio.sleep(0.01)
        finally:
            await asyncio.gather(*(b.close() for b in bots))
        return stats, codes

    stats, codes = asyncio.run(asyncio.wait_for(scenario(), 30))
    assert codes == {
        "draw while betting": "rule.not_drawing",
        "draw for a betting turn": "rule.not_drawing",
        "another's draw": "rule.not_your_draw",
        "a card not held": "rule.card_not_held",
        "the same card twice": "rule.same_card_twice",
        "a name that is no card": "bad_card",
        "six cards": "out_of_range",
        "another decision": "stale_decision",
        "a bet at the draw": codes["a bet at the draw"],
        "a second draw": "rule.not_your_draw",
    }, codes
    assert codes["a bet at the draw"].startswith("rule."), codes
    assert set(codes.values()) - {codes["a bet at the draw"]} <= DRAW_CODES
    assert not stats.violations, stats.examples
    assert not stats.errors, stats.errors
