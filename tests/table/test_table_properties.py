"""Properties of the pure table under random traffic (Hypothesis, no event loop).

Three to six players sit at a friends table; then random commands come from random
connections (seated players, spectators, strangers: wrong hands, wrong seats, random verbs,
amounts and chips, cuts, Time calls, resyncs, reconnections, leaves, sit-outs, chat, new
players sitting) while time moves forward by random amounts, and now and then a store write
fails and is retried. After every step:

(i) chips are conserved: between hands the stacks of the seated players plus what the players
    who left took with them equal every stack ever brought in; during a hand the chips behind
    plus the pot equal the start-of-hand total;
(ii) private events reach their owner only: hole cards with cards, hole proofs, a snapshot's
    hole cards, and turns go only to the player dealt in at that seat in that hand;
(iii) a refused command (an error to its sender, no write) changes nothing observable;
(iv) written sequence numbers follow each other, no gap or repeat, across failed writes and
    retries, and nothing is delivered before it is stored (checked by the harness's net);
(v) every signed hand record adds up (protocol.chips): its actions put in what its pots hold
    plus the chips returned, and each player's final stack follows from his lines (undersized
    chips committed before a call or fold included, cdc 9.12).
"""

from __future__ import annotations

from typing import Any

from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from protocol import decode_server
from protocol import messages as m
from protocol.chips import chip_problems
from server.engine.state import Phase
from server.table import commands as c
from server.table.effects import Deliver, Effect, Write
from server.table.phases import TablePhase

from .pure import Pure

PLAYING = (TablePhase.BETTING, TablePhase.HELD, TablePhase.SHOWDOWN)
IDENTITIES: tuple[str | None, ...] = ("p1", "p2", "p3", "p4", "p5", "p6", "x1", None, None)
"""Who speaks: p1..p6 (the first n seated at the start), a stranger, two spectators."""
VERBS = (None, "fold", "check", "call", "bet", "raise", "allin", "pot", "bogus")
FORMS = (None, "total", "plus", "abbreviated", "weird")
CHIPS = (1, 5, 7, 25, 100, 500, 1000, 5000)


class Checked(Pure):
    """A pure table whose every step is checked against the properties."""

    def __init__(self, **kw: Any) -> None:
        super().__init__(**kw)
        self.dealt: dict[int, dict[int, str]] = {}
        """Hand -> seat -> the player dealt in there."""
        self.current: dict[int, c.Conn | None] = {}
        """Identity index -> its live connection (None: none open)."""
        self.resuming = False
        self.records_checked = 0
        """Batches of the store whose hand record was checked already."""

    # ------------------------------------------------------------------ stepping

    def do(self, command: c.Command) -> list[Effect]:
        conn = getattr(command, "conn", None)
        before = self.state()
        failed = len(self.net.failed)
        effects = super().do(command)
        if conn is not None and len(self.net.failed) == failed:
            refused = any(
                isinstance(e, Deliver)
                and e.cids == (conn.cid,)
                and isinstance(decode_server(e.frame), m.Error)
                for e in effects
            )
            if refused and not any(isinstance(e, Write) for e in effects):
                # (iii) a refused command changes nothing
                assert self.state() == before, (command, before, self.state())
        self.check()
        return effects

    def tick(self) -> list[Effect]:
        self.resuming = self.table.phase is TablePhase.HALTED
        effects = super().tick()
        self.check()
        self.resuming = False
        return effects

    def run(self, effects: list[Effect]) -> list[Effect]:
        self._record_dealt()
        self._check_private(effects)
        return super().run(effects)

    # ------------------------------------------------------------------ the properties

    def _record_dealt(self) -> None:
        t = self.table
        if t.hand_no > 0 and t.hand_no not in self.dealt and t.start_stacks:
            self.dealt[t.hand_no] = {s: t.seats[s].player for s in t.start_stacks}

    def _check_private(self, effects: list[Effect]) -> None:
        """(ii) private events reach their owner only."""
        last_turn: m.Turn | None = None
        for effect in effects:
            if not isinstance(effect, Deliver):
                continue
            msg = decode_server(effect.frame)
            players = {self.player_of[cid] for cid in effect.cids}
            if isinstance(msg, m.HoleCards) and msg.cards:
                owner = self.dealt[msg.hand][msg.seat]
                assert players == {owner}, (msg, players, owner)
            elif isinstance(msg, m.HoleProof):
                assert len(players) == 1 and players <= set(self.dealt[msg.hand].values()), (
                    msg.hand,
                    players,
                )
            elif isinstance(msg, m.Snapshot) and "hole" in msg.state:
                seat = msg.state["you"]
                owner = self.dealt[msg.state["hand"]][seat]
                assert players == {owner}, (players, owner, seat)
            elif isinstance(msg, m.Turn):
                owner = self.dealt[msg.hand][msg.seat]
                assert players == {owner}, (msg, players, owner)
                last_turn = msg
        t = self.table
        if last_turn is not None and not self.resuming and t.phase is TablePhase.BETTING:
            hand = t.hand
            menu = hand.menu() if hand is not None else None
            assert menu is not None and int(menu.player) == last_turn.seat, (last_turn, menu)

    def check(self) -> None:
        t = self.table
        self._record_dealt()
        assert not t.internal_errors, t.internal_errors[0]
        assert not self.net.violations, self.net.violations  # (iv)
        # (v) every signed record's actions add up to its pots and its final stacks
        for batch in self.net.store[self.records_checked :]:
            if batch.record is not None:
                assert chip_problems(batch.record[1]) == [], (
                    chip_problems(batch.record[1]),
                    batch.record[1]["actions"],
                )
        self.records_checked = len(self.net.store)
        # (i) chips
        brought = 0
        taken = 0
        for _, (kind, data) in sorted(self.net.emitted.items()):
            if kind == "seat" and data["status"] == "seated":
                brought += self.config.starting_stack
            elif kind == "seat" and data["status"] in ("left", "busted"):
                taken += data["stack"]
        phase = t._halted_from if t.phase is TablePhase.HALTED else t.phase
        hand = t.hand
        if phase in PLAYING and hand is not None:
            start = sum(t.start_stacks.values())
            behind = sum(hand.stacks().values())
            if hand.phase is Phase.FINISHED:
                assert behind == start, (behind, start)
            else:
                assert behind + hand.pot_total() == start, (behind, hand.pot_total(), start)
        elif phase is not TablePhase.CLOSED:
            seated = sum(s.stack for s in t.seats.values())
            assert seated + taken == brought, (seated, taken, brought, phase)

    # ------------------------------------------------------------------ connections

    def ident(self, who: int) -> c.Conn:
        """The identity's live connection: a new one (which joins the table) if none."""
        conn = self.current.get(who)
        if conn is not None and conn.cid not in self.net.kicked:
            return conn
        player = IDENTITIES[who]
        conn = self.conn(player, new=True)
        self.current[who] = conn
        self.do(c.Watch(conn=conn, last_seq=None))
        return conn


