"""Golden scenarios: the rulebooks' worked examples, replayed through the engine.

Each file under ``scenarios/<book>/<section>_<n>.json`` holds one worked example:

- ``source`` / ``quote``: where the example comes from and what it says;
- ``profiles``: every rule profile the example is checked under;
- ``scenario``: the replay input (../../shared/specs/scenario-format.md) without ``profile``;
- ``expect``: a partial expected output, ``expect_by_profile``: per-profile overrides of
  ``expect`` keys. Two keys look at the output's ``events``: ``events_in_order``, partial
  events that must appear in this order (others may come between), and ``events_absent``,
  partial events that must match no event (e.g. no ``Mucked`` where every hand is tabled).
  Other top-level keys (``note``, ``director_default``) are documentation.

Partial match: only the keys written are checked; dicts are compared key-subset recursively;
lists must have the same length and match element-wise (``eligible`` and ``winners`` are sets of
names and compared without order); an expected ``null`` accepts a missing key.
"""

from __future__ import annotations

import json
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

SCENARIOS = Path(__file__).parent / "scenarios"
REPO = Path(__file__).resolve().parents[2]
PROFILES = ("tda", "cdc", "ligue", "casino", "fpc")
EVENT_KEYS = {"events_in_order", "events_absent"}
EXPECT_KEYS = {"results", "stacks", "pots", "next", "finished"} | EVENT_KEYS
DOC_KEYS = {"source", "quote", "profiles", "scenario", "expect", "expect_by_profile"}
UNORDERED = {"eligible", "winners"}

_MISSING = object()


def _files() -> list[Path]:
    return sorted(SCENARIOS.glob("**/*.json"))


def _load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return data


def _cases() -> list[Any]:
    cases = []
    for path in _files():
        name = str(path.relative_to(SCENARIOS).with_suffix(""))
        for profile in _load(path).get("profiles", []):
            cases.append(pytest.param(path, profile, id=f"{name}[{profile}]"))
    return cases


def build_input(doc: dict[str, Any], profile: str) -> dict[str, Any]:
    """The spec input for ``profile``: the scenario with ``profile`` added."""
    return {"profile": profile, **doc["scenario"]}


def expectation(doc: dict[str, Any], profile: str) -> dict[str, Any]:
    """``expect`` with the keys of ``expect_by_profile[profile]`` replaced."""
    return {**doc["expect"], **doc.get("expect_by_profile", {}).get(profile, {})}


def first_mismatch(expected: Any, actual: Any, path: str = "$") -> tuple[str, Any, Any] | None:
    """The first place where ``actual`` does not match the partial ``expected``, or None."""
    if expected is None:
        return None if actual is None or actual is _MISSING else (path, None, actual)
    if actual is _MISSING:
        return (path, expected, "<missing>")
    if isinstance(expected, dict):
        return _dict_mismatch(expected, actual, path)
    if isinstance(expected, list):
        return _list_mismatch(expected, actual, path)
    if isinstance(expected, bool) or isinstance(actual, bool):
        ok = type(expected) is type(actual) and expected == actual
    else:
        ok = expected == actual
    return None if ok else (path, expected, actual)


def _dict_mismatch(expected: dict[str, Any], actual: Any, path: str) -> tuple[str, Any, Any] | None:
    if not isinstance(actual, dict):
        return (path, expected, actual)
    for key, value in expected.items():
        sub = f"{path}.{key}"
        if key in UNORDERED and isinstance(value, list) and isinstance(actual.get(key), list):
            if sorted(map(str, value)) != sorted(map(str, actual[key])):
                return (sub, value, actual[key])
            continue
        found = first_mismatch(value, actual.get(key, _MISSING), sub)
        if found:
            return found
    return None


def _list_mismatch(expected: list[Any], actual: Any, path: str) -> tuple[str, Any, Any] | None:
    if not isinstance(actual, list) or len(actual) != len(expected):
        return (f"{path} (length)", expected, actual)
    for i, (exp, act) in enumerate(zip(expected, actual, strict=True)):
        found = first_mismatch(exp, act, f"{path}[{i}]")
        if found:
            return found
    return None


def event_mismatch(expected: dict[str, Any], events: list[dict[str, Any]]) -> str | None:
    """What the output's events lack of ``events_in_order`` / ``events_absent``, or None."""
    position = 0
    for k, wanted in enumerate(expected.get("events_in_order", [])):
        while position < len(events) and first_mismatch(wanted, events[position]):
            position += 1
        if position == len(events):
            return f"events_in_order[{k}] {wanted} not found after the events before it"
        position += 1
    for unwanted in expected.get("events_absent", []):
        hits = [e for e in events if not first_mismatch(unwanted, e)]
        if hits:
            return f"events_absent: {unwanted} matches {hits[0]}"
    return None


