"""The fpc heads-up cup (part C, "LA COUPE HEADS-UP"): draw, repêchage, bracket (pure).

"Cette compétition est au format coupe, c'est-à-dire avec élimination directe à l'issu de
la rencontre." "Un tirage au sort est fait pour déterminer les duels et placer les joueurs
sur le tableau ci-contre." "En fonction du nombre de participants, à l'issu du 1er tour un
repêchage par tirage au sort pourra avoir lieu pour compléter le tableau des 16ème."
"Stack de départ : 6 000 jetons / Blinds: 100/200 / Les blinds restent fixes tout le long du
Heads-Up". "Qualification pour le tour suivant: 1er Tour : deux manches gagnées / 16ème :
deux manches gagnées / 8ème : deux manches gagnées / Quart : trois manches gagnées /
Demi-finale : trois manches gagnées / Finale et petite finale : trois manches gagnées".

Readings:

- "deux manches gagnées" is the number of games to win: first to 2 (best of 3) up to the
  8ème, first to 3 (best of 5) from the quarter-finals, the final and the "petite finale"
  (third place, between the semi-final losers).
- "le tableau des 16ème" is the bracket of the "seizièmes de finale": 16 matches, 32
  players. Everyone plays the 1er tour (drawn pairs; an odd player out, the last drawn, goes
  through without playing); its winners enter the main bracket, whose size is the smallest
  power of two holding them (32 for 33 to 64 participants, as the text's club sizes), and
  the missing places are filled by drawing losers of the 1er tour (the repêchage). A field
  of exactly a power of two needs none ("pourra avoir lieu").
- The text's plan of the bracket ("ci-contre") is missing: the winners keep the order of
  the 1er tour; the i-th repêché drawn meets the i-th winner; the other winners meet in
  order. The text does not forbid a repêché meeting again the player who beat him.
- A round the text does not name (a 1/32 for a field of 65 to 128) is played like the
  rounds before the quarters: first to 2.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from enum import StrEnum
from types import MappingProxyType
from typing import Any

from .errors import BracketError, LeagueConfigError

__all__ = [
    "FPC_CUP",
    "FPC_CUP_GAME",
    "Bracket",
    "CupGame",
    "CupRound",
    "CupRules",
    "Match",
    "draw_cup",
]


class CupRound(StrEnum):
    FIRST_ROUND = "first_round"
    """fpc "1er Tour": everybody, before the repêchage."""
    THIRTY_SECOND = "1/32"
    """Not in the text (more than 64 participants)."""
    SIXTEENTH = "1/16"
    """fpc "16ème": 16 matches."""
    EIGHTH = "1/8"
    """fpc "8ème"."""
    QUARTER = "1/4"
    """fpc "Quart"."""
    SEMI = "1/2"
    """fpc "Demi-finale"."""
    FINAL = "final"
    """fpc "Finale"."""
    THIRD_PLACE = "third_place"
    """fpc "petite finale": the semi-final losers."""


_MAIN_ROUNDS = (
    CupRound.THIRTY_SECOND,
    CupRound.SIXTEENTH,
    CupRound.EIGHTH,
    CupRound.QUARTER,
    CupRound.SEMI,
    CupRound.FINAL,
)
_MAX_MAIN = 2 ** len(_MAIN_ROUNDS)


@dataclass(frozen=True, slots=True, kw_only=True)
class CupGame:
    """The game of every match: fixed blinds, no levels, no ante."""

    starting_stack: int = 6_000
    small_blind: int = 100
    big_blind: int = 200


FPC_CUP_GAME = CupGame()
"""fpc: "Stack de départ : 6 000 jetons", "Blinds: 100/200", "Les blinds restent fixes"."""


@dataclass(frozen=True, slots=True, kw_only=True)
class CupRules:
    wins_needed: Mapping[CupRound, int]
    game: CupGame = FPC_CUP_GAME
    third_place: bool = True

    def __post_init__(self) -> None:
        missing = [r for r in CupRound if self.wins_needed.get(r, 0) < 1]
        if missing:
            raise LeagueConfigError(f"games to win missing for {missing}")


FPC_CUP = CupRules(
    wins_needed=MappingProxyType(
        {
            CupRound.FIRST_ROUND: 2,
            CupRound.THIRTY_SECOND: 2,
            CupRound.SIXTEENTH: 2,
            CupRound.EIGHTH: 2,
            CupRound.QUARTER: 3,
            CupRound.SEMI: 3,
            CupRound.FINAL: 3,
            CupRound.THIRD_PLACE: 3,
        }
    )
)


@dataclass(frozen=True, slots=True, kw_only=True)
class Match:
    match_id: str
    round: CupRound
    index: int
    players: tuple[str | None, str | None]
    wins_needed: int
    score: tuple[int, int] = (0, 0)
    """Games won by each of ``players``."""
    bye: bool = False
    """The odd player of the 1er tour, through without playing."""

    @property
    def winner(self) -> str | None:
        if self.bye:
            return self.players[0]
        for player, won in zip(self.players, self.score, strict=True):
            if won >= self.wins_needed:
                return player
        return None

    @property
    def loser(self) -> str | None:
        winner = self.winner
        if winner is None or self.bye:
            return None
        return self.players[1] if winner == self.players[0] else self.players[0]

    @property
    def ready(self) -> bool:
        """Both players known and not yet decided: a game result can be recorded."""
        return None not in self.players and self.winner is None


def _match(
    rules: CupRules, round_: CupRound, index: int, players: tuple[str | None, str | None]
) -> Match:
    return Match(
        match_id=f"{round_.value}#{index + 1}",
        round=round_,
        index=index,
        players=players,
        wins_needed=rules.wins_needed[round_],
    )


def _main_matches(rules: CupRules, slots: Sequence[str]) -> list[Match]:
    """Every match of the main bracket; ``slots[2i]`` meets ``slots[2i + 1]``."""
    first = _MAIN_ROUNDS.index(CupRound.FINAL) - (len(slots).bit_length() - 2)
    matches: list[Match] = []
    for depth, round_ in enumerate(_MAIN_ROUNDS[first:]):
        count = len(slots) // 2 ** (depth + 1)
        for i in range(count):
            pair = (slots[2 * i], slots[2 * i + 1]) if depth == 0 else (None, None)
            matches.append(_match(rules, round_, i, pair))
    if rules.third_place and len(slots) >= 4:
        matches.append(_match(rules, CupRound.THIRD_PLACE, 0, (None, None)))
    return matches


def _set_player(match: Match, slot: int, player: str) -> Match:
    players = (player, match.players[1]) if slot == 0 else (match.players[0], player)
    return replace(match, players=players)


@dataclass(frozen=True, slots=True, kw_only=True)
class Bracket:
    """The cup, immutable: every result returns a new bracket. Build with :func:`draw_cup`."""

    rules: CupRules
    players: tuple[str, ...]
    """In draw order."""
    matches: tuple[Match, ...]
    repechage: tuple[str, ...] = ()
    """The losers of the 1er tour drawn back in, in draw order."""

    # ------------------------------------------------------------ reading

    def match(self, match_id: str) -> Match:
        for m in self.matches:
            if m.match_id == match_id:
                return m
        raise BracketError(f"no match {match_id!r}")

    def round_matches(self, round_: CupRound) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.round is round_)

    def ready_matches(self) -> tuple[Match, ...]:
        return tuple(m for m in self.matches if m.ready)

    @property
    def main_started(self) -> bool:
        return any(m.round is not CupRound.FIRST_ROUND for m in self.matches)

    def _first_round_winners(self) -> list[str]:
        return [w for m in self.round_matches(CupRound.FIRST_ROUND) if (w := m.winner) is not None]

    def repechage_needed(self) -> int:
        """How many losers the repêchage must draw (0 when none or not yet known)."""
        first = self.round_matches(CupRound.FIRST_ROUND)
        if self.main_started or any(m.winner is None for m in first):
            return 0
        winners = len(first)
        return (1 << (winners - 1).bit_length()) - winners

    @property
    def champion(self) -> str | None:
        finals = self.round_matches(CupRound.FINAL)
        return finals[0].winner if finals else None

    @property
    def finished(self) -> bool:
        return self.main_started and all(m.winner is not None for m in self.matches)

    # ------------------------------------------------------------ results

    def record_game(self, match_id: str, winner: str) -> Bracket:
        """One game of a match won by ``winner``.

        Raises :class:`BracketError` for an unknown match, a match whose players are not
        both known yet or that is already decided, a winner who is not in the match; the
        bracket is then unchanged.
        """
        match = self.match(match_id)
        if match.winner is not None:
            raise BracketError(f"{match_id} is already decided ({match.winner} won)")
        if not match.ready:
            raise BracketError(f"{match_id} is not ready: players {match.players}")
        if winner not in match.players:
            raise BracketError(f"{winner!r} does not play {match_id} {match.players}")
        slot = match.players.index(winner)
        score = (match.score[0] + (slot == 0), match.score[1] + (slot == 1))
        return self._with(replace(match, score=score))

    def record_match(self, match_id: str, winner: str, loser_games: int = 0) -> Bracket:
        """A whole match: ``winner`` won it, his opponent took ``loser_games`` games.

        Raises :class:`BracketError` as :meth:`record_game` does, when games were already
        recorded for it, or when ``loser_games`` is not below the games to win.
        """
        match = self.match(match_id)
        if match.ready and winner not in match.players:
            raise BracketError(f"{winner!r} does not play {match_id} {match.players}")
        if match.ready and match.score != (0, 0):
            raise BracketError(f"{match_id} already has games recorded {match.score}")
        if not 0 <= loser_games < match.wins_needed:
            raise BracketError(f"{match_id}: a loser cannot win {loser_games} games")
        bracket = self
        loser = next((p for p in match.players if p != winner and p is not None), None)
        for _ in range(loser_games):
            if loser is None:
                break
            bracket = bracket.record_game(match_id, loser)
        for _ in range(match.wins_needed):
            bracket = bracket.record_game(match_id, winner)
        return bracket

    def draw_repechage(self, rng: random.Random) -> Bracket:
        """Draw the losers of the 1er tour who fill the main bracket, and build it.

        Raises :class:`BracketError` unless the 1er tour is over and places are missing.
        """
        needed = self.repechage_needed()
        if needed == 0:
            raise BracketError("no repêchage to draw now")
        first = self.round_matches(CupRound.FIRST_ROUND)
        losers = [loser for m in first if (loser := m.loser) is not None]
        drawn = tuple(rng.sample(losers, needed))
        return self._build_main(drawn)

    # ------------------------------------------------------------ internals

    def _with(self, match: Match) -> Bracket:
        matches = [match if m.match_id == match.match_id else m for m in self.matches]
        bracket = replace(self, matches=tuple(matches))
        if match.winner is None:
            return bracket
        if match.round is CupRound.FIRST_ROUND:
            first = bracket.round_matches(CupRound.FIRST_ROUND)
            if all(m.winner for m in first) and bracket.repechage_needed() == 0:
                return bracket._build_main(())
            return bracket
        return bracket._advance(match)

    def _build_main(self, drawn: tuple[str, ...]) -> Bracket:
        winners = self._first_round_winners()
        if len(winners) + len(drawn) > _MAX_MAIN:
            raise BracketError(f"a main bracket of {len(winners) + len(drawn)} is too large")
        slots: list[str] = []
        for i, repeche in enumerate(drawn):
            slots += [winners[i], repeche]
        slots += winners[len(drawn) :]
        main = _main_matches(self.rules, slots)
        return replace(self, matches=self.matches + tuple(main), repechage=drawn)

    def _advance(self, match: Match) -> Bracket:
        winner, loser = match.winner, match.loser
        if winner is None or loser is None or match.round in (CupRound.FINAL, CupRound.THIRD_PLACE):
            return self
        updates: dict[str, Match] = {}
        following = _MAIN_ROUNDS[_MAIN_ROUNDS.index(match.round) + 1]
        target = self.round_matches(following)[match.index // 2]
        updates[target.match_id] = _set_player(target, match.index % 2, winner)
        third = self.round_matches(CupRound.THIRD_PLACE)
        if match.round is CupRound.SEMI and third:
            updates[third[0].match_id] = _set_player(third[0], match.index % 2, loser)
        matches = tuple(updates.get(m.match_id, m) for m in self.matches)
        return replace(self, matches=matches)

    def places(self) -> list[tuple[str, int]]:
        """Every player's final place once the cup is :attr:`finished` (empty before): 1 the
        champion, 2 the final's loser, 3 and 4 the « petite finale »'s winner and loser
        (without it, both semi-final losers 3), then the losers of each earlier round tied
        at the first place after the round above (the losers of the quarters 5th, of the
        8ths 9th...), and last, tied, the losers of the 1er tour not drawn back in."""
        if not self.finished:
            return []
        out: list[tuple[str, int]] = []
        final = self.round_matches(CupRound.FINAL)[0]
        assert final.winner is not None and final.loser is not None
        out += [(final.winner, 1), (final.loser, 2)]
        third = self.round_matches(CupRound.THIRD_PLACE)
        if third and third[0].winner is not None and third[0].loser is not None:
            out += [(third[0].winner, 3), (third[0].loser, 4)]
        rounds = [r for r in _MAIN_ROUNDS[:-1] if self.round_matches(r)]
        for round_ in reversed(rounds):
            losers = [m.loser for m in self.round_matches(round_) if m.loser is not None]
            if round_ is CupRound.SEMI and third:
                continue  # placed by the « petite finale »
            place = len(out) + 1
            out += [(p, place) for p in losers]
        back = set(self.repechage)
        place = len(out) + 1
        first = self.round_matches(CupRound.FIRST_ROUND)
        out += [(m.loser, place) for m in first if m.loser is not None and m.loser not in back]
        return out

    def to_state(self) -> dict[str, Any]:
        """Everything to rebuild it (:meth:`from_state`): saved after every result."""
        return {
            "players": list(self.players),
            "repechage": list(self.repechage),
            "matches": [
                [m.round.value, m.index, list(m.players), list(m.score), m.wins_needed, m.bye]
                for m in self.matches
            ],
        }

    @classmethod
    def from_state(cls, data: Mapping[str, Any], rules: CupRules = FPC_CUP) -> Bracket:
        matches = []
        for round_, index, players, score, wins, bye in data["matches"]:
            match = _match(rules, CupRound(round_), int(index), (players[0], players[1]))
            matches.append(replace(match, score=(score[0], score[1]), wins_needed=wins, bye=bye))
        return cls(
            rules=rules,
            players=tuple(data["players"]),
            matches=tuple(matches),
            repechage=tuple(data["repechage"]),
        )

    def to_json(self) -> dict[str, Any]:
        """A JSON-able view for the bracket page."""
        return {
            "players": list(self.players),
            "repechage": list(self.repechage),
            "champion": self.champion,
            "game": {
                "starting_stack": self.rules.game.starting_stack,
                "small_blind": self.rules.game.small_blind,
                "big_blind": self.rules.game.big_blind,
            },
            "matches": [
                {
                    "match_id": m.match_id,
                    "round": m.round.value,
                    "players": list(m.players),
                    "score": list(m.score),
                    "wins_needed": m.wins_needed,
                    "bye": m.bye,
                    "winner": m.winner,
                }
                for m in self.matches
            ],
        }


def draw_cup(players: Sequence[str], rng: random.Random, rules: CupRules = FPC_CUP) -> Bracket:
    """Draw the 1er tour: ``rng`` shuffles the players, who meet two by two in that order;
    an odd last one goes through (a bye).

    Raises :class:`LeagueConfigError` for a name twice, fewer than 3 players (a cup of two
    is a single final: play it as a heads-up), or more than 128 (a main bracket beyond the
    1/32).
    """
    if len(set(players)) != len(players):
        raise LeagueConfigError("a player is drawn twice")
    if not 3 <= len(players) <= 2 * _MAX_MAIN:
        raise LeagueConfigError(f"a cup of {len(players)} players")
    order = list(players)
    rng.shuffle(order)
    first: list[Match] = []
    for i in range(0, len(order) - 1, 2):
        first.append(_match(rules, CupRound.FIRST_ROUND, i // 2, (order[i], order[i + 1])))
    if len(order) % 2:
        bye = _match(rules, CupRound.FIRST_ROUND, len(first), (order[-1], None))
        first.append(replace(bye, bye=True))
    return Bracket(rules=rules, players=tuple(order), matches=tuple(first))