def op_strategy() -> st.SearchStrategy[tuple[Any, ...]]:
    """One step: mostly legal play and time passing (the hands must progress), and every
    kind of command from anyone, right or wrong; a failed write now and then."""
    who = st.integers(0, len(IDENTITIES) - 1)
    delta = st.sampled_from((0, 0, 0, 0, 1, -1))
    last_seq = st.sampled_from(("none", "zero", "back", "now", "future", "negative"))
    args: dict[str, st.SearchStrategy[tuple[Any, ...]]] = {
        "legal": st.tuples(st.integers(0, 5), st.integers(0, 10**6)),
        "advance": st.tuples(st.sampled_from((0.0, 0.3, 1.0, 2.0, 3.0, 8.0, 30.0, 95.0))),
        "cutter": st.tuples(st.integers(-1, 53)),
        "act": st.tuples(
            who,
            st.sampled_from(VERBS),
            st.one_of(st.none(), st.integers(-10, 30_000)),
            st.sampled_from(FORMS),
            st.one_of(st.none(), st.lists(st.sampled_from(CHIPS), max_size=4).map(tuple)),
            delta,
        ),
        "cut": st.tuples(who, st.integers(-1, 53), delta),
        "time": st.tuples(who, delta),
        "bank": st.tuples(who, delta),
        "show": st.tuples(who, st.booleans(), delta),
        "chat": st.tuples(who),
        "sitout": st.tuples(who),
        "sitin": st.tuples(who),
        "leave": st.tuples(who),
        "gone": st.tuples(who),
        "relogin": st.tuples(who, last_seq),
        "resync": st.tuples(who, last_seq),
        "sit": st.tuples(who, st.integers(0, 10)),
        "fail": st.tuples(st.integers(1, 2)),
    }
    weights = {"legal": 16, "advance": 8, "cutter": 2, "act": 2, "time": 2, "fail": 1}
    kinds = [k for k in args for _ in range(weights.get(k, 1))]
    return st.sampled_from(kinds).flatmap(lambda k: args[k].map(lambda a: (k, *a)))


def _last_seq(p: Checked, mode: str) -> int | None:
    seq = p.table.seq
    return {
        "none": None,
        "zero": 0,
        "back": max(0, seq - 7),
        "now": seq,
        "future": seq + 5,
        "negative": -1,
    }[mode]


def _legal(p: Checked, choice: int, amount: int) -> None:
    """The player to act does something legal (the hands must progress)."""
    t = p.table
    hand = t.hand
    if t.phase is not TablePhase.BETTING or hand is None:
        return
    menu = hand.menu()
    if menu is None:
        return
    seat = int(menu.player)
    who = IDENTITIES.index(t.seats[seat].player)
    conn = p.ident(who)
    if t.phase is not TablePhase.BETTING or t.hand is not hand or hand.menu() != menu:
        return  # coming back changed something (his turn again, or the hand moved on)
    verb: str | None
    value: int | None = None
    if choice == 0:
        verb = "fold"
    elif choice in (1, 2):
        verb = "check" if menu.can_check else "call"
    elif choice == 3 and menu.can_raise and menu.min_raise_to is not None:
        verb = "raise"
        low, high = menu.min_raise_to, menu.max_raise_to or menu.min_raise_to
        value = low + amount % (high - low + 1)
    elif choice == 4:
        verb = "allin"
    else:
        verb = "call"
    p.do(c.Declare(conn=conn, hand=t.hand_no, verb=verb, amount=value))


