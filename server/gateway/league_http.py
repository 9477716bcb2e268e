"""A season's standings over HTTP (issue 15): ``GET
/api/leagues/<league>/seasons/<season>/standings.json``, ``standings.csv`` and
``tickets.csv``, public (no token). What they say is the league service's
(:mod:`server.league_service.standings`); this module only routes and answers. The other
``/api`` routes are :class:`~server.gateway.http.HttpRoutes`'.
"""

from __future__ import annotations

from typing import Protocol

from websockets.datastructures import Headers
from websockets.http11 import Response

from protocol import ErrorCode
from server.gateway.http import HttpError, HttpHost, HttpRoutes
from server.league_service import LeagueDesk, LeagueRefusal, RefusalCode, season_file

__all__ = ["LeagueHttpHost", "LeagueRoutes"]

_STATUS = {RefusalCode.NOT_FOUND.value: 404, RefusalCode.BAD_POINTS.value: 409}


class LeagueHttpHost(HttpHost, Protocol):
    """The HTTP routes' host, with the leagues (the gateway satisfies it)."""

    @property
    def leagues(self) -> LeagueDesk: ...


class LeagueRoutes(HttpRoutes):
    """The gateway's HTTP routes with the leagues' standings."""

    def __init__(self, gateway: LeagueHttpHost) -> None:
        super().__init__(gateway)
        self.desk = gateway.leagues

    async def _api(self, path: str, query: dict[str, str], headers: Headers) -> Response:
        parts = path.strip("/").split("/")[1:]
        if parts[:1] == ["leagues"]:
            return self._standings(parts[1:])
        return await super()._api(path, query, headers)

    def _standings(self, parts: list[str]) -> Response:
        if len(parts) != 4 or parts[1] != "seasons":
            raise HttpError(404, ErrorCode.NOT_FOUND, "not found")
        try:
            found = season_file(self.desk.store, self.gw.capital, parts[0], parts[2], parts[3])
        except LeagueRefusal as exc:
            status = _STATUS.get(exc.code, 400)
            code = ErrorCode.NOT_FOUND if status == 404 else exc.code
            raise HttpError(status, code, exc.message) from None
        disposition = (
            {"Content-Disposition": f'attachment; filename="{found.filename}"'}
            if found.filename
            else None
        )
        return self._response(200, found.body, found.media_type, disposition)
