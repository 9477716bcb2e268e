"""A hand at a pure table: open it, cut and deal, run the engine, offer each decision (the
``turn``; the ids are the :class:`~server.table.turns.DecisionBook`'s), the clocks, and end it
in one atomic write (record, ``hand_end``, busts and seat changes together)."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from protocol import messages as m
from protocol.errors import ErrorCode, ProtocolError
from server.dealing.draw import draws_of
from server.engine import (
    Act,
    Blinds,
    Draw,
    DrawMenu,
    Form,
    Game,
    Hand,
    HandSetup,
    Menu,
    Muck,
    Phase,
    RuleError,
    Say,
    SeatSetup,
    Show,
    Verb,
    card_name,
)
from server.engine import ErrorCode as EngineCode
from server.engine import events as ev
from server.engine.positions import Positions
from server.engine.profile import TimeCallers
from server.table.cash import cancel_move, game_terms, hand_terms, option_terms
from server.table.commands import CallTime, Declare, DrawCards, ShowCards, UseBank
from server.table.core import TableCore
from server.table.dealer import DrawHand
from server.table.effects import Halted, HandFinished, Resumed
from server.table.events import (
    Board,
    ClockEvent,
    ClockKind,
    CutPrompt,
    Drawn,
    HandEnd,
    HandStart,
    Hole,
)
from server.table.phases import TablePhase, Trigger
from server.table.record import hand_record
from server.table.runs import run_terms, runs_expired, runs_offered
from server.table.seats import SeatState
from server.table.translate import HandLog
from server.table.views import pot_views, table_view

__all__ = ["Play"]

HELD_NOTES_KEEP = 50


class Play(TableCore):
    """The hand in play over the table's state (:class:`~server.table.core.TableCore`): the
    engine's ``Hand``, its translation (``log``), its decisions and clocks, its end."""

    # ------------------------------------------------------------------ opening

    def open_hand(
        self,
        now: float,
        positions: Positions,
        dealt_in: list[int],
        hand_no: int,
        hand_for_hand: bool = False,
    ) -> None:
        """Commit a deck for the hand and ask the player on the dealer's right to cut."""
        self.hand_for_hand = hand_for_hand
        self.positions = positions
        self.hand_no = hand_no
        self.start_stacks = {s: self.seats[s].stack for s in dealt_in}
        for s in self.seats.values():
            s.bank_at_start = s.time_bank
        if game_terms(self)[0] is Game.DRAW:  # fpc « LE FIVE-CARD DRAW »
            self.dealt = self.dealer.new_draw_hand(
                dealt_in, positions.button, self.config.max_seats
            )
        else:
            self.dealt = self.dealer.new_hand(dealt_in, positions.button, self.config.max_seats)
        self.dealt.cutter = self._cutter(self.dealt.cutter, dealt_in, positions.button)
        self.goto(Trigger.DEAL)
        self.dealt_in = dealt_in
        self.cancelled_hand = False
        self.hand = None
        self.out.save_snapshot()
        if len(dealt_in) == 2:
            sb_seat: int | None = positions.button  # heads-up: the button posts the SB
        elif positions.small_blind and positions.sb_slot in dealt_in:
            sb_seat = positions.sb_slot
        else:
            sb_seat = None  # dead SB (cdc 4.3) or nobody pays it (fpc 17-3, 17-4)
        self.out.live_from = self.out.seq + 1
        start = HandStart(
            hand=self.hand_no,
            button=positions.button,
            small_blind=sb_seat,
            big_blind=positions.big_blind,
            blinds=(self.blinds.sb, self.blinds.bb, self.blinds.ante),
            stacks=tuple((s, self.seats[s].stack) for s in dealt_in),
            commitment=self.dealt.root,
            # five-card draw: the order of a new stub is committed with the deck, before the cut
            stub_commit=self.dealt.stub_commit if isinstance(self.dealt, DrawHand) else None,
        )
        deadline_ms = int(self.config.cut_seconds * 1000)
        cut = CutPrompt(hand=self.hand_no, seat=self.dealt.cutter, deadline_ms=deadline_ms)
        self.out.emit([start, cut])
        self.timers.cut = now + self.config.cut_seconds

    def _cutter(self, default: int, dealt_in: list[int], button: int) -> int:
        """cdc 5.2: the player on the dealer's right cuts; one who is absent at the deal
        (sitting out, gone) is never asked: the next present player to the right cuts."""
        n = self.config.max_seats
        right_to_left = [(default - 1 - k) % n + 1 for k in range(n)]
        for seat in right_to_left:
            if seat in dealt_in and seat != button and self.seats[seat].present:
                return seat
        return default

    def cut(self, now: float, position: int) -> None:
        """Deal the hand with the cut made (cdc 5.2)."""
        assert self.dealt is not None and self.positions is not None
        self.timers.cut = None
        dealt_in = sorted(self.start_stacks)
        if self.policy.called_off(self, dealt_in):
            # everyone (or all but one) left before the deal: nothing was posted yet; the
            # hand is called off and dealt again when players are back (cdc 2.2)
            self._call_off(now, dealt_in)
            return
        try:
            hand = self._setup(position, dealt_in)
        except (RuleError, ValueError, KeyError) as exc:
            # an impossible setup never leaves the table silent (issue 27): the hand is
            # cancelled before anything was posted (cdc 5.4: nothing to return), the table
            # shows itself halted with the reason (health, metrics) and heals itself: a
            # fresh hand by the rules, from fresh positions
            reason = f"hand {self.hand_no} could not be dealt ({exc}): cancelled, dealt afresh"
            self.internal_errors.append(reason)
            self.setup_refused = self.halt_reason = reason
            self.out.effect(Halted(reason))
            self.positions = None
            self.replay_positions = self.replay_dealt_in = None
            self._call_off(now, dealt_in)
            return
        if self.setup_refused is not None:
            self.setup_refused = None
            self.out.effect(Resumed())
        self.hand = hand
        names = {s: self.seats[s].name for s in dealt_in}
        self.log = HandLog(self.hand_no, self.start_stacks, names)
        self.goto(Trigger.CUT)
        self.after_engine(now, list(self.hand.events))

    def _call_off(self, now: float, dealt_in: list[int]) -> None:
        """The hand is called off before anything was posted, and dealt again later."""
        self.goto(Trigger.CALLED_OFF)
        stacks = tuple((s, self.seats[s].stack) for s in dealt_in if s in self.seats)
        self.out.emit([HandEnd(hand=self.hand_no, stacks=stacks, record="", cancelled=True)])
        self.out.save_snapshot()
        self._release_leavers(now)
        self.end_live_hand()
        self.timers.next_hand = now + self.config.next_hand_seconds

    def _setup(self, position: int, dealt_in: list[int]) -> Hand:
        """The engine's hand with the cut made; raises what the engine refuses, before
        anything of the table changed but the cut."""
        assert self.dealt is not None and self.positions is not None
        self.dealt.cut(position)
        dead = self._dead_at_deal(dealt_in)
        posts, rake = hand_terms(self, dealt_in, dead)  # a cash table's seat fees and rake
        runs, agreed = run_terms(self)  # fpc multi-bordes, run it twice
        fields: dict[str, Any] = dict(
            profile=self.profile,
            blinds=self._hand_blinds(len(dealt_in)),
            seats=tuple(
                SeatSetup(
                    player=str(s),
                    seat=s,
                    stack=self.seats[s].stack,
                    dead=dead[s],
                    seat_fee=posts[s].live if s in posts else 0,
                    dead_post=posts[s].dead if s in posts else 0,
                )
                for s in dealt_in
            ),
            rake=rake,
            runs=runs,
            runs_agreed=agreed,
            button=self.positions.button,
            big_blind=self.positions.big_blind,
            denominations=self.config.denominations,
        )
        if isinstance(self.dealt, DrawHand):
            # five-card draw: the five cards, the burn card, the stub and a new stub's order
            # all come from the committed deck (server.dealing.draw)
            setup = self.dealt.setup(structure=game_terms(self)[1], **fields)
        else:
            setup = HandSetup(
                **fields,
                extra_boards=self.dealt.extra_boards(runs) if runs > 1 else (),
                hole={str(s): self.dealt.hole(s) for s in dealt_in},
                board=self.dealt.board(),
                structure=game_terms(self)[1],
            )
        setup = replace(setup, option=option_terms(self, setup))  # casino cash: the option
        hand = Hand(setup)
        for s in dealt_in:
            self.seats[s].new = False
        return hand

    def _hand_blinds(self, players: int) -> Blinds:
        """The blinds of the hand: without the small blind when the positions say nobody
        pays it (fpc 17-3, 17-4: a blind's player is gone, the dealer deals twice)."""
        assert self.positions is not None
        if self.positions.small_blind or players == 2:
            return self.blinds
        return replace(self.blinds, sb=0)

    def _dead_at_deal(self, dealt_in: list[int]) -> dict[int, bool]:
        """Absent at the deal (cdc 4.1) or serving a penalty (cdc 11.1): a dead hand, blinds
        and antes still posted."""
        dead: dict[int, bool] = {}
        for s in dealt_in:
            state = self.seats[s]
            penalised = state.dead_hands > 0
            if penalised:
                state.dead_hands -= 1  # cdc 11.1: a missed hand served
            dead[s] = not state.present or penalised
        if all(dead.values()):
            # nobody here (a tournament table whose players are still on their way from
            # another table or server): the hand is dealt live and played by the action
            # clock, every absent player checking or folding (an all-dead hand cannot be dealt)
            dead = dict.fromkeys(dealt_in, False)
        return dead

    # ------------------------------------------------------------------ engine -> table

    def after_engine(self, now: float, events: list[ev.Event]) -> None:
        hand = self.hand
        assert hand is not None and self.log is not None
        self.decisions.saw(events)
        if self.hand_for_hand and self.policy.directed and self.held is None:
            face_up = next((k for k, e in enumerate(events) if isinstance(e, ev.FaceUp)), -1)
            if face_up >= 0:
                # cdc 2.7: hand-for-hand, all-in hands stay face down until every table has
                # finished its hand; the director reveals them (Reveal)
                self.held = events[face_up:]
                self._translate(events[:face_up])
                self.timers.action = None
                self.timers.acting = -1
                self.goto(Trigger.HOLD)
                hold = m.Notice(
                    table=self.table,
                    kind="hand_for_hand_hold",
                    text="all-in: hands stay face down until every table has finished its hand",
                    rule="cdc-2.7",
                )
                self.out.send_all(hold, players_only=self.out.delayed)  # commentary: a hand late
                self.policy.all_in(self)
                return
        self._translate(events)
        if any(isinstance(e, ev.Acted) for e in events):
            # a completed action passes the turn: the next decision gets its own clock, even
            # by the same player (heads-up, the big blind closes preflop and speaks first)
            self.timers.acting = -1
        self._after_state_change(now)

    def _translate(self, events: list[ev.Event]) -> None:
        hand = self.hand
        assert hand is not None and self.log is not None
        out, notices = self.log.translate(events, lambda p: hand.committed[hand.index[p]])
        for i, e in enumerate(out):
            if isinstance(e, Hole | Drawn):
                # addressed to the player dealt in, never to whoever sits there later
                out[i] = replace(e, owner=self.seats[e.seat].player)
            elif isinstance(e, Board):
                # the pots once the last round's bets are gathered: nothing more goes in
                # before the engine waits for the next decision (cdc 10.7, tda 20)
                out[i] = replace(e, pots=pot_views(hand))
        if out:
            self.out.emit(out)
        # after the events they follow from: "oot_bound" comes after the action it became, so
        # a client never takes its declaration for open when its action is already taken
        for seat, kind, text, rule in notices:
            state = self.seats.get(seat)
            if state is not None:
                self.notice(state.cid, kind, text, rule)

    def _after_state_change(self, now: float) -> None:
        hand = self.hand
        assert hand is not None
        if hand.phase is Phase.FINISHED:
            self.end_hand(now, cancelled=False)
            return
        if hand.phase is Phase.SHOWDOWN:
            if self.phase is TablePhase.BETTING:
                self.goto(Trigger.SHOWDOWN)
                self.timers.action = None
                self.timers.showdown = now + self.config.showdown_seconds
            return
        menu: Menu | DrawMenu | None = hand.menu()
        if menu is None:
            menu = hand.draw_menu()  # five-card draw: a player's turn to draw
            if menu is None:
                runs_offered(self, now, hand)  # the two players all-in may agree to run it twice
                return
            if self.seats[int(menu.player)].leaving:
                # a player leaving the table stands pat: he is not waited for
                self.after_engine(now, hand.draw(Draw(player=menu.player)))
                return
        elif self.seats[int(menu.player)].leaving:
            self.fold_leaver(now)
            return
        seat = int(menu.player)
        self.offer(now, menu)
        if self.timers.action is None or self.timers.acting != seat:
            self.timers.acting = seat
            self.timers.action = now + self.config.action_seconds
            self.timers.action_started = now
            self.timers.bank = False
            self.timers.time_called = False
            self.timers.time_caller = -1
            remaining_ms = int(self.config.action_seconds * 1000)
            clock = ClockEvent(
                hand=self.hand_no, seat=seat, clock=ClockKind.ACTION, remaining_ms=remaining_ms
            )
            self.out.emit([clock])

    def fold_leaver(self, now: float) -> None:
        hand = self.hand
        if self.phase is not TablePhase.BETTING or hand is None:
            return
        menu = hand.menu()
        if menu is not None and self.seats[int(menu.player)].leaving:
            self.timers.action = None
            self.timers.acting = -1
            self.after_engine(now, hand.timeout(menu.player))

    # ------------------------------------------------------------------ players' commands

    def betting(self) -> Hand:
        """The hand, during a betting round; else ``rule.not_betting`` (the cut, the showdown,
        a held all-in, the hand over and the next not dealt yet)."""
        if self.phase is not TablePhase.BETTING or self.hand is None:
            raise RuleError(EngineCode.NOT_BETTING, "no betting round in progress")
        return self.hand

    def declare(self, now: float, state: SeatState, cmd: Declare) -> None:
        if cmd.decision is not None:
            self.check_decision(state, cmd.decision)
        hand = self.betting()
        try:
            say = None
            if cmd.verb is not None:
                say = Say(verb=Verb(cmd.verb), amount=cmd.amount, form=Form(cmd.form or "total"))
        except ValueError:
            raise ProtocolError(ErrorCode.OUT_OF_RANGE, "unknown verb or form") from None
        events = hand.act(Act(player=str(state.seat), say=say, chips=cmd.chips))
        self.after_engine(now, events)

    def draw_cards(self, now: float, state: SeatState, cmd: DrawCards) -> None:
        """Five-card draw: the seat discards ``cmd.discard`` (none: stands pat) and is dealt
        as many (the engine refuses, changing nothing, anything but the open draw)."""
        if cmd.decision is not None:
            self.check_decision(state, cmd.decision)
        hand = self.betting()
        events = hand.draw(Draw(player=str(state.seat), discard=cmd.discard))
        self.timers.acting = -1  # the next player's draw (or bet) gets its own clock
        self.after_engine(now, events)

    def call_time(self, now: float, state: SeatState, cmd: CallTime) -> None:
        hand = self.betting()
        if hand.to_act < 0:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "nobody is thinking")
        target = int(hand.names[hand.to_act])
        self._check_time_caller(state, hand, target)
        if self.timers.time_called:
            raise ProtocolError(ErrorCode.TOO_EARLY, "the Time is already called")
        waited = now - self.timers.action_started
        if waited < self.config.time_call_after:
            raise ProtocolError(
                ErrorCode.TOO_EARLY,
                f"the Time may be called after {self.config.time_call_after:.0f} s "
                f"({self.profile.cite('dead_hand')}; cdc 3.5)",
            )
        self.timers.time_called = True
        self.timers.time_caller = state.seat
        # cdc 3.5, tda 27: the player then has the Time's duration *at most*: calling the
        # Time never gives a tanking player more time than he had left
        deadline = now + float(self.profile.time_seconds)
        if self.timers.action is not None:
            deadline = min(deadline, self.timers.action)
        self.timers.action = deadline
        clock = ClockEvent(
            hand=self.hand_no,
            seat=target,
            clock=ClockKind.TIME,
            remaining_ms=int((deadline - now) * 1000),
            countdown_ms=self.profile.time_countdown * 1000,
            by=state.seat,  # who called it on whom: said to the whole table
        )
        self.out.emit([clock])

    def _check_time_caller(self, state: SeatState, hand: Hand, target: int) -> None:
        """A player must be at his seat to call the Time (tda 27, cdc 4.1); under fpc only
        an opponent still in the hand or the player himself (fpc 9-1)."""
        if not state.present:
            raise ProtocolError(
                ErrorCode.NOT_IN_HAND, "you must be at your seat to call the Time (tda 27)"
            )
        if self.profile.time_callers is TimeCallers.IN_HAND and state.seat != target:
            i = hand.index.get(str(state.seat))
            if i is None or hand.folded[i]:
                raise ProtocolError(
                    ErrorCode.NOT_IN_HAND,
                    "only an opponent in the hand or the player himself calls the Time "
                    f"({self.profile.citations['time_callers']})",
                )

    def use_bank(self, now: float, state: SeatState, cmd: UseBank) -> None:
        hand = self.betting()
        if hand.to_act < 0 or int(hand.names[hand.to_act]) != state.seat:
            raise ProtocolError(ErrorCode.NOT_YOUR_TURN, "not your turn")
        self.start_bank(now, state)

    def start_bank(self, now: float, state: SeatState) -> bool:
        if self.timers.bank or self.timers.time_called or state.time_bank <= 0:
            return False
        assert self.timers.action is not None
        self.timers.bank = True
        remaining = max(0.0, self.timers.action - now) + state.time_bank
        state.time_bank = 0.0
        self.timers.action = now + remaining
        remaining_ms = int(remaining * 1000)
        clock = ClockEvent(
            hand=self.hand_no, seat=state.seat, clock=ClockKind.BANK, remaining_ms=remaining_ms
        )
        self.out.emit([clock])
        return True

    def show_or_muck(self, now: float, state: SeatState, cmd: ShowCards) -> None:
        hand = self.hand
        showing = hand is not None and (
            (self.playing() and hand.phase is Phase.SHOWDOWN)
            or (hand.phase is Phase.FINISHED and self.phase is TablePhase.BETWEEN)
        )
        if not showing or hand is None:
            raise ProtocolError(
                ErrorCode.SHOW_REFUSED,
                "cards are shown only at showdown or after the hand (cdc 11.3-11.5, ONLINE_RULES)",
            )
        player = str(state.seat)
        finished = hand.phase is Phase.FINISHED
        events = hand.show(Show(player=player)) if cmd.show else hand.muck(Muck(player=player))
        if finished:  # cdc 10.1: shown after the hand, which is already over
            if self.log is not None:
                out, _ = self.log.translate(events, lambda p: 0)
                self.out.emit(out)
            return
        self.after_engine(now, events)

    # ------------------------------------------------------------------ timers

    def fire_timers(self, now: float) -> None:
        t = self.timers
        if t.next_hand is not None and now >= t.next_hand:
            t.next_hand = None
            self.policy.start(self, now)
        if t.cut is not None and now >= t.cut and self.phase is TablePhase.CUT:
            self.cut(now, self.randbelow(52))  # cdc 5.2 online: a random cut on timeout
        if t.showdown is not None and now >= t.showdown and self.hand is not None:
            t.showdown = None
            self.after_engine(now, self.hand.auto_showdown())
        if t.action is not None and now >= t.action and self.phase is TablePhase.BETTING:
            self._action_expired(now)
        if t.chat is not None and now >= t.chat:
            self.release_chat(now)
        if t.closing is not None and now >= t.closing:
            t.closing = None  # a cash table's closing time: between hands it closes now,
            if self.phase in (TablePhase.WAITING, TablePhase.BETWEEN):  # else at the hand's end
                t.next_hand = None
                self.policy.start(self, now)

    def _action_expired(self, now: float) -> None:
        hand = self.hand
        assert hand is not None
        menu = hand.menu()
        if menu is None:
            drawing = hand.draw_menu()
            if drawing is not None:
                # five-card draw: a player whose draw clock runs out stands pat (present or
                # absent: « Le joueur absent de la table reçoit les cartes »)
                self.timers.action = None
                self.timers.acting = -1
                self.after_engine(now, hand.draw(Draw(player=drawing.player)))
                return
            if not runs_expired(self, now, hand):
                self.timers.action = None
            return
        state = self.seats.get(int(menu.player))
        connected = state is not None and state.connected
        # the bank serves a player thinking, not one who is gone (ONLINE_RULES: presence)
        if (
            connected
            and state is not None
            and not self.timers.time_called
            and self.start_bank(now, state)
        ):
            return
        dead = self.timers.time_called
        self.timers.action = None
        self.timers.acting = -1
        self.after_engine(now, hand.timeout(menu.player, dead=dead))

    # ------------------------------------------------------------------ the end

    def end_hand(self, now: float, cancelled: bool) -> None:
        """Everything a hand's end changes, in ONE write: the hand record, the last events,
        ``hand_end``, the busted and leaving seats, and the snapshot (see Outbox.flush)."""
        hand = self.hand
        assert hand is not None
        self.timers.action = self.timers.showdown = None
        self.timers.acting = -1
        if cancelled:
            stacks = dict(self.start_stacks)
        else:
            stacks = {int(p): v for p, v in hand.stacks().items()}
        for seat, stack in stacks.items():
            state = self.seats[seat]
            state.stack = stack
            state.time_bank = min(
                self.config.time_bank_seconds, state.time_bank + self.config.time_bank_per_hand
            )
        record_ref = ""
        if not cancelled:
            record = hand_record(self, hand, stacks)
            self.out.save_record(self.hand_no, record)
            record_ref = f"/api/hands/{self.table}/{self.hand_no}.json"
            self._keep_private_holes()
        report = self.policy.report(self, hand, stacks, cancelled)
        self.goto(Trigger.HAND_END)
        if not cancelled:
            self._send_hole_proofs()
        end = HandEnd(
            hand=self.hand_no, stacks=tuple(stacks.items()), record=record_ref, cancelled=cancelled
        )
        self.out.emit([end])
        for seat, stack in stacks.items():
            if stack == 0 and self.policy.frees_busted():
                self.seat_event(self.seats.pop(seat), "busted")
                self._unwatch_seat(seat)
            elif stack == 0:
                self.seat_event(self.seats[seat], "busted")  # keeps his seat to rebuy
        self._release_leavers(now)
        self._apply_wants_out()
        self.end_live_hand()
        self.release.extend(self.held_chat.items)
        self.held_chat.items, self.held_chat.per_sender = [], {}
        self.release_chat(now)
        for op in self.between_ops:
            self.apply_stack(op)
        self.between_ops = []
        self.out.save_snapshot()
        self.hands_played += 1
        self.out.effect(HandFinished(self.hand_no))
        self.policy.after_hand(self, now, report)

    # ------------------------------------------------------------------ decisions

    def open_decision(self, menu: Menu | DrawMenu) -> int:
        return self.decisions.open(menu, self.out.seq)

    def offer(self, now: float, menu: Menu | DrawMenu) -> None:
        """Send the ``turn`` of the decision ``menu`` opens, unless it was sent already (a
        declaration recorded out of turn by someone else changes nothing of it)."""
        if self.decisions.to_offer(menu, self.out.seq) is not None:
            self.send_turn(now, menu)

    def send_turn(self, now: float, menu: Menu | DrawMenu) -> None:
        """Tell the player to act his legal options (private, unsequenced)."""
        state = self.seats.get(int(menu.player))
        if state is None or state.cid is None:
            return
        remaining = self.config.action_seconds
        if self.timers.action is not None and self.timers.acting == int(menu.player):
            remaining = max(0.0, self.timers.action - now)
        if isinstance(menu, DrawMenu):
            self.out.send(state.cid, self._draw_turn(menu, remaining))
            return
        self.out.send(
            state.cid,
            m.Turn(
                table=self.table,
                hand=self.hand_no,
                seat=int(menu.player),
                call=menu.call,
                can_check=menu.can_check,
                can_fold=menu.can_fold,
                can_raise=menu.can_raise,
                min_raise_to=menu.min_raise_to,
                max_raise_to=menu.max_raise_to,
                pending=menu.pending,
                remaining_ms=int(remaining * 1000),
                decision=self.open_decision(menu),
            ),
        )

    def _draw_turn(self, menu: DrawMenu, remaining: float) -> m.Turn:
        """The private ``turn`` of a player's draw: his five cards, how many he may discard."""
        hand = self.hand
        assert hand is not None
        return m.Turn(
            table=self.table,
            hand=self.hand_no,
            seat=int(menu.player),
            call=0,
            can_fold=False,
            remaining_ms=int(remaining * 1000),
            decision=self.open_decision(menu),
            draw=True,
            max_discard=menu.max_discard,
            cards=tuple(card_name(c) for c in hand.hole[hand.index[menu.player]]),
        )

    def open_menu(self) -> Menu | DrawMenu | None:
        """The decision open now: a betting menu, a player's draw, or None."""
        hand = self.hand
        if hand is None or self.phase is not TablePhase.BETTING:
            return None
        return hand.menu() or hand.draw_menu()

    def check_decision(self, state: SeatState, decision: int) -> None:
        """An ``act`` or a ``draw`` naming ``decision``: refused with ``stale_decision``
        unless it is the decision open for this seat now (nothing changes)."""
        self.decisions.check(self.open_menu(), state.seat, decision, self.out.seq)

    # ------------------------------------------------------------------ views

    def view(self, seat: int | None) -> dict[str, Any]:
        """The table as ``seat`` may see it (spectators: as of the last completed hand), the
        open decision's id in its ``menu``."""
        state = table_view(self, seat)
        menu = state.get("menu")
        hand = self.hand
        if menu is not None and hand is not None:
            offered = hand.menu() or hand.draw_menu()
            if offered is not None:
                menu["decision"] = self.open_decision(offered)
        return state

    def end_live_hand(self) -> None:
        """The hand is over for spectators too: they catch up to here."""
        self.out.live_from = None
        self.out.catch_up_spectators(lambda: self.view(None))

    def _release_leavers(self, now: float) -> None:
        for state in [s for s in self.seats.values() if s.moving and not s.leaving]:
            if state.stack == 0:  # busted in the hand he was to move after: he stays
                cancel_move(self, state)
        for state in [s for s in self.seats.values() if s.leaving or s.moving]:
            del self.seats[state.seat]
            self.seat_event(state, "left")
            self._unwatch_seat(state.seat)
            self.policy.on_left(self, state, now)

    def _unwatch_seat(self, seat: int) -> None:
        for watcher in self.watchers.values():
            if watcher.seat == seat:
                watcher.seat = None  # a spectator now, never the next occupant's cards

    def _apply_wants_out(self) -> None:
        for state in self.seats.values():
            if state.wants_out is not None:
                out, state.wants_out = state.wants_out, None
                if out != state.sitting_out:
                    state.sitting_out = out
                    self.seat_event(state, "sitting_out" if out else "sitting_in")

    def apply_stack(self, op: Any) -> None:
        state = self.seats.get(op.seat)
        if state is None or state.player != op.player:
            self.internal_errors.append(f"no {op.player} in seat {op.seat} for a stack change")
            return
        state.stack = state.stack + op.amount if op.relative else op.amount
        self.seat_event(state, "stack")
        if op.note:
            self.director_says(op.note)
        self.out.save_snapshot()

    def _keep_private_holes(self) -> None:
        """cdc 10.6: the director may look at folded hands (a collusion check): the hole
        cards of completed hands only, never of the hand in play."""
        if not self.policy.directed or self.dealt is None:
            return
        holes = {
            self.seats[s].name: [card_name(c) for c in self.dealt.hole(s)]
            for s in self.dealt_in
            if s in self.seats
        }
        self.private_holes.append({"hand": self.hand_no, "holes": holes})
        del self.private_holes[:-HELD_NOTES_KEEP]

    def _send_hole_proofs(self) -> None:
        assert self.dealt is not None
        record = self.out.pending_record()
        if record is None:
            return
        for seat in self.start_stacks:
            state = self.seats.get(seat)
            if state is None:
                continue
            openings: dict[str, Any] = {"cards": self.dealt.hole_proof(seat)}
            if isinstance(self.dealt, DrawHand) and self.hand is not None:
                # five-card draw: the cards he received at the draw, for him only
                draws = draws_of(self.hand.events, {p: int(p) for p in self.hand.names})
                drawn = self.dealt.draw_proof(draws, seat)
                if drawn:
                    openings["drawn"] = drawn
            proof = m.HoleProof(
                table=self.table,
                hand=self.hand_no,
                root=record["root"],
                cut=record["cut"],
                openings=openings,
            )
            for w in self.watchers.values():
                if w.player == state.player and w.seat == seat:
                    self.out.send(w.cid, proof)
