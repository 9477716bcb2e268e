"""The showdown and the pots of a hand: who shows, who mucks, who wins what.

The lowest layer of :class:`~server.engine.hand.Hand` (state in
:class:`~server.engine.state.HandState`, who shows and who mucks in a
:class:`~server.engine.showing.Showing`): the hands turned face up, the showing order,
showing and mucking, and the award. The pots (main pot, side pots, chips no live player can
win, the uncalled bet, the division among winners) are pure functions of the chips put in,
in :mod:`.pots`; this layer keeps their results and moves the chips.
"""

from __future__ import annotations

from . import cards as _cards
from .commands import Muck, Show
from .errors import ErrorCode, RuleError
from .events import Event, FaceUp, HandEnded, Mucked, PotAwarded, Returned, Shown
from .pots import Layers, layers, split, uncalled
from .profile import AllinShowdown
from .rake import pot_rakes
from .state import HandState, Phase, PotView

__all__ = ["Showdown"]


class Showdown(HandState):
    """Showing, mucking and awarding the pots (cdc 10, tda 15-20)."""

    _final_pots: Layers | None
    _values: dict[int, int]
    _board_eval: list[object]

    # ------------------------------------------------------------------ commands

    def show(self, command: Show) -> list[Event]:
        i = self._showdown_player(command.player)
        if self.phase is Phase.FINISHED:
            if i in self._showing.shown:
                return []
            if len(self.live()) != 1 or self.folded[i]:
                raise RuleError(ErrorCode.NOT_SHOWDOWN, "only the uncontested winner may show now")
            mark = len(self.events)
            self._show(i)  # cdc 10.1: a winner without a call may show
            return self.events[mark:]
        mark = len(self.events)
        self._show(i)
        self._maybe_award()
        return self.events[mark:]

    def muck(self, command: Muck) -> list[Event]:
        i = self._showdown_player(command.player)
        if self.phase is Phase.FINISHED:
            raise RuleError(ErrorCode.HAND_OVER, "the hand is over")
        showing = self._showing
        if i in showing.shown or showing.face_up:
            raise RuleError(
                ErrorCode.MUST_SHOW, "this hand is face up (all-in)", self.profile.cite("face_up")
            )
        if self.river_bet and i == showing.first:
            raise RuleError(
                ErrorCode.MUST_SHOW, "a called bettor shows first", self.profile.cite("must_show")
            )
        if len(showing.contenders(self.live())) <= 1:
            raise RuleError(ErrorCode.MUST_SHOW, "the last hand in the pot cannot be mucked")
        mark = len(self.events)
        self._showing = showing.mucking(i)
        self.events.append(Mucked(player=self.names[i]))
        self._maybe_award()
        return self.events[mark:]

    def auto_showdown(self) -> list[Event]:
        """Decide the remaining showdown in order: show a hand that can still win a pot it
        is in, muck the others (what an online table does when the showdown clock ends)."""
        if self.phase is not Phase.SHOWDOWN:
            return []
        mark = len(self.events)
        pots = [eligible for _, eligible in self._final_layers()]
        shown = self._showing.shown
        best = [max((self._value(j) for j in e if j in shown), default=-1) for e in pots]
        remaining = len(self._showing.contenders(self.live()))
        for i in self._showing.order:
            showing = self._showing
            if i in showing.shown or i in showing.mucked:
                continue
            value = self._value(i)
            mine = [k for k, e in enumerate(pots) if i in e]
            can_win = any(value >= best[k] for k in mine)
            must = (self.river_bet and i == showing.first) or remaining == 1
            if can_win or must:
                self._show(i)
                for k in mine:
                    best[k] = max(best[k], value)
            else:
                self._showing = showing.mucking(i)
                remaining -= 1
                self.events.append(Mucked(player=self.names[i]))
        self._maybe_award()
        return self.events[mark:]

    # ------------------------------------------------------------------ pots

    def pots(self) -> list[PotView]:
        """Main pot first, then side pots; awarded pots carry their winners."""
        if self.awarded:
            return list(self.awarded)
        return [
            PotView(amount=a, eligible=tuple(self.names[i] for i in e))
            for a, e in self._layers(view=True)
        ]

    def _layers(self, view: bool = False) -> Layers:
        """The pots from the contributions (see :func:`.pots.layers`); the chips no live
        player can win are kept in :attr:`unwinnable`, returned at the award."""
        pots, self.unwinnable = layers(
            self.contrib,
            folded=self.folded,
            allin=self.allin,
            dead_money=self.dead_money,
            view=view,
        )
        return pots

    def _final_layers(self) -> Layers:
        """The pots once betting is over (contributions no longer change): computed once."""
        if self._final_pots is None:
            self._final_pots = self._layers()
        return self._final_pots

    def _return_uncalled(self) -> None:
        """The bet of the round nobody called goes back to its owner (see
        :func:`.pots.uncalled`)."""
        returned = uncalled(self.committed, self.folded)
        if returned is None:
            return
        i, excess = returned
        self.committed[i] -= excess
        self.contrib[i] -= excess
        self.stack[i] += excess
        if self.allin[i]:
            self.allin[i] = False
            self.n_able += 1
        self.events.append(Returned(player=self.names[i], amount=excess))

    # ------------------------------------------------------------------ showdown

    def _turn_face_up(self) -> None:
        """cdc 10.4, tda 15: all-in and no more betting possible: every live hand face up.
        Five-card draw: not before the draw (project choice: the hands are still to be
        drawn to, and the draw is secret; they are opened once it is over)."""
        if self._showing.face_up or (
            self.drawing is not None and self.street is not self.last_street
        ):
            return
        live = self.live()
        if len(live) < 2:
            return
        self._showing = self._showing.turned_face_up(live)
        self.events.append(
            FaceUp(
                hands=tuple((self.names[i], self.hole[i]) for i in live),
                rule=self.profile.cite("face_up"),
            )
        )

    def _showdown_player(self, player: str) -> int:
        i = self.index.get(player, -1)
        if i < 0:
            raise RuleError(ErrorCode.UNKNOWN_PLAYER, f"no player {player!r} in this hand")
        if self.phase is Phase.CANCELLED:
            raise RuleError(ErrorCode.HAND_OVER, "the hand was cancelled")
        if self.phase is Phase.BETTING or self.phase is Phase.DRAW:
            raise RuleError(
                ErrorCode.NOT_SHOWDOWN,
                "no showing while betting is possible",
                self.profile.cite("face_up"),
            )
        if self.folded[i] and self.phase is Phase.SHOWDOWN:
            raise RuleError(ErrorCode.NOT_IN_HAND, "a folded hand is never shown")
        return i

    def _start_showdown(self) -> None:
        self.phase = Phase.SHOWDOWN
        self.to_act = -1
        live = self.live()
        if self.round_aggressor >= 0 and not self.folded[self.round_aggressor]:
            first = self.round_aggressor  # cdc 10.5, tda 16: the last aggressor shows first
            order = [(first + k) % self.n for k in range(self.n)]
        else:
            order = self.after_button
        self._showing = self._showing.ordered(i for i in order if i in live)
        if not self._showing.face_up and any(self.allin[i] for i in live):
            mode = self.profile.allin_showdown
            if mode is AllinShowdown.ALL:
                self._turn_face_up()  # tda 15: every hand tabled, none mucked
            elif mode is AllinShowdown.ALLIN:
                for i in self._showing.order:
                    if self.allin[i]:
                        self._show(i)  # fpc 19-11
        if self._showing.face_up:
            for i in self._showing.order:
                self.events.append(
                    Shown(
                        player=self.names[i],
                        cards=self.hole[i],
                        hand=_cards.hand_type(self._value(i)),
                    )
                )
        self._maybe_award()

    def _value(self, i: int) -> int:
        value = self._values.get(i)
        if value is None:
            value = self._values[i] = _cards.evaluate_with(self.hole[i], self._board_eval)
        return value

    def _run_value(self, i: int, run: int) -> int:
        """The value of player i's hand on run ``run`` of the board (:mod:`.runs`)."""
        if run == 1:
            value = self._values.get(i)
            if value is None:
                value = self._values[i] = _cards.evaluate([*self.hole[i], *self.board_cards])
            return value
        return self._runs.value(i, self.hole[i], run)

    def _show(self, i: int) -> None:
        if i in self._showing.shown and self.phase is not Phase.FINISHED:
            return
        self._showing = self._showing.showing(i)
        # cdc 3.6, tda 28: no rabbit hunting, not even as a hand rank: a hand shown before
        # the whole board was dealt (an uncontested winner, cdc 10.1) is ranked with the
        # cards dealt only
        dealt = len(self.board) == len(self.board_cards)
        value = self._value(i) if dealt else _cards.evaluate([*self.hole[i], *self.board])
        self.events.append(
            Shown(player=self.names[i], cards=self.hole[i], hand=_cards.hand_type(value))
        )

    def _maybe_award(self) -> None:
        if self.phase is not Phase.SHOWDOWN:
            return
        showing = self._showing
        contenders = showing.contenders(self.live())
        if len(contenders) > 1 and any(i not in showing.shown for i in contenders):
            return
        self._award(contenders)

    def _finish_uncontested(self) -> None:
        self._return_uncalled()
        self.oot.clear()
        self._award(self.live())

    def _award(self, contenders: list[int]) -> None:
        pots = self._final_layers()
        for i, amount in enumerate(self.unwinnable):
            if amount:
                self.stack[i] += amount
                self.events.append(Returned(player=self.names[i], amount=amount))
        rank = {i: k for k, i in enumerate(self.after_button)}
        unit = self.denominations[0]
        views: list[PotView] = [PotView(amount=0, eligible=())] * len(pots)
        # casino cash, « la taille »: every pot raked before it is split, even on a tie or
        # when it holds only the blinds (returned and unwinnable chips are no pot)
        rakes = pot_rakes([amount for amount, _ in pots], self.setup.rake, unit)
        # cdc 10.7, tda 20: each pot separately, the outermost first
        for index in range(len(pots) - 1, -1, -1):
            amount, eligible = pots[index]
            field = [i for i in eligible if i in contenders] or eligible
            if self._runs.count > 1 and len(field) > 1:
                # fpc multi-bordes: the pot, raked first, is divided into the runs (.runs)
                views[index] = self._award_runs(index, amount, eligible, field, rakes[index])
                continue
            if len(field) == 1:
                winners = field
            else:
                best = max(self._value(i) for i in field)
                winners = [i for i in field if self._value(i) == best]
            winners.sort(key=rank.__getitem__)
            shares = split(amount - rakes[index], len(winners), unit, self.profile.split_remainder)
            for w, share in zip(winners, shares, strict=True):
                self.stack[w] += share
            views[index] = PotView(
                amount=amount,
                eligible=tuple(self.names[i] for i in eligible),
                winners=tuple(self.names[i] for i in winners),
            )
            self.events.append(
                PotAwarded(
                    index=index,
                    amount=amount,
                    eligible=views[index].eligible,
                    winners=views[index].winners,
                    shares=tuple((self.names[w], s) for w, s in zip(winners, shares, strict=True)),
                    rule=self.profile.cite("odd_chip") if len(winners) > 1 else "",
                    rake=rakes[index],
                )
            )
        self.awarded = views
        self.committed = [0] * self.n
        self.phase = Phase.FINISHED
        self.to_act = -1
        busted = sorted(
            (i for i in range(self.n) if self.stack[i] == 0), key=lambda i: -self.start[i]
        )
        self.events.append(
            HandEnded(
                stacks=tuple(zip(self.names, self.stack, strict=True)),
                busted=tuple((self.names[i], self.start[i]) for i in busted),
            )
        )

    def _award_runs(
        self, index: int, amount: int, eligible: list[int], field: list[int], rake: int
    ) -> PotView:
        """fpc multi-bordes: pot ``index`` of ``amount`` chips (``rake`` of them retained),
        contested by ``field``, divided into the runs, each part to its run's best hand (see
        :mod:`.runs`, Pots)."""
        unit = self.denominations[0]
        remainder = self.profile.split_remainder
        rank = {i: k for k, i in enumerate(self.after_button)}
        parts = split(amount - rake, self._runs.count, unit, remainder)
        names = self.names
        won: set[int] = set()
        for run, part in enumerate(parts, start=1):
            best = max(self._run_value(i, run) for i in field)
            winners = sorted(
                (i for i in field if self._run_value(i, run) == best), key=rank.__getitem__
            )
            shares = split(part, len(winners), unit, remainder)
            for w, share in zip(winners, shares, strict=True):
                self.stack[w] += share
            won.update(winners)
            taken = rake if run == 1 else 0
            self.events.append(
                PotAwarded(
                    index=index,
                    amount=part + taken,
                    eligible=tuple(names[i] for i in eligible),
                    winners=tuple(names[w] for w in winners),
                    shares=tuple((names[w], s) for w, s in zip(winners, shares, strict=True)),
                    rule=self.profile.cite("odd_chip") if len(winners) > 1 else "",
                    rake=taken,
                    run=run,
                )
            )
        return PotView(
            amount=amount,
            eligible=tuple(names[i] for i in eligible),
            winners=tuple(names[i] for i in sorted(won, key=rank.__getitem__)),
        )
