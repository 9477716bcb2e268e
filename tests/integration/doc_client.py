"""A client written from docs/protocol.md alone: ``websockets`` and ``msgpack``, no import of
this repository's code (as a third party would write it, starting from the doc's "A minimal
client in Python").

It sits, cuts when asked, answers each ``turn`` once with its ``decision`` (check, call,
raise, a raise said before its amount, a fold now and then), makes out-of-turn declarations
as the doc's "Acting" allows them, drops its connection now and then and comes back with its
newest seat token and ``join(last_seq)``. It mirrors the table from the sequenced events
(stacks, bets, board, pots, folded seats, who is to act, its cards) the way the doc's
"Showing the pots" and "Decisions" say, and compares the mirror with a fresh snapshot
(``join`` without ``last_seq``) after each reconnection and after some hands.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
from dataclasses import dataclass, field
from typing import Any

import msgpack
import websockets

BETTING = {"fold", "check", "call", "bet", "raise", "allin"}
NOT_A_BET = {"post_ante", "dead_hand", "muck", "returned"}


@dataclass
class Mirror:
    """The table as events tell it (docs/protocol.md: "Table events", "Showing the pots")."""

    seq: int | None = None
    hand: int = 0
    stacks: dict[int, int] = field(default_factory=dict)
    dealt_in: list[int] = field(default_factory=list)
    bets: dict[int, int] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    pots: list[tuple[int, tuple[int, ...]]] = field(default_factory=list)
    folded: set[int] = field(default_factory=set)
    to_act: int | None = None
    hole: list[str] = field(default_factory=list)
    start_total: int = 0

    def load(self, snap: dict[str, Any]) -> None:
        """A snapshot replaces the whole state (docs: "Applying events")."""
        state = snap["state"]
        self.seq = snap["seq"]
        self.hand = state["hand"]
        self.stacks = {s["seat"]: s["stack"] for s in state["seats"]}
        self.bets = {int(k): v for k, v in state.get("bets", {}).items()}
        self.dealt_in = sorted(self.bets)
        self.board = list(state.get("board", []))
        self.pots = [(p["amount"], tuple(p["eligible"])) for p in state.get("pots", [])]
        self.folded = set(state.get("folded", []))
        self.to_act = state.get("to_act")
        self.hole = list(state.get("hole", []))
        self.start_total = sum(state.get("start_stacks", {}).values())

    def differences(self, snap: dict[str, Any]) -> list[str]:
        """What the mirror gets wrong, compared with a snapshot."""
        state = snap["state"]
        out: list[str] = []

        def same(what: str, mine: object, theirs: object) -> None:
            if mine != theirs:
                out.append(f"seq {snap['seq']} hand {state['hand']} {what}: {mine} != {theirs}")

        same("seq", self.seq, snap["seq"])
        same("hand", self.hand, state["hand"])
        same("stacks", self.stacks, {s["seat"]: s["stack"] for s in state["seats"]})
        if "bets" in state:  # a hand's cards are out (docs: the snapshot's keys "in a hand")
            same("bets", self.bets, {int(k): v for k, v in state["bets"].items()})
            same("board", self.board, state["board"])
            same("pots", self.pots, [(p["amount"], tuple(p["eligible"])) for p in state["pots"]])
            same("folded", self.folded, set(state["folded"]))
            same("to_act", self.to_act, state.get("to_act"))
            same("hole", self.hole, state.get("hole", []))
        return out

    def apply(self, e: dict[str, Any], me: int | None) -> None:
        kind = e["t"]
        if kind == "seat":
            if e["status"] in ("busted", "left"):
                self.stacks.pop(e["seat"], None)
            else:
                self.stacks[e["seat"]] = e["stack"]
        elif kind == "hand_start":
            self.hand = e["hand"]
            stacks = {int(k): v for k, v in e["stacks"].items()}
            self.stacks.update(stacks)
            self.dealt_in = sorted(stacks)
            self.bets = dict.fromkeys(self.dealt_in, 0)
            self.board, self.pots, self.folded, self.hole = [], [], set(), []
            self.to_act = None
            self.start_total = sum(stacks.values())
        elif kind == "hole" and e["seat"] == me:
            self.hole = list(e["cards"])
        elif kind == "action":
            self._action(e)
        elif kind == "board":
            self.board += e["cards"]
            self.pots = [(p["amount"], tuple(p["eligible"])) for p in e["pots"]]
            self.bets = dict.fromkeys(self.dealt_in, 0)
            self.to_act = None
        elif kind == "pot":
            for seat, share in zip(e["winners"], e["shares"], strict=True):
                self.stacks[seat] += share
        elif kind == "clock_event" and e["kind"] == "action":
            self.to_act = e["seat"]
        elif kind == "hand_end":
            self.stacks.update({int(k): v for k, v in e["stacks"].items()})
            self.bets, self.board, self.pots, self.folded = {}, [], [], set()
            self.to_act, self.hole, self.dealt_in = None, [], []

    def _action(self, e: dict[str, Any]) -> None:
        seat, action = e["seat"], e["action"]
        self.stacks[seat] = e["stack"]
        if action == "returned":
            self.bets[seat] -= e["added"]
        elif action not in NOT_A_BET:
            self.bets[seat] = e["to"]
        if action in ("fold", "dead_hand"):
            self.folded.add(seat)
            self.pots = [(a, tuple(s for s in el if s != seat)) for a, el in self.pots]
        if seat == self.to_act and action != "pending":
            self.to_act = None  # "an action by that seat other than pending ends his turn"


class DocClient:
    """One player: a seat, a mirror, and the doc's rules for acting once per decision."""

    def __init__(
        self,
        url: str,
        table: str,
        invite: str,
        seat: int,
        rng: random.Random,
        *,
        compare_every: int = 3,
        drops: set[int] | None = None,
        out_of_turn: float = 0.2,
    ) -> None:
        self.url, self.table, self.invite, self.seat = url, table, invite, seat
        self.rng = rng
        self.compare_every = compare_every
        self.out_of_turn = out_of_turn
        """How often an opponent's action is followed by a declaration of ours."""
        self.drop_hands = set(drops or ())
        """Hands during which this client drops its connection once."""
        self.mirror = Mirror()
        self.token: str | None = None
        self.ws: Any = None
        self.ids = 0
        self.answered = 0
        self.unanswered: set[int] = set()
        """Ids of our acts the server has not answered yet (an action, a notice, an error)."""
        self.mine_last = False
        """The latest action event of this betting round is ours."""
        self.oot_waiting = False
        self.turns_seen: dict[int, tuple[int, bool]] = {}
        """Decision id -> (joins sent, a join still unanswered) when its turn last came, on
        this connection: the doc says a turn comes again only after a join."""
        self.joins = 0
        self.want_compare = False
        self.drop = False
        # what the test reads
        self.errors: list[dict[str, Any]] = []
        self.mismatches: list[str] = []
        self.violations: list[str] = []
        self.compares = 0
        self.reconnects = 0
        self.oot_sent = 0
        self.acts = 0
        self.hands_ended = 0
        self.hand_totals: list[tuple[int, int, int]] = []
        """(hand, chips at its start, chips at its end) of the seats dealt in."""
        self.table_totals: list[int] = []
        """Every seat's chips together, at each compared snapshot between hands."""

    # ------------------------------------------------------------------ the connection

    async def play(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            async with websockets.connect(self.url, max_size=2**22, close_timeout=1) as ws:
                self.ws = ws
                self.answered, self.unanswered, self.turns_seen = 0, set(), {}
                self.oot_waiting, self.drop = False, False
                await self._open()
                reader = asyncio.ensure_future(self._read(ws))
                stopper = asyncio.ensure_future(stop.wait())
                await asyncio.wait({reader, stopper}, return_when=asyncio.FIRST_COMPLETED)
                stopper.cancel()
                if not reader.done():
                    reader.cancel()
                    with contextlib.suppress(BaseException):
                        await reader
            if stop.is_set():
                return
            self.reconnects += 1
            await asyncio.sleep(self.rng.uniform(0.05, 0.3))

    async def _open(self) -> None:
        if self.token is None:  # docs: "Friends tables", 1 and 2
            await self.send(t="hello", version=1, nickname=f"doc{self.seat}", token=self.invite)
            await self.send(t="join", table=self.table)
            await self.send(t="sit", table=self.table, seat=self.seat, token=self.invite)
            return
        # docs: "Come back": hello with the newest seat token, join with the last seq applied
        await self.send(t="hello", version=1, token=self.token)
        await self.send(t="join", table=self.table, last_seq=self.mirror.seq)
        await self.compare()

    async def _read(self, ws: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            async for frame in ws:
                await self.on(msgpack.unpackb(frame))
                if self.drop:
                    return

    async def send(self, **message: Any) -> None:
        with contextlib.suppress(websockets.ConnectionClosed):
            await self.ws.send(msgpack.packb(message))

    async def compare(self) -> None:
        """Ask for a snapshot (``join`` without ``last_seq``) to compare the mirror with."""
        self.joins += 1
        self.want_compare = True
        await self.send(t="join", table=self.table)

    # ------------------------------------------------------------------ receiving

    async def on(self, msg: dict[str, Any]) -> None:
        kind = msg["t"]
        if kind == "snapshot":
            self._snapshot(msg)
        elif "seq" in msg:
            await self._event(msg)
        elif kind == "seated":
            self.token = msg["token"]  # "store it at once"
        elif kind == "turn":
            await self._turn(msg)
        elif kind == "notice" and msg["kind"].startswith("oot_"):
            self.unanswered.clear()
            self.oot_waiting = msg["kind"] == "oot_recorded"
        elif kind == "error":
            self.errors.append(msg)
            self.unanswered.discard(msg.get("ref", -1))

    def _snapshot(self, msg: dict[str, Any]) -> None:
        if self.want_compare:
            self.want_compare = False
            self.compares += 1
            self.mismatches += self.mirror.differences(msg)
            if "bets" not in msg["state"]:
                self.table_totals.append(sum(s["stack"] for s in msg["state"]["seats"]))
        self.mirror.load(msg)

    async def _event(self, e: dict[str, Any]) -> None:
        mirror = self.mirror
        if mirror.seq is None or e["seq"] <= mirror.seq:
            return  # before the first snapshot, or already applied
        if e["seq"] != mirror.seq + 1:
            self.violations.append(f"gap: {mirror.seq} -> {e['seq']}")
            await self.send(t="resync", table=self.table, last_seq=mirror.seq)
            return
        mirror.apply(e, self.seat)
        mirror.seq = e["seq"]
        kind = e["t"]
        if kind == "cut_prompt" and e["seat"] == self.seat:
            cut = self.rng.randrange(52)
            await self.send(t="cut", table=self.table, hand=e["hand"], position=cut)
        elif kind == "action":
            await self._action(e)
        elif kind == "board":
            self.mine_last = self.oot_waiting = False
        elif kind == "hand_end":
            await self._hand_end(e)

    async def _action(self, e: dict[str, Any]) -> None:
        if e["seat"] == self.seat:
            self.unanswered.clear()
            self.mine_last = e["action"] != "pending"
            self.oot_waiting = False
            return
        if e["action"] not in BETTING:
            return
        self.mine_last = False
        if e["hand"] in self.drop_hands and self.rng.random() < 0.5:
            self.drop_hands.discard(e["hand"])
            self.drop = True
            return
        await self._maybe_out_of_turn(e["hand"])

    async def _hand_end(self, e: dict[str, Any]) -> None:
        self.hands_ended += 1
        self.mine_last = self.oot_waiting = False
        self.unanswered.clear()
        end = sum(e["stacks"].values())
        self.hand_totals.append((e["hand"], self.mirror.start_total, end))
        if e["hand"] % self.compare_every == self.seat % self.compare_every:
            await self.compare()

    # ------------------------------------------------------------------ acting

    async def _turn(self, turn: dict[str, Any]) -> None:
        decision = turn["decision"]
        if decision in self.turns_seen:
            joins, unanswered = self.turns_seen[decision]
            if joins == self.joins and not unanswered:
                self.violations.append(f"turn {decision} sent twice with no join between")
        self.turns_seen[decision] = (self.joins, self.want_compare)
        if decision == self.answered:
            return  # once per decision
        if turn["hand"] in self.drop_hands and self.rng.random() < 0.5:
            self.drop_hands.discard(turn["hand"])
            self.drop = True  # gone at our turn, before answering: it is offered again
            return
        self.answered = decision
        verb, amount = self._choose(turn)
        await self.act(turn["hand"], verb, amount, decision)

    def _choose(self, turn: dict[str, Any]) -> tuple[str, int | None]:
        low = turn.get("min_raise_to")
        if turn.get("pending") == "amount":
            return "raise", low
        if turn.get("pending") == "call_or_fold":
            return "call", None
        r = self.rng.random()
        if turn["can_raise"] and low is not None and low <= 600:
            if r < 0.15:
                return "raise", low
            if r < 0.22:
                return "raise", None  # the amount follows: a new decision (pending)
        if turn["call"] and r > 0.95:
            return "fold", None
        return ("call" if turn["call"] else "check"), None

    async def act(self, hand: int, verb: str, amount: int | None, decision: int | None) -> None:
        self.ids += 1
        self.acts += 1
        self.unanswered.add(self.ids)
        message: dict[str, Any] = {"t": "act", "table": self.table, "hand": hand, "verb": verb}
        if amount is not None:
            message["amount"] = amount
        if decision is not None:
            message["decision"] = decision
        await self.send(**message, id=self.ids)

    async def _maybe_out_of_turn(self, hand: int) -> None:
        """An out-of-turn declaration, only where docs/protocol.md ("Acting") says it is not
        refused as a second motion: never our turn, nothing of ours unanswered, the latest
        action of the round not ours, no declaration of ours recorded already."""
        m = self.mirror
        if (
            self.rng.random() >= self.out_of_turn
            or m.to_act == self.seat
            or self.seat not in m.dealt_in
            or self.seat in m.folded
            or m.stacks.get(self.seat, 0) == 0
            or not m.hole
            or self.unanswered
            or self.mine_last
            or self.oot_waiting
        ):
            return
        self.oot_sent += 1
        verbs = ["check", "call", "fold"] if self.rng.random() < 0.2 else ["check", "call"]
        await self.act(hand, self.rng.choice(verbs), None, None)
