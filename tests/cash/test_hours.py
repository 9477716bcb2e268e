"""Opening hours of cash tables (fpc cash: « Les tables ouvrent à partir de 20h00 et ferment
à 23h30 précise »), pure."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest
from hypothesis import given
from hypothesis import strategies as st

from server.cash import cash_rules
from server.cash.hours import FPC_HOURS, Hours


def paris(text: str) -> datetime:
    """A Paris wall time (November: UTC+1) as the table gets it, in UTC."""
    local = datetime.fromisoformat(f"2026-11-26T{text}+01:00")
    return local.astimezone(UTC)


def test_the_fpc_hours_open_at_20_00_and_close_at_23_30_precisely() -> None:
    hours = Hours.parse(FPC_HOURS, "Europe/Paris")
    assert not hours.is_open(paris("19:59:59"))
    assert hours.is_open(paris("20:00:00"))  # « à partir de 20h00 »
    assert hours.is_open(paris("23:29:59"))
    assert not hours.is_open(paris("23:30:00"))  # « ferment à 23h30 précise »
    assert hours.next_change(paris("21:00:00")) == paris("23:30:00")
    assert hours.next_change(paris("23:30:00")) == paris("20:00:00").replace(day=27)
    assert hours.next_change(paris("10:00:00")) == paris("20:00:00")


def test_a_window_past_midnight_and_summer_time() -> None:
    hours = Hours.parse("22:00-02:00", "Europe/Paris")
    assert hours.is_open(paris("23:00:00")) and hours.is_open(paris("01:59:00"))
    assert not hours.is_open(paris("02:00:00")) and not hours.is_open(paris("21:59:00"))
    summer = Hours.parse(FPC_HOURS, "Europe/Paris")  # July: UTC+2
    assert summer.is_open(datetime(2026, 7, 1, 18, 0, tzinfo=UTC))  # 20:00 in Paris
    assert not summer.is_open(datetime(2026, 7, 1, 21, 30, tzinfo=UTC))  # 23:30 in Paris
    quebec = Hours.parse(FPC_HOURS, "America/Montreal")
    assert quebec.is_open(datetime(2026, 11, 27, 1, 0, tzinfo=UTC))  # 20:00 in Montreal


@pytest.mark.parametrize("text", ["20h-23h30", "20:00-20:00", "24:00-01:00", "8:00-9:00", ""])
def test_hours_that_are_none_are_refused(text: str) -> None:
    with pytest.raises(ValueError):
        Hours.parse(text, "Europe/Paris")
    if text:
        with pytest.raises(ValueError):
            cash_rules("fpc", hours=text)
    with pytest.raises(ValueError):
        cash_rules("fpc", hours=FPC_HOURS, zone="Mars/Olympus")


@given(st.integers(0, 24 * 3600 * 2 - 1))
def test_next_change_flips_the_state(seconds: int) -> None:
    hours = Hours.parse(FPC_HOURS, "Europe/Paris")
    at = datetime(2026, 11, 26, tzinfo=UTC).timestamp() + seconds
    when = datetime.fromtimestamp(at, UTC)
    change = hours.next_change(when)
    assert change > when and hours.is_open(change) != hours.is_open(when)
