"""One hand of No-Limit Hold'em or five-card draw at one table: posting, betting, the draw,
showdown, pots.

Pure and deterministic (no I/O, no clock, no randomness): the cards are given in the
:class:`~server.engine.setup.HandSetup`. Commands go in through :meth:`Hand.act`,
:meth:`Hand.show`, :meth:`Hand.muck`; each returns the events it caused. A command that
breaks a rule raises :class:`~server.engine.errors.RuleError` and changes nothing: every
method first decides (reading state only, see :mod:`.interpret`), then applies.

:class:`Hand` sets a hand up (seats, positions, blinds and antes posted, cards dealt) over
the betting, :class:`~server.engine.betting.Betting`, itself over the showdown and the award,
:class:`~server.engine.showdown.Showdown`: layers over their shared state
:class:`~server.engine.state.HandState`, each calling only itself and those below. Its
collaborators own their state and are called through their public methods: an
:class:`~server.engine.interpret.Interpreter` says what a gesture becomes, reading the round;
a :class:`~server.engine.runs.BoardRuns` holds the runs of the board once two players are
all-in before the turn (:meth:`Hand.agree_runs`, :meth:`Hand.runs_timeout`); a
:class:`~server.engine.showing.Showing` who shows and who mucks; a
:class:`~server.engine.draw.DrawRound` the draw; the pots are pure functions of the chips put
in (:mod:`.pots`). The runs and the showing are frozen values the hand replaces at each step.

Five-card draw (``HandSetup.game``, fpc « LE FIVE-CARD DRAW »): the first betting round as
preflop (blinds, first to act left of the big blind), then the draw (:attr:`Phase.DRAW
<server.engine.state.Phase.DRAW>`: :meth:`Hand.draw` in turn, :meth:`Hand.draw_menu`), owned
by a :class:`~server.engine.draw.DrawRound` the hand calls; then the betting round
:attr:`Street.DRAW <server.engine.state.Street.DRAW>` from the button's left, and the showdown
of the five cards.
"""

from __future__ import annotations

from dataclasses import dataclass

from . import cards as _cards
from .betting import Betting
from .commands import AgreeRuns, Draw
from .draw import RULE_DRAW, RULE_STUB, DrawRound
from .errors import ErrorCode, RuleError
from .events import (
    DeadHand,
    DrawDealt,
    Drew,
    Event,
    HandCancelled,
    HandStarted,
    HoleDealt,
    Posted,
    PostKind,
    PotAwarded,
    RunsAnswered,
    StubReshuffled,
)
from .interpret import OotRecord
from .profile import AntePriority, OpenFold
from .runs import RULE_AGREED, BoardRuns
from .setup import AnteFormat, Game, HandSetup, Structure
from .showing import Showing
from .state import Menu, Phase, PotView, Street

__all__ = ["DrawMenu", "Hand", "Menu", "Phase", "PotView", "Street"]


@dataclass(frozen=True, slots=True, kw_only=True)
class DrawMenu:
    """Five-card draw: who must draw now, and how many cards he may discard at most."""

    player: str
    max_discard: int


