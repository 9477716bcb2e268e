"""A bot's local mirror of one table, rebuilt from the sequenced events, and the checks it runs
on them.

Every table event carries ``seq``; the mirror applies them in order and says when one is a
duplicate (already applied, e.g. replayed after a resync) or when some are missing (a gap: the
bot then asks for a resync and accepts a snapshot). While applying, it verifies:

* ``seq_gap``: sequence numbers are contiguous on a live connection;
* ``stack``: every action's ``stack`` is the seat's previous stack minus what it ``added``
  (plus for ``returned``), pot shares go to the stacks, ``hand_end`` stacks match the tracked
  ones, and a hand starts with the stacks the previous one ended with;
* ``chips``: chips are conserved within a hand (sum of stacks + pot is constant, the pot is
  empty at the end, shares add up to the pot awarded);
* ``hole_leak`` / ``hole_missing``: a bot sees its own hole cards and nobody else's;
* ``shown``: cards shown at showdown are the ones that seat was dealt (own seat here, others in
  :class:`~bots.notebook.Notebook`);
* ``pots``: the pots a ``board`` event carries hold every chip in the middle (the round's
  bets are gathered then), and a side pot exists only when a seat is all-in;
* five-card draw (``hole`` of five cards, no board): ``draw``, each seat still in the hand
  draws once, 0 to 5 cards, and the first draw ends the first betting round; ``drawn``, the
  bot's own draw gives it as many cards as it threw, none it held, in the places of those it
  threw; ``hole_leak`` too when another seat's ``drawn`` carries cards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from protocol import messages as m

__all__ = ["HandNotes", "TableMirror"]

PLAYER_ACTIONS = frozenset({"fold", "check", "call", "bet", "raise", "allin", "pending"})
NO_BET = frozenset({"muck", "dead_hand", "returned"})


@dataclass
class HandNotes:
    """What one bot saw of one hand (compared across bots by the notebook)."""

    table: str
    hand: int
    seat: int | None
    holes: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Every ``hole`` event as this bot saw it (cards only for its own seat, if all is well)."""
    shown: dict[int, tuple[str, ...]] = field(default_factory=dict)
    board: list[str] = field(default_factory=list)
    dealt_in: tuple[int, ...] = ()
    drawn: dict[int, tuple[str, ...]] = field(default_factory=dict)
    """Five-card draw: every ``drawn`` event's cards as this bot saw them (its own seat's five
    cards after the draw; nobody else's, if all is well)."""


