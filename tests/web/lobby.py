"""What several browser tests do in the lobby: create a cash table from the form."""

from __future__ import annotations

from typing import Any


def create_cash_table(
    page: Any,
    base: str,
    *,
    nick: str,
    name: str,
    seats: int | None = None,
    run_it: bool = False,
    approval: bool = False,
    rake: tuple[float, int] | None = None,
) -> tuple[str, str, str]:
    """In the lobby at ``base``, as ``nick``: a casino cash table at 25/50, buy-ins from 500
    to 5,000 (``rake``: its percent of each pot and its cap a hand). Returns the link shown
    to share (on 127.0.0.1), the table and its invite."""
    page.goto(base + "/")
    page.fill("#nick", nick)
    page.click("#nick-ok")
    page.fill("#c-name", name)
    page.select_option("#c-profile", "casino")
    page.select_option("#c-blinds", "25/50")
    page.select_option("#c-game", "cash")
    page.fill("#c-min", "500")
    page.fill("#c-max", "5000")
    if rake is not None:
        page.fill("#c-rake", str(rake[0]))
        page.fill("#c-rake-cap", str(rake[1]))
    if seats is not None:
        page.fill("#c-seats", str(seats))
    if run_it:
        page.check("#c-runs")
    if approval:
        page.check("#c-approval")
    page.click("#create")
    page.wait_for_selector("#created", state="visible")
    link = str(page.input_value("#created-link")).replace("localhost", "127.0.0.1")
    table, invite = link.split("table=")[1].split("&invite=")
    return link, table, invite
