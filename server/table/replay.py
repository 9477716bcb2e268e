"""Replay a table session from JSON (shared/specs/session-format.md — a stable contract).

    python -m server.table.replay SESSION.json
    python -m server.table.replay - < SESSION.json

Prints one JSON document. Exit 0 when the session was read and played (refused steps are
reported in the output), 2 with a one-line message on stderr when the file is malformed.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from server.engine.replay import ScenarioError
from server.table.session import SessionRun
from server.table.session_cash import CashSessionRun
from server.table.session_steps import Session, parse_session

__all__ = ["main", "run_session"]


def run_session(session: Session) -> dict[str, Any]:
    """Play a parsed session (a tournament table, a cash table, a cash table of five-card
    draw); the spec's output."""
    if session.game in ("cash", "draw"):  # draw: a cash table of five-card draw
        return CashSessionRun(session).run()
    return SessionRun(session).run()


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 1:
        print("usage: python -m server.table.replay SESSION.json | -", file=sys.stderr)
        return 2
    try:
        if args[0] == "-":
            text = sys.stdin.read()
        else:
            with open(args[0], encoding="utf-8") as fh:
                text = fh.read()
        output = run_session(parse_session(json.loads(text)))
    except (OSError, json.JSONDecodeError, ScenarioError) as exc:
        message = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"replay: {message}", file=sys.stderr)
        return 2
    json.dump(output, sys.stdout, ensure_ascii=False)
    sys.stdout.write("\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