class TableMirror:
    """The table as one recipient sees it. ``report(kind, detail)`` receives violations."""

    def __init__(self, table: str, seat: int | None, report: Callable[[str, str], None]) -> None:
        self.table = table
        self.seat = seat
        self.report = report
        self.seq: int | None = None
        self.hand = 0
        self.phase = "waiting"
        self.button: int | None = None
        self.blinds: tuple[int, int, int] = (0, 0, 0)
        self.denominations: tuple[int, ...] = (25, 100, 500, 1000, 5000, 25000)
        self.players: dict[int, str] = {}
        self.stacks: dict[int, int] = {}
        self.dealt_in: tuple[int, ...] = ()
        self.folded: set[int] = set()
        self.board: list[str] = []
        self.street = "preflop"
        self.bets: dict[int, int] = {}
        self.pot = 0
        self.pots: list[tuple[int, tuple[int, ...]]] = []
        """The pots as the server last said them (snapshot, ``board``): (amount, eligible)."""
        self.allin: set[int] | None = None
        """Seats all-in this hand, seen in its ``action`` events (None: joined mid-hand)."""
        self.put: dict[int, int] = {}
        """Chips each seat put in this hand (less what came back), from its actions."""
        self.ante_format = "none"
        """The table's (snapshot): a button or big blind ante is dead money, no one's bet."""
        self.start_stacks: dict[int, int] = {}
        self.dead_put: dict[int, int] = {}
        self.antes: dict[int, int] = {}
        """The antes each seat posted this hand (see :meth:`_contributions`)."""
        """Dead money each seat posted this hand (see :meth:`_dead`)."""
        """The stacks the hand began with (``hand_start``): with a snapshot's, what each seat
        put in since, the actions missed while away included."""
        self.trail: list[str] = []
        """What this hand's view was built from (snapshots, actions), said with a violation."""
        self.hole: tuple[str, ...] = ()
        """The bot's cards now (five-card draw: after its draw, the new ones)."""
        self.game = "holdem"
        """``holdem`` or ``draw`` (a snapshot's ``game``, a ``hand_start`` with ``stub_commit``)."""
        self.drew: dict[int, int] = {}
        """Five-card draw: how many cards each seat drew this hand (0: stood pat)."""
        self.hand_total: int | None = None
        """Chips in play this hand (None: not known, e.g. joined mid-hand)."""
        self.notes: HandNotes | None = None
        self.hands_seen = 0
        self.last_action: m.ActionEvent | None = None
        self.snapshot_at = ""
        self.from_snapshot: set[int] = set()
        """Seats whose stack was last set by a snapshot (a mismatch then is ``snapshot_stack``)."""

    # ------------------------------------------------------------------ sequencing

    def accept(self, seq: int) -> str:
        """``apply`` | ``dup`` | ``gap`` | ``early`` (before the first snapshot)."""
        if self.seq is None:
            return "early"
        if seq <= self.seq:
            return "dup"
        if seq == self.seq + 1:
            return "apply"
        return "gap"

    @property
    def in_hand(self) -> tuple[int, ...]:
        return tuple(s for s in self.dealt_in if s not in self.folded)

    def _bad(self, kind: str, detail: str) -> None:
        self.report(kind, f"table {self.table} hand {self.hand} seat {self.seat}: {detail}")

    # ------------------------------------------------------------------ snapshot

    def apply_snapshot(self, snap: m.Snapshot) -> None:
        state: dict[str, Any] = snap.state
        self.seq = snap.seq
        same_hand = self.hand == int(state.get("hand", 0)) and self.hand_total is not None
        self.hand = int(state.get("hand", 0))
        self.phase = str(state.get("phase", "waiting"))
        blinds = state.get("blinds") or [0, 0, 0]
        self.blinds = (int(blinds[0]), int(blinds[1]), int(blinds[2]))
        self.ante_format = str(state.get("ante_format") or self.ante_format)
        if state.get("game"):
            self.game = "draw" if state["game"] == "draw" else "holdem"
        self.drew = {int(k): int(v) for k, v in (state.get("drew") or {}).items()}
        if state.get("denominations"):
            self.denominations = tuple(int(d) for d in state["denominations"])
        self.button = state.get("button")
        if state.get("you") is not None:
            self.seat = int(state["you"])
        self.players = {int(s["seat"]): str(s["player"]) for s in state.get("seats", [])}
        self.stacks = {int(s["seat"]): int(s["stack"]) for s in state.get("seats", [])}
        self.from_snapshot = set(self.stacks)
        self.snapshot_at = f"snapshot seq {snap.seq} phase {self.phase} hand {self.hand}"
        self.trail.append(f"snapshot#{self.hand}:{self.phase}")
        live = self.phase in ("betting", "showdown")
        if live and "bets" in state:
            self.bets = {int(k): int(v) for k, v in state["bets"].items()}
            self.dealt_in = tuple(sorted(self.bets))
            self.folded = {int(s) for s in state.get("folded", [])}
            self.board = [str(c) for c in state.get("board", [])]
            self.street = {0: "preflop", 3: "flop", 4: "turn", 5: "river"}.get(
                len(self.board), "river"
            )
            if self.drew:  # five-card draw: the first draw ended the first betting round
                self.street = "draw"
            # the snapshot's pots leave out an uncalled bet, so the money in the pot is only
            # known from the hand's start: the hand's chips stay checked when we saw it begin
            self.pots = [(int(p["amount"]), tuple(p["eligible"])) for p in state.get("pots", [])]
            # a player dealt in with nothing behind is all-in: the snapshot says it, even of
            # the all-ins made while we were away (a reconnect after a move), which keeping
            # the set from before the gap missed (issue 32: side pots "with nobody all-in")
            self.allin = {s for s in self.dealt_in if self.stacks.get(s) == 0}
            shown_pots = sum(amount for amount, _ in self.pots)
            self.hole = tuple(state.get("hole") or ())
            behind = sum(self.stacks.get(s, 0) for s in self.dealt_in)
            if same_hand and self.hand_total is not None:
                self.pot = self.hand_total - behind
                # what each seat put in, from the hand's start: the contributions of the
                # actions missed while away too (a stale sum made chips look unwinnable)
                self.put = {
                    s: self.start_stacks.get(s, 0)
                    - self.stacks.get(s, 0)
                    - self.dead_put.get(s, 0)
                    - self.antes.get(s, 0)
                    for s in self.dealt_in
                }
                if self.phase == "betting" and self.pot < shown_pots:
                    held = f"snapshot: {behind} behind + pots {shown_pots} > {self.hand_total}"
                    self._bad("snapshot_chips", held)
            else:
                self.pot = shown_pots
                self.hand_total = None
                self.notes = HandNotes(self.table, self.hand, self.seat, dealt_in=self.dealt_in)
        else:
            self.bets = {}
            self.folded = set()
            self.pot = 0
            if self.phase not in ("cut",):
                self.hand_total = None
                self.dealt_in = ()
                self.board = []
                self.hole = ()

    # ------------------------------------------------------------------ events

    def apply(self, event: m.Message) -> None:
        """Apply one sequenced event (``accept`` said ``apply``)."""
        self.seq = getattr(event, "seq", self.seq)
        if isinstance(event, m.CutPrompt):
            self.phase = "cut"
            return
        method = _APPLY.get(event.TYPE)  # a clock or a chat event: nothing
        if method is not None:
            getattr(self, method)(event)

    def _board(self, e: m.BoardEvent) -> None:
        self.pots = [(int(p["amount"]), tuple(p["eligible"])) for p in e.pots]
        gathered = sum(amount for amount, _ in self.pots)
        if self.hand_total is not None and gathered != self.pot - self._unwinnable():
            why = f"put {self._contributions()} dead {self.dead_put} antes {self.antes}"
            why += f" all-in {sorted(self.allin or ())}"
            trail = " ".join(self.trail[-24:])
            self._bad(
                "pots",
                f"{e.street}: pots {self.pots} hold {gathered}, {self.pot} in ({why}; {trail})",
            )
        if len(self.pots) > 1 and self.allin is not None and not self.allin:
            trail = " ".join(self.trail[-24:])
            self._bad("pots", f"{e.street}: side pots {self.pots} with nobody all-in ({trail})")
        self.board.extend(e.cards)
        self.street = e.street
        self.bets = dict.fromkeys(self.dealt_in, 0)
        if self.notes is not None:
            self.notes.board = list(self.board)

    def _dead(self, action: str) -> bool:
        """Dead money: in the main pot, no one's contribution (casino cash: a missed small
        blind « mise directement dans le pot »; antes: :meth:`_contributions`)."""
        return action == "post_dead"

    def _contributions(self) -> dict[int, int]:
        """What each seat put in as his own (``put``), with his antes when they are
        contributions: classic antes, every player's. A button or big blind ante is dead
        money (cdc 4.2): one player posts it for the table, whatever the snapshot said of the
        format (a tournament's level sets it at the deal)."""
        dead = self.ante_format in ("button", "big_blind") or len(self.antes) == 1
        if dead:
            return dict(self.put)
        out = dict(self.put)
        for seat, ante in self.antes.items():
            out[seat] = out.get(seat, 0) + ante
        return out

    def _unwinnable(self) -> int:
        """Chips no live hand can win: a folded player's above every live one's when all of
        those are all-in. They are no pot (the engine gives them back at the hand's end,
        ``returned``), so the server's pots leave them out (cdc 4.2 ex. 2.1)."""
        live = [s for s in self.dealt_in if s not in self.folded]
        if self.allin is None or not live or any(s not in self.allin for s in live):
            return 0
        put = self._contributions()
        top = max(put.get(s, 0) for s in live)
        return sum(max(0, put.get(s, 0) - top) for s in self.folded)

    def _seat(self, e: m.SeatEvent) -> None:
        if e.status == "busted":
            self.players.pop(e.seat, None)
            self.stacks.pop(e.seat, None)
            return
        if e.player is not None:
            self.players[e.seat] = e.player
        if e.status in ("seated", "stack"):
            # ``stack``: chips added or corrected outside play (a cash top-up, a director's
            # correction), the new stack; never a seat in the hand being played
            self.stacks[e.seat] = e.stack
            self.from_snapshot.discard(e.seat)

    def _hand_start(self, e: m.HandStart) -> None:
        if self.phase in ("betting", "showdown", "cut") and self.hand_total is not None:
            self._bad("hand_order", f"hand {e.hand} starts before hand {self.hand} ended")
        stacks = {int(k): int(v) for k, v in e.stacks.items()}
        for seat, stack in stacks.items():
            known = self.stacks.get(seat)
            if known is not None and known != stack:
                kind = "stack" if seat == self.seat else "stack_carry"
                if seat in self.from_snapshot:
                    kind = "snapshot_stack"
                    known = f"{known} ({self.snapshot_at})"  # type: ignore[assignment]
                self._bad(kind, f"seat {seat} starts hand {e.hand} with {stack}, had {known}")
        self.hand = e.hand
        self.phase = "cut"
        if e.stub_commit is not None:  # only a five-card draw hand commits a new stub
            self.game = "draw"
        self.drew = {}
        self.button = e.button
        self.blinds = (e.blinds[0], e.blinds[1], e.blinds[2]) if len(e.blinds) >= 3 else self.blinds
        self.stacks.update(stacks)
        self.from_snapshot -= set(stacks)
        self.dealt_in = tuple(sorted(stacks))
        self.folded = set()
        self.board = []
        self.street = "preflop"
        self.bets = dict.fromkeys(self.dealt_in, 0)
        self.pot = 0
        self.pots = []
        self.put = {}
        self.dead_put = {}
        self.antes = {}
        self.start_stacks = dict(stacks)
        self.allin = set()
        self.trail = [f"start#{e.hand}"]
        self.hole = ()
        self.hand_total = sum(stacks.values())
        self.notes = HandNotes(self.table, e.hand, self.seat, dealt_in=self.dealt_in)

    def _hole(self, e: m.HoleCards) -> None:
        self.phase = "betting"
        if self.notes is not None:
            self.notes.holes[e.seat] = tuple(e.cards)
        if e.seat == self.seat:
            if len(e.cards) != (5 if self.game == "draw" else 2):
                self._bad("hole_missing", f"own hole event with {len(e.cards)} cards")
            self.hole = tuple(e.cards)
        elif e.cards:
            self._bad("hole_leak", f"saw seat {e.seat}'s hole cards {e.cards}")

    def _drew(self, e: m.DrewEvent) -> None:
        """Five-card draw, public: ``seat`` drew ``count`` cards. The first draw of a hand
        ends its first betting round: the bets of the second start from nothing."""
        self.game = "draw"
        if e.hand != self.hand:
            self._bad("hand_order", f"drew for hand {e.hand} during hand {self.hand}")
        if self.hand_total is not None and e.seat not in self.in_hand:
            self._bad("draw", f"seat {e.seat} drew, not in the hand {self.in_hand}")
        if e.seat in self.drew:
            self._bad("draw", f"seat {e.seat} drew twice ({self.drew[e.seat]}, {e.count})")
        if not 0 <= e.count <= 5:
            self._bad("draw", f"seat {e.seat} drew {e.count} cards")
        if self.street != "draw":
            self.street = "draw"
            self.bets = dict.fromkeys(self.dealt_in, 0)
        self.drew[e.seat] = e.count
        self.trail.append(f"{e.seat}:drew{e.count}")

    def _drawn(self, e: m.DrawnEvent) -> None:
        """Five-card draw: what a seat threw and received. Ours: as many cards as the ``drew``
        said, thrown from what we held, none we held received, each in a thrown card's place
        (the server's order); anyone else's: no card at all."""
        if self.notes is not None:
            self.notes.drawn[e.seat] = tuple(e.cards)
        if e.seat != self.seat:
            if e.discarded or e.received or e.cards:
                self._bad("hole_leak", f"saw seat {e.seat}'s draw {e.discarded} -> {e.received}")
            return
        thrown, received = tuple(e.discarded), tuple(e.received)
        count = self.drew.get(e.seat)
        if len(received) != len(thrown) or (count is not None and count != len(thrown)):
            self._bad("drawn", f"threw {thrown}, received {received}, drew {count}")
        if self.hole:
            held = set(self.hole)
            replaced = dict(zip(thrown, received, strict=False))
            expected = tuple(replaced.get(c, c) for c in self.hole)
            if not set(thrown) <= held or held & set(received) or expected != tuple(e.cards):
                self._bad("drawn", f"held {self.hole}, threw {thrown}, got {received}: {e.cards}")
        self.hole = tuple(e.cards)

    def _action(self, e: m.ActionEvent) -> None:
        self.last_action = e
        if e.hand != self.hand:
            self._bad("hand_order", f"action for hand {e.hand} during hand {self.hand}")
        before = self.stacks.get(e.seat)
        sign = 1 if e.action == "returned" else -1
        if before is not None and before + sign * e.added != e.stack:
            kind = "stack" if e.seat == self.seat else "stack_other"
            if e.seat in self.from_snapshot:
                kind = "snapshot_stack"
            self._bad(kind, f"seat {e.seat} {e.action}: {before} {sign * e.added:+} != {e.stack}")
        self.stacks[e.seat] = e.stack
        self.from_snapshot.discard(e.seat)
        self.trail.append(f"{e.seat}:{e.action}{'!' if e.allin else ''}")
        self.pot -= sign * e.added
        self._count_put(e.seat, e.action, -sign * e.added)
        if e.action in ("fold", "dead_hand"):
            self.folded.add(e.seat)
        if e.allin and self.allin is not None:
            self.allin.add(e.seat)
        if e.action == "returned":
            self.bets[e.seat] = max(0, self.bets.get(e.seat, 0) - e.added)
        elif e.action not in NO_BET and e.action not in ("post_ante", "post_dead"):
            self.bets[e.seat] = e.to
        if self.pot < 0 and self.hand_total is not None:
            self._bad("chips", f"the pot went negative ({self.pot})")
        self._conserved(f"after {e.action} of seat {e.seat}")

    def _count_put(self, seat: int, action: str, chips: int) -> None:
        """``chips`` into the middle from ``seat`` (less when returned): dead money, an ante,
        or his own contribution (:meth:`_contributions`)."""
        if self._dead(action):
            self.dead_put[seat] = self.dead_put.get(seat, 0) + chips
        elif action == "post_ante":
            self.antes[seat] = self.antes.get(seat, 0) + chips
        else:
            self.put[seat] = self.put.get(seat, 0) + chips

    def _conserved(self, when: str) -> None:
        if self.hand_total is None:
            return
        total = sum(self.stacks.get(s, 0) for s in self.dealt_in) + self.pot
        if total != self.hand_total:
            self._bad("chips", f"{total} chips on the table {when}, {self.hand_total} at the start")
            self.hand_total = total  # report once per discrepancy

    def _pot(self, e: m.PotAwarded) -> None:
        rake = e.rake or 0  # a cash table's « taille »: it leaves the table
        if sum(e.shares) + rake != e.amount or len(e.shares) != len(e.winners):
            self._bad("chips", f"pot {e.index} of {e.amount} shared as {e.shares}, rake {rake}")
        for seat, share in zip(e.winners, e.shares, strict=False):
            self.stacks[seat] = self.stacks.get(seat, 0) + share
        self.pot -= e.amount
        if self.hand_total is not None:
            self.hand_total -= rake
        self._conserved(f"after pot {e.index}")

    def _shown(self, e: m.ShownEvent) -> None:
        self.phase = "showdown" if self.phase == "betting" else self.phase
        if self.notes is not None:
            self.notes.shown[e.seat] = tuple(e.cards)
        shown, held = tuple(e.cards), self.hole
        if self.game == "draw":  # five cards, shown in the order of the hand they make
            shown, held = tuple(sorted(shown)), tuple(sorted(held))
        if e.seat == self.seat and self.hole and shown != held:
            self._bad("shown", f"shown {e.cards} for our seat, dealt {self.hole}")

    def _hand_end(self, e: m.HandEnd) -> None:
        stacks = {int(k): int(v) for k, v in e.stacks.items()}
        if self.hand_total is not None and e.hand == self.hand:
            if not e.cancelled:
                for seat, stack in stacks.items():
                    known = self.stacks.get(seat)
                    if known is not None and known != stack:
                        kind = "stack" if seat == self.seat else "stack_other"
                        self._bad(kind, f"hand_end: seat {seat} has {stack}, tracked {known}")
                if self.pot != 0:
                    self._bad("chips", f"{self.pot} chips left in the pot at the end")
            if sum(stacks.values()) != self.hand_total and set(stacks) == set(self.dealt_in):
                self._bad("chips", f"hand ends with {sum(stacks.values())}, had {self.hand_total}")
        self.stacks.update(stacks)
        self.phase = "between"
        self.pot = 0
        self.bets = {}
        self.hand_total = None
        self.hands_seen += 1

    def take_notes(self) -> HandNotes | None:
        notes, self.notes = self.notes, None
        return notes


_APPLY: dict[str, str] = {
    m.ActionEvent.TYPE: "_action",
    m.HoleCards.TYPE: "_hole",
    m.BoardEvent.TYPE: "_board",
    m.PotAwarded.TYPE: "_pot",
    m.ShownEvent.TYPE: "_shown",
    m.HandStart.TYPE: "_hand_start",
    m.DrewEvent.TYPE: "_drew",
    m.DrawnEvent.TYPE: "_drawn",
    m.HandEnd.TYPE: "_hand_end",
    m.SeatEvent.TYPE: "_seat",
}
"""The :class:`TableMirror` method applying each kind of table event."""