def apply(p: Checked, op: tuple[Any, ...]) -> None:
    t = p.table
    kind = op[0]
    if kind == "legal":
        _legal(p, op[1], op[2])
    elif kind == "advance":
        p.advance(op[1])
    elif kind == "fail":
        p.net.fail_writes = op[1]
    elif kind == "cutter":
        if t.phase is TablePhase.CUT and t.dealt is not None and t.dealt.cutter in t.seats:
            conn = p.ident(IDENTITIES.index(t.seats[t.dealt.cutter].player))
            p.do(c.CutDeck(conn=conn, hand=t.hand_no, position=op[1]))
    elif kind == "act":
        _, who, verb, amount, form, chips, delta = op
        conn = p.ident(who)
        p.do(
            c.Declare(
                conn=conn,
                hand=t.hand_no + delta,
                verb=verb,
                amount=amount,
                form=form,
                chips=chips or None,
            )
        )
    elif kind == "cut":
        p.do(c.CutDeck(conn=p.ident(op[1]), hand=t.hand_no + op[3], position=op[2]))
    elif kind == "time":
        p.do(c.CallTime(conn=p.ident(op[1]), hand=t.hand_no + op[2]))
    elif kind == "bank":
        p.do(c.UseBank(conn=p.ident(op[1]), hand=t.hand_no + op[2]))
    elif kind == "show":
        p.do(c.ShowCards(conn=p.ident(op[1]), hand=t.hand_no + op[3], show=op[2]))
    elif kind == "chat":
        p.do(c.Chat(conn=p.ident(op[1]), text="hello"))
    elif kind == "sitout":
        p.do(c.SitOut(conn=p.ident(op[1])))
    elif kind == "sitin":
        p.do(c.SitIn(conn=p.ident(op[1])))
    elif kind in ("leave", "gone"):
        conn = p.current.get(op[1])
        if conn is None:
            return
        p.current[op[1]] = None
        p.do(c.Leave(conn=conn) if kind == "leave" else c.Gone(conn=conn))
    elif kind == "relogin":
        player = IDENTITIES[op[1]]
        conn = p.conn(player, new=True)
        p.current[op[1]] = conn
        p.do(c.Watch(conn=conn, last_seq=_last_seq(p, op[2])))
    elif kind == "resync":
        last = _last_seq(p, op[2])
        p.do(c.Resync(conn=p.ident(op[1]), last_seq=0 if last is None else last))
    elif kind == "sit":
        _, who, seat = op
        player = IDENTITIES[who]
        p.do(c.Sit(conn=p.ident(who), seat=seat, name=(player or "anon").upper()))


@settings(
    max_examples=80,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@example(  # found by Hypothesis: a leave deferred while halted, replayed by a retry that fails
    # too; the table then resumed to the phase it had halted in (betting) although the leave
    # had ended the hand, dealt over a live state (betting --deal-->) and sent hole cards to
    # the wrong player
    n=5,
    seats=[1, 5, 3, 4, 2, 6, 7, 8, 9],
    seed=0,
    ops=[("legal", 0, 0)] * 3 + [("advance", 0.0)] * 3
    + [("advance", 1.0), ("advance", 2.0), ("cutter", 0), ("legal", 0, 0), ("legal", 0, 0),
       ("legal", 1, 0), ("legal", 1, 0), ("legal", 3, 0), ("relogin", 0, "none"), ("legal", 1, 0)]
    + [("advance", 0.0)] * 11
    + [("legal", 0, 0), ("relogin", 0, "none"), ("relogin", 0, "none"),
       ("act", 0, None, None, None, None, 0), ("advance", 0.0), ("fail", 1), ("legal", 3, 0),
       ("leave", 1)]
    + [("legal", 0, 0)] * 23 + [("fail", 1), ("advance", 1.0)],
)  # fmt: skip
@given(
    n=st.integers(3, 6),
    seats=st.permutations(range(1, 10)),
    seed=st.integers(0, 2**16),
    ops=st.lists(op_strategy(), min_size=60, max_size=200),
)
def test_random_traffic_keeps_the_table_sound(
    n: int, seats: list[int], seed: int, ops: list[tuple[Any, ...]]
) -> None:
    p = Checked(seed=seed, action_seconds=10, time_bank_seconds=5, time_call_after=5)
    for k in range(n):
        conn = p.conn(IDENTITIES[k])
        p.current[k] = conn
        p.do(c.Sit(conn=conn, seat=seats[k], name=f"P{k + 1}"))
    p.current[7] = p.watch(None)
    for op in ops:
        apply(p, op)
    # the store comes back: the table resumes by itself, nothing lost, nothing repeated
    p.net.fail_writes = 0
    p.advance(30.0)
    assert p.table.phase is not TablePhase.HALTED
    events = p.net.events()
    assert [seq for seq, _, _ in events] == list(range(1, p.table.seq + 1))
    assert p.net.stored_seq == p.table.seq
