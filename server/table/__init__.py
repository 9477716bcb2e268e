"""One table: the pure table state machine (``core``, ``table``: seats, hands, the clock's
decisions, cash rules between hands; no I/O) and its thin asyncio shell (``actor``), with the
engine's events translated into the protocol's (``translate``). Above it the tournament and
the gateway; below it the engine, dealing and the cash policies (pyproject's import
contracts)."""