class Hand(Betting):
    """The state of one hand. See the module docstring for the contract."""

    def __init__(self, setup: HandSetup) -> None:
        setup.validate()
        self.setup = setup
        self.profile = setup.profile
        self.bb = setup.blinds.bb
        self.open_fold_binding = self.profile.open_fold is OpenFold.BINDING
        self._commit_added = 0
        self._final_pots: list[tuple[int, list[int]]] | None = None
        self.unwinnable = [0] * len(setup.seats)
        """Chips no live player can win, by owner: returned at the end (see _layers)."""
        self.denominations = tuple(sorted(setup.denominations))
        ordered = sorted(setup.seats, key=lambda s: s.seat)
        self.n = n = len(ordered)
        self.names = [s.player for s in ordered]
        self.seat_of = [s.seat for s in ordered]
        self.index = {name: i for i, name in enumerate(self.names)}
        self.start = [s.stack for s in ordered]
        self.stack = list(self.start)
        self.committed = [0] * n
        self.contrib = [0] * n
        self.folded = [s.dead for s in ordered]
        self.dead = [s.dead for s in ordered]
        self.allin = [False] * n
        self.n_live = n - sum(self.dead)
        """Players not folded (dead hands count as folded)."""
        self.n_able = self.n_live
        """Players not folded and not all-in: those who can still bet."""
        self.acted = [False] * n
        self.reopen_at = [0] * n
        self.no_raise = [False] * n
        self.oot: dict[int, OotRecord] = {}
        self.hole = [setup.hole[name] for name in self.names]
        self.board_cards = tuple(setup.board)
        self._board_eval = _cards.eval_cards(self.board_cards)
        self.board: list[int] = []
        self.street = Street.PREFLOP
        self.pot_limit = setup.structure is Structure.POT_LIMIT
        self.drawing: DrawRound | None = None
        self.last_street = Street.RIVER
        if setup.game is Game.DRAW:
            self.last_street = Street.DRAW
            self.drawing = DrawRound.from_setup(
                setup.stub, setup.burn, setup.reshuffle, setup.max_discard
            )
        self.phase = Phase.BETTING
        self.cb = 0
        self.last_full_inc = self.bb
        self.to_act = -1
        self.round_aggressor = -1
        self.river_bet = False
        self.pending_raise = -1
        self.pending_bet = -1
        self.last_motion = -1
        self.dead_money = 0
        self._showing = Showing()
        self.awarded: list[PotView] = []
        self.events: list[Event] = []
        self._values: dict[int, int] = {}
        self._runs = BoardRuns(
            most=setup.runs,
            agreed=setup.runs_agreed,
            board=self.board_cards,
            extra_boards=setup.extra_boards,
        )
        self.button = setup.button
        self.sb_i, self.bb_i = self._blind_positions()
        self.after_button = self._clockwise_from_seat(self.button)
        """Player indices clockwise from the first seat left of the button."""
        self.option_i = self.seat_of.index(setup.option) if setup.option is not None else -1
        """The player posting the option (casino cash), or -1."""
        self._post_and_deal()

    # ------------------------------------------------------------------ positions

    def _clockwise_from_seat(self, seat: int) -> list[int]:
        """Player indices in clockwise order starting with the first seat after ``seat``."""
        start = 0
        while start < self.n and self.seat_of[start] <= seat:
            start += 1
        return [(start + k) % self.n for k in range(self.n)]

    def _blind_positions(self) -> tuple[int, int]:
        """Small and big blind indices by the dead-button rule (cdc 4.3, tda 31); with the big
        blind pinned and ``Blinds(sb=0)``, no small blind (fpc 17-3, 17-4)."""
        setup = self.setup
        if setup.big_blind is not None:
            bb_i = self.index[next(s.player for s in setup.seats if s.seat == setup.big_blind)]
            if self.n == 2:
                return 1 - bb_i, bb_i  # heads-up: the other player is button and SB (cdc 4.4)
            between = []
            for i in self._clockwise_from_seat(self.button):
                if i == bb_i:
                    break
                between.append(i)
            if len(between) > 1:
                from .errors import SetupError

                raise SetupError("more than one player between the button and the big blind")
            if not between or setup.blinds.sb == 0:
                return -1, bb_i  # no small blind this hand (cdc 4.3 dead SB, fpc 17-3/17-4)
            return between[0], bb_i
        order = self._clockwise_from_seat(self.button)
        if self.n == 2:
            button_i = self.index.get(
                next((s.player for s in setup.seats if s.seat == self.button), ""), -1
            )
            if button_i >= 0:
                return button_i, 1 - button_i  # heads-up: the button posts the SB (cdc 4.4)
        return order[0], order[1]

    # ------------------------------------------------------------------ posting

    def _post_ante_dead(self, i: int, amount: int) -> int:
        amount = min(amount, self.stack[i])
        self.stack[i] -= amount
        self.dead_money += amount
        if self.stack[i] == 0 and not self.allin[i]:
            self._mark_allin(i)
        return amount

    def _post_and_deal(self) -> None:
        p = self.profile
        blinds = self.setup.blinds
        ev = self.events
        ev.append(
            HandStarted(
                button=self.button,
                small_blind=self.names[self.sb_i] if self.sb_i >= 0 else None,
                big_blind=self.names[self.bb_i],
                stacks=tuple(zip(self.names, self.start, strict=True)),
            )
        )
        ante, fmt = blinds.ante, blinds.ante_format
        if ante and self.n == 2 and fmt.value in p.no_heads_up_ante:
            ante = 0  # cdc 4.4: no ante heads-up outside the classic format
        ante_rule = p.cite("ante")
        self._post_antes_before_blinds(ante, fmt, ante_rule)
        bb_ante = ante if fmt is AnteFormat.BIG_BLIND else 0
        if bb_ante and p.bb_ante_priority is AntePriority.ANTE:
            self._post_bb_ante(bb_ante, ante_rule)  # cdc 4.2: ante before the big blind
        if self.sb_i >= 0 and blinds.sb > 0:
            i = self.sb_i
            paid = self._move(i, blinds.sb)
            ev.append(
                Posted(
                    player=self.names[i],
                    kind=PostKind.SMALL_BLIND,
                    amount=paid,
                    allin=self.allin[i],
                    rule=p.cite("dead_button"),
                )
            )
        i = self.bb_i
        paid = self._move(i, self.bb)
        ev.append(
            Posted(
                player=self.names[i],
                kind=PostKind.BIG_BLIND,
                amount=paid,
                allin=self.allin[i],
                rule=p.cite("short_bb") if paid < self.bb else "",
            )
        )
        if bb_ante and p.bb_ante_priority is AntePriority.BLIND:
            self._post_bb_ante(bb_ante, ante_rule)  # fpc 6-1: the big blind first
        self._post_cash()
        # cdc 9.7: the big blind is a bet even when short; the call stays one big blind
        self.cb = self.bb
        self.last_full_inc = self.bb
        first = self.seat_of[self.bb_i]
        if self.option_i >= 0:
            self._post_option(self.option_i)
            first = self.seat_of[self.option_i]  # the action starts on the option's left
        self._deal_hole_cards()
        self._start_round(first=self._clockwise_from_seat(first))

    def _post_option(self, i: int) -> None:
        """casino cash: « L'option est autorisée en Cash Game »: a live blind of two big
        blinds, after the blinds and the seat fees. It is his bet of the round and he has not
        acted, so the turn comes back to him last (he checks his option or raises). The
        option is the new big blind: the bet, and the raise increment (the next raise is to
        twice the option under either ``min_raise`` rule). Short: what he has, all-in; the
        bet stays at least the big blind and a short option sets no increment (cdc 9.7,
        9.8)."""
        option = 2 * self.bb
        if self.stack[i] > 0:
            paid = self._move(i, option - self.committed[i])
            self.events.append(
                Posted(
                    player=self.names[i],
                    kind=PostKind.OPTION,
                    amount=paid,
                    allin=self.allin[i],
                    rule=self.profile.cite("option") or "casino-option",
                )
            )
        posted = self.committed[i]
        self.cb = max(self.cb, posted)
        if posted >= option:
            self.last_full_inc = posted

    def _post_cash(self) -> None:
        """Seat fees and dead posts (casino cash), after the blinds, clockwise from the
        button's left. The seat fee is live (« comme droit de siège, le montant équivalent de
        la grosse blind »): it goes into the round like a blind, and the blind the player
        posted this hand counts toward it, so the big blind posts nothing more. It changes
        neither the bet of the round (at most the big blind) nor who speaks first; the player
        has not acted, so the turn comes to him and he may check if nobody raised. The dead
        post (« la petite blind sera mise directement dans le pot ») is dead money, not his
        bet, paid after the live post. Short of chips: what he has, all-in."""
        seats = {s.player: s for s in self.setup.seats}
        fee_rule = self.profile.cite("seat_fee") or "casino-droit-de-siege"
        dead_rule = self.profile.cite("dead_blind") or "casino-miss-blinds"
        for i in self.after_button:
            s = seats[self.names[i]]
            # casino cash: « il est possible de rentrer sur la table directement en option »:
            # the option (two big blinds, live) covers his seat fee
            top_up = 0 if i == self.option_i else s.seat_fee - self.committed[i]
            if top_up > 0 and self.stack[i] > 0:
                paid = self._move(i, top_up)
                # casino cash « miss blinds »: a live post with a dead small blind is his owed
                # big blind (« déposée devant sa case, comme un droit de siège »), not a fee
                owed = s.dead_post > 0
                self.events.append(
                    Posted(
                        player=self.names[i],
                        kind=PostKind.MISSED_BIG_BLIND if owed else PostKind.SEAT_FEE,
                        amount=paid,
                        allin=self.allin[i],
                        rule=dead_rule if owed else fee_rule,
                    )
                )
            if s.dead_post > 0 and self.stack[i] > 0:
                paid = self._post_ante_dead(i, s.dead_post)
                self.events.append(
                    Posted(
                        player=self.names[i],
                        kind=PostKind.DEAD_BLIND,
                        amount=paid,
                        allin=self.allin[i],
                        rule=dead_rule,
                    )
                )

    def _post_antes_before_blinds(self, ante: int, fmt: AnteFormat, rule: str) -> None:
        """The classic antes, or the button ante (the big blind ante: _post_bb_ante)."""
        ev = self.events
        if ante and fmt is AnteFormat.CLASSIC:
            # classic antes are contributions, paid before the blinds (fpc 6-1)
            for i in range(self.n):
                paid = self._move(i, ante)
                self.committed[i] -= paid  # antes are not bets of the round
                ev.append(
                    Posted(
                        player=self.names[i],
                        kind=PostKind.ANTE,
                        amount=paid,
                        allin=self.allin[i],
                        rule=rule,
                    )
                )
        elif ante and fmt is AnteFormat.BUTTON:
            button_i = next((i for i in range(self.n) if self.seat_of[i] == self.button), -1)
            if button_i >= 0:  # cdc 4.3: no button ante when the button is dead
                paid = self._post_ante_dead(button_i, ante)
                ev.append(
                    Posted(
                        player=self.names[button_i],
                        kind=PostKind.ANTE,
                        amount=paid,
                        allin=self.allin[button_i],
                        rule=rule,
                    )
                )

    def _deal_hole_cards(self) -> None:
        ev = self.events
        for i in range(self.n):
            if self.dead[i]:
                ev.append(DeadHand(player=self.names[i], rule=self.profile.cite("dead_hand")))
            else:
                ev.append(HoleDealt(player=self.names[i], cards=self.hole[i]))

    def _post_bb_ante(self, amount: int, rule: str) -> None:
        i = self.bb_i
        if self.stack[i] == 0:
            return
        paid = self._post_ante_dead(i, amount)
        self.events.append(
            Posted(
                player=self.names[i],
                kind=PostKind.ANTE,
                amount=paid,
                allin=self.allin[i],
                rule=rule,
            )
        )

    # ------------------------------------------------------------------ queries

    @property
    def finished(self) -> bool:
        return self.phase is Phase.FINISHED

    def stacks(self) -> dict[str, int]:
        """Chips behind each player (after the pots are awarded once finished)."""
        return dict(zip(self.names, self.stack, strict=True))

    def pot_total(self) -> int:
        return sum(self.contrib) + self.dead_money

    def rake_taken(self) -> int:
        """Chips the house retained from this hand's pots (casino cash, « la taille »): 0
        until the pots are awarded; then the stacks plus this are the chips the hand began
        with."""
        return sum(e.rake for e in self.events if isinstance(e, PotAwarded))

    @property
    def face_up(self) -> bool:
        """Every live hand was turned face up (all-in, no more betting: cdc 10.4, tda 15)."""
        return self._showing.face_up

    @property
    def shown(self) -> frozenset[int]:
        """The players whose hand was shown (indices)."""
        return self._showing.shown

    @property
    def mucked(self) -> frozenset[int]:
        """The players who mucked at the showdown (indices)."""
        return self._showing.mucked

    @property
    def showdown_order(self) -> list[int]:
        """The showing order once the showdown began (cdc 10.5, tda 16), else empty."""
        return list(self._showing.order)

    @property
    def runs(self) -> int:
        """How many runs of the board are dealt (1 until several are decided, see
        :mod:`.runs`)."""
        return self._runs.count

    @property
    def runs_from(self) -> Street:
        """The first street dealt once per run: the flop (all-in preflop) or the turn (all-in
        on the flop); meaningful once ``runs > 1``."""
        return self._runs.start

    @property
    def runs_decided(self) -> bool:
        return self._runs.decided

    @property
    def runs_answers(self) -> dict[int, int]:
        """Each player's answer to the offer of several runs, by index."""
        return dict(self._runs.answers)

    def runs_awaited(self) -> tuple[str, ...]:
        """The players whose answer the hand waits for (empty outside :attr:`Phase.RUNS`)."""
        if self.phase is not Phase.RUNS:
            return ()
        runs = self._runs
        return tuple(self.names[i] for i in self.live() if not runs.answered(i))

    def run_board(self, run: int) -> tuple[int, ...]:
        """The five cards of run ``run`` (1-based) once it is decided; run 1 is the board."""
        return self._runs.board_of(run)

    def boards(self) -> list[tuple[int, ...]]:
        """Each run's board as dealt so far (run 1 first): ``[tuple(Hand.board)]`` for a hand
        dealt once."""
        boards = [tuple(self.board)]
        runs = self._runs
        if runs.count > 1 and self.phase in (Phase.SHOWDOWN, Phase.FINISHED):
            boards += [runs.board_of(run) for run in range(2, runs.count + 1)]
        return boards

    def draw_menu(self) -> DrawMenu | None:
        """Five-card draw: who must draw now, or None when no draw is awaited."""
        drawing = self.drawing
        if self.phase is not Phase.DRAW or drawing is None or drawing.drawer < 0:
            return None
        return DrawMenu(player=self.names[drawing.drawer], max_discard=drawing.max_discard)

    # ------------------------------------------------------------------ commands

    def agree_runs(self, command: AgreeRuns) -> list[Event]:
        """One player's answer to the offer of several runs (see :mod:`.runs`). Raises
        :class:`RuleError` (``runs_not_offered`` outside the wait, ``not_in_hand`` for a
        player out of the pot, ``declaration_binds`` for a second answer, ``bad_amount`` for
        a number outside 1..``HandSetup.runs``), changing nothing."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        i = self.index.get(command.player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {command.player!r} in this hand")
        if self.phase is not Phase.RUNS:
            raise RuleError(
                ErrorCode.RUNS_NOT_OFFERED,
                "no runs are offered: only once two players are all-in before the turn",
                RULE_AGREED,
            )
        if self.folded[i]:
            raise RuleError(ErrorCode.NOT_IN_HAND, "this player is not in the pot")
        runs = self._runs.verify_answer(i, command.runs)
        mark = len(self.events)
        self._runs, chosen = self._runs.answer(i, runs, in_pot=len(self.live()))
        self.events.append(RunsAnswered(player=self.names[i], runs=runs))
        if chosen is not None:
            self._end_wait(chosen)
        return self.events[mark:]

    def runs_timeout(self) -> list[Event]:
        """The table's clock ended the wait: whoever did not answer refused, one run. Raises
        :class:`RuleError` (``runs_not_offered``) outside the wait, changing nothing."""
        if self.phase is not Phase.RUNS:
            raise RuleError(ErrorCode.RUNS_NOT_OFFERED, "no runs are offered", RULE_AGREED)
        mark = len(self.events)
        self._runs, chosen = self._runs.choose(1, RULE_AGREED, "no answer: one run")
        self._end_wait(chosen)
        return self.events[mark:]

    def draw(self, command: Draw) -> list[Event]:
        """Five-card draw: the player in turn discards ``command.discard`` and is dealt as
        many cards (see :mod:`.draw`). Raises :class:`RuleError`, changing nothing (no card
        leaves the stub): ``hand_over`` once the hand is over, ``unknown_player``,
        ``not_drawing`` outside the draw (a betting round, the showdown), ``not_your_draw``
        for anyone but the player in turn (out-of-turn rules do not apply to the draw),
        ``card_not_held``, ``same_card_twice``, ``too_many_discards``."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        i = self.index.get(command.player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {command.player!r} in this hand")
        drawing = self.drawing
        if self.phase is not Phase.DRAW or drawing is None:
            raise RuleError(ErrorCode.NOT_DRAWING, "no draw in progress", RULE_DRAW)
        discard = command.discard
        drawing.verify(i, self.hole[i], discard)
        mark = len(self.events)
        drawn = drawing.deal(i, self.hole[i], discard)
        self.hole[i] = drawn.cards
        name = self.names[i]
        if drawn.reshuffled:
            self.events.append(StubReshuffled(count=drawn.reshuffled, rule=RULE_STUB))
        self.events.append(Drew(player=name, count=len(discard), rule=RULE_DRAW))
        self.events.append(
            DrawDealt(player=name, discarded=discard, received=drawn.received, cards=drawn.cards)
        )
        if drawing.complete:
            self._end_draw()
        return self.events[mark:]

    def _end_draw(self) -> None:
        """Everyone has drawn: the second betting round, from the first player left of the
        button who can still act (none when fewer than two can: the showdown)."""
        self.phase = Phase.BETTING
        self.street = Street.DRAW
        self._next_round()

    def cancel(self) -> list[Event]:
        """Cancel the hand and return every chip posted or bet (cdc 5.4)."""
        if self.phase in (Phase.FINISHED, Phase.CANCELLED):
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        self.stack = list(self.start)
        self.committed = [0] * self.n
        self.contrib = [0] * self.n
        self.dead_money = 0
        self.phase = Phase.CANCELLED
        self.to_act = -1
        event = HandCancelled(
            stacks=tuple(zip(self.names, self.stack, strict=True)), rule=self.profile.cite("cancel")
        )
        self.events.append(event)
        return [event]
