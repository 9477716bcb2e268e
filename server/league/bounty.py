"""fpc part B bounties: who is the Bounty and who are the PVS at a stage, and the prize.

"Le vainqueur de l'étape précédente aura le statut de Bounty pour le tournoi. Le joueur qui
élimine le Bounty se verra attribuer une prime de 10 000 jetons + la grosse blind en cours.
Le Vainqueur de la dernière étape d'une saison sera le Bounty de la 1ère étape de la saison
suivante. Si le Bounty n'est pas présent au tournoi pour tenir son rang, le tournoi ne
comportera pas de Bounty."

« Kill The PVS »: "Les différents vainqueurs d'étape au cours d'une saison auront le statut de
PVS (Précédent Vainqueur de la Saison) pour le reste de la saison. Le joueur qui élimine un
PVS se verra attribuer une prime de 2 500 jetons + la petite blind en cours. Le montant de
la prime n'est pas multiplié par le nombre de victoires du PVS ni par le cumule Bounty +
PVS. Le statut de PVS n'est pas conservé d'une saison sur l'autre."

Reading: a player who is both Bounty and PVS (the previous stage's winner always is, but at
the first stage) is worth one prize, the Bounty's (the text forbids the sum without saying
which one remains; the Bounty is the status of this very stage).
The prizes are chips paid during the tournament (the director pays them); the league only
says who carries which status.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from .results import EventResult

__all__ = ["BOUNTY_CHIPS", "PVS_CHIPS", "StageBounties", "elimination_prize", "stage_bounties"]

BOUNTY_CHIPS = 10_000
PVS_CHIPS = 2_500


@dataclass(frozen=True, slots=True, kw_only=True)
class StageBounties:
    bounty: frozenset[str]
    """The previous stage's winner, when present (empty otherwise)."""
    pvs: frozenset[str]
    """This season's earlier stage winners who are present."""


def _winners(result: EventResult) -> frozenset[str]:
    return frozenset(e.player_id for e in result.entries if e.place == 1)


def stage_bounties(
    season: Sequence[EventResult],
    present: Iterable[str],
    previous_season: Sequence[EventResult] = (),
) -> StageBounties:
    """The statuses at the next stage, given this season's stages played so far (in any
    order), the players present, and the previous season's stages (for the first stage)."""
    here = frozenset(present)
    played = sorted(season, key=lambda e: (e.date, e.event_id))
    before = sorted(previous_season, key=lambda e: (e.date, e.event_id))
    last = played[-1] if played else before[-1] if before else None
    bounty = _winners(last) & here if last is not None else frozenset()
    pvs: frozenset[str] = frozenset().union(*(_winners(e) for e in played))
    return StageBounties(bounty=bounty, pvs=pvs & here)


def elimination_prize(
    victim: str, statuses: StageBounties, *, small_blind: int, big_blind: int
) -> int:
    """Chips for eliminating ``victim`` at the current blinds (0 for a player without
    status); one prize only, the Bounty's when he is both."""
    if victim in statuses.bounty:
        return BOUNTY_CHIPS + big_blind
    if victim in statuses.pvs:
        return PVS_CHIPS + small_blind
    return 0
