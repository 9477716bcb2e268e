"""The league service: what a league decides about membership, events and money, above the
pure rules of server/league/ and server/cash/ and below the gateway, which decodes,
authenticates, routes to it and encodes (issue 26). This package's names below are its API:
the gateway imports them, never server/league/ itself.

- :class:`LeagueDesk` (:mod:`.desk`): the league requests (leagues, roles, seasons, events)
  and the league side of a tournament's ``register``, ``rebuy`` and ``reenter``; its
  :class:`~.events.EventRunner` runs the events (their tournaments, timers, results,
  satellites' tickets, cups and nights).
- :class:`SeasonCapital` (:mod:`.capital`): a cash season's capital, an account with
  reservations.
- :func:`season_file` (:mod:`.standings`): a season's public standings.
- :class:`Tournaments` and :class:`Entrant` (:mod:`.ports`): what the service needs from the
  process around it.
- The stores it is built on: :class:`LeagueStore`/:class:`RedisLeagueStore` and
  :class:`CapitalStore`/:class:`RedisCapital`.
"""

from server.league.capital_store import CapitalBook, CapitalStore
from server.league.model import LeagueRefusal, RefusalCode
from server.league.redis_capital import RedisCapital
from server.league.redis_store import RedisLeagueStore
from server.league.store import LeagueBook, LeagueStore

from .capital import CAPITAL_REFUSED, SeasonCapital
from .desk import LeagueDesk
from .events import register_as
from .ports import Entrant, Tournaments
from .standings import SeasonFile, season_file

__all__ = [
    "CAPITAL_REFUSED",
    "CapitalBook",
    "CapitalStore",
    "Entrant",
    "LeagueBook",
    "LeagueDesk",
    "LeagueRefusal",
    "LeagueStore",
    "RedisCapital",
    "RedisLeagueStore",
    "RefusalCode",
    "SeasonCapital",
    "SeasonFile",
    "Tournaments",
    "register_as",
    "season_file",
]