@pytest.fixture(scope="session")
def run_scenario() -> Callable[[dict[str, Any]], dict[str, Any]]:
    from server.engine.replay import run_scenario as run

    return run


def test_scenario_files_are_well_formed() -> None:
    files = _files()
    assert files, f"no scenario under {SCENARIOS}"
    problems = []
    for path in files:
        doc = _load(path)
        where = path.relative_to(SCENARIOS)
        missing = {"source", "quote", "profiles", "scenario", "expect"} - set(doc)
        if missing:
            problems.append(f"{where}: missing {sorted(missing)}")
            continue
        if not doc["profiles"] or set(doc["profiles"]) - set(PROFILES):
            problems.append(f"{where}: bad profiles {doc['profiles']}")
        if "profile" in doc["scenario"]:
            problems.append(f"{where}: scenario must not name a profile")
        overrides = doc.get("expect_by_profile", {})
        if set(overrides) - set(doc["profiles"]):
            problems.append(f"{where}: expect_by_profile names a profile not in profiles")
        for exp in [doc["expect"], *overrides.values()]:
            if set(exp) - EXPECT_KEYS:
                problems.append(f"{where}: unknown expect keys {sorted(set(exp) - EXPECT_KEYS)}")
            if "results" in exp and len(exp["results"]) != len(doc["scenario"]["inputs"]):
                problems.append(f"{where}: one expected result per input")
    assert not problems, "\n".join(problems)


@pytest.mark.parametrize(("path", "profile"), _cases())
def test_golden(
    path: Path, profile: str, run_scenario: Callable[[dict[str, Any]], dict[str, Any]]
) -> None:
    doc = _load(path)
    output = run_scenario(build_input(doc, profile))
    expected = expectation(doc, profile)
    wrong = event_mismatch(expected, output["events"])
    if wrong:
        pytest.fail(
            f"{doc['source']} [{profile}] {wrong}\n"
            f"  events: {json.dumps(output['events'], ensure_ascii=False, default=str)}",
            pytrace=False,
        )
    found = first_mismatch({k: v for k, v in expected.items() if k not in EVENT_KEYS}, output)
    if found:
        where, exp, act = found
        detail = ""
        if where.startswith("$.results["):
            index = int(where[len("$.results[") :].split("]")[0])
            detail = f"\n  input:    {json.dumps(doc['scenario']['inputs'][index])}"
        pytest.fail(
            f"{doc['source']} [{profile}] mismatch at {where}{detail}\n"
            f"  expected: {json.dumps(exp, ensure_ascii=False)}\n"
            f"  actual:   {json.dumps(act, ensure_ascii=False, default=str)}\n"
            f"  output:   {json.dumps(output, ensure_ascii=False, default=str)}",
            pytrace=False,
        )


def _replay(args: list[str], stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server.engine.replay", *args],
        input=stdin,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
        check=False,
    )


def test_replay_cli_file(tmp_path: Path) -> None:
    doc = _load(SCENARIOS / "cdc" / "9.13_1.json")
    spec_input = tmp_path / "scenario.json"
    spec_input.write_text(json.dumps(build_input(doc, "cdc")), encoding="utf-8")
    proc = _replay([str(spec_input)])
    assert proc.returncode == 0, proc.stderr
    output = json.loads(proc.stdout)
    assert first_mismatch(expectation(doc, "cdc"), output) is None, output


def test_replay_cli_malformed_stdin() -> None:
    proc = _replay(["-"], stdin='{"profile": "cdc", "players": [')
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    message = proc.stderr.strip()
    assert message, "expected a message on stderr"
    assert "\n" not in message, f"expected a one-line message, got:\n{message}"


def test_replay_cli_unknown_profile() -> None:
    doc = _load(SCENARIOS / "cdc" / "9.13_1.json")
    proc = _replay(["-"], stdin=json.dumps(build_input(doc, "nope")))
    assert proc.returncode == 2, (proc.returncode, proc.stdout, proc.stderr)
    assert proc.stderr.strip() and "\n" not in proc.stderr.strip()


def test_partial_match_rules() -> None:
    actual = {"a": 1, "l": [{"x": 1, "y": 2}], "pots": [{"winners": ["B", "A"]}], "f": True}
    assert first_mismatch({"a": 1, "l": [{"x": 1}]}, actual) is None
    assert first_mismatch({"pots": [{"winners": ["A", "B"]}]}, actual) is None
    assert first_mismatch({"next": None}, actual) is None
    assert first_mismatch({"l": []}, actual) == ("$.l (length)", [], actual["l"])
    assert first_mismatch({"l": [{"x": 2}]}, actual) == ("$.l[0].x", 2, 1)
    assert first_mismatch({"f": 1}, actual) == ("$.f", 1, True)
    assert first_mismatch({"b": 0}, actual) == ("$.b", 0, "<missing>")
