"""Where the server's time goes under bench/server.py's load (issue 32): a sampling profile.

    python bench/profile_server.py                          # 200 tables x 6 bots, 30 s sampled
    python bench/profile_server.py --tables 1000 --seconds 60 --top 25

It starts the real server as bench/server.py does (same pauses), runs the same load tester
against it, and samples the server process with py-spy (``pip install py-spy``: a sampling
profiler that attaches to a running process, so the figures are the server's own, not those
of a profiler's hooks) for ``--seconds`` after a warm-up. It prints the share of the samples
(of the server's busy time: idle waits in the event loop's ``select`` are counted apart) spent

- with each layer on the stack (inclusive: the engine called by the table counts for both),
  and in the layer it ends in (self time: the engine, the table, the store, websockets,
  msgpack, asyncio, SQLite...);
- in the functions with the most self time.

The last line is ``profile_server: S samples, busy B %, top layers ...``. Nothing here is a
timed test; docs/operations.md ("Where the time goes") keeps the summary of a run.
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bots.launch import ServerProcess  # noqa: E402

LAYERS: tuple[tuple[str, str], ...] = (
    ("server/engine/", "engine (rules)"),
    ("server/dealing/", "dealing (deck, commitments)"),
    ("server/table/", "table (actor, translation, views)"),
    ("server/store/", "store (SQLite, records)"),
    ("server/gateway/", "gateway (routing, limits)"),
    ("server/tournament/", "tournament"),
    ("server/", "server (other)"),
    ("protocol/", "protocol (codec, messages)"),
    ("websockets/", "websockets"),
    ("msgpack/", "msgpack"),
    ("sqlite3/", "sqlite3"),
    ("asyncio/", "asyncio"),
    ("json/", "json"),
    ("cryptography/", "cryptography"),
    ("eval7", "eval7"),
)
"""Where a frame belongs, by its file path (the first match wins)."""

IDLE = re.compile(r"\bselect \(selectors\.py|\bpoll \(selectors\.py|\bselect \(.*epoll")
FRAME = re.compile(r"^(?P<func>.*) \((?P<file>[^():]+)(?::\d+)?\)$")


def layer_of(frame: str) -> str | None:
    match = FRAME.match(frame)
    path = match.group("file") if match else frame
    for part, name in LAYERS:
        if part in path:
            return name
    return None


def summarise(raw: str, top: int) -> tuple[list[str], str]:
    """The report's lines and its last line from py-spy's raw (collapsed stacks) output."""
    own: Counter[str] = Counter()
    entered: Counter[str] = Counter()
    functions: Counter[str] = Counter()
    idle = total = 0
    for line in raw.splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = stack.split(";")
        total += n
        if IDLE.search(frames[-1]):
            idle += n
            continue
        own[layer_of(frames[-1]) or "other (python, stdlib)"] += n
        for name in {layer_of(f) for f in frames} - {None, "server (other)"}:
            entered[str(name)] += n
        functions[re.sub(r":\d+\)$", ")", frames[-1])] += n
    busy = total - idle
    lines = [f"{total} samples, {idle} idle in the event loop's wait, {busy} busy"]
    if not busy:
        return lines, "profile_server: no busy sample"
    lines.append("busy time with a frame of this layer on the stack (inclusive):")
    lines += [f"  {n / busy:6.1%}  {name}" for name, n in entered.most_common()]
    lines.append("busy time by the layer it was spent in (self):")
    lines += [f"  {n / busy:6.1%}  {name}" for name, n in own.most_common()]
    lines.append(f"top {top} functions by self time:")
    lines += [f"  {n / busy:6.1%}  {name}" for name, n in functions.most_common(top)]
    layers = ", ".join(f"{name.split(' ')[0]} {n / busy:.0%}" for name, n in own.most_common(4))
    last = f"profile_server: {total} samples, busy {busy / total:.0%}, top layers {layers}"
    return lines, last


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="python bench/profile_server.py", description=__doc__)
    p.add_argument("--tables", type=int, default=200)
    p.add_argument("--players", type=int, default=6)
    p.add_argument("--seconds", type=float, default=30.0, help="sampled")
    p.add_argument("--warmup", type=float, default=8.0)
    p.add_argument("--rate", type=int, default=200, help="samples per second")
    p.add_argument("--strategy", default="mix")
    p.add_argument("--top", type=int, default=20)
    p.add_argument("--raw", type=Path, default=None, help="keep py-spy's collapsed stacks here")
    args = p.parse_args(argv)
    spy = shutil.which("py-spy")
    if spy is None:
        print("py-spy is not installed: pip install py-spy", file=sys.stderr)
        return 2
    work = Path(tempfile.mkdtemp(prefix="brasseur-profile-"))
    raw_path = args.raw or work / "stacks.txt"
    server = ServerProcess(
        work / "data",
        max_tables=max(2000, args.tables + 10),
        cut_seconds=1.0,
        next_hand_seconds=0.2,
        showdown_seconds=0.2,
        action_seconds=10,
    ).start()
    duration = args.warmup + args.seconds + 5
    load = subprocess.Popen(
        [
            sys.executable, "-m", "bots.loadtest", "--url", server.url,
            "--tables", str(args.tables), "--players", str(args.players),
            "--duration", str(duration), "--strategy", args.strategy,
            "--report", str(work / "load.json"), "--quiet",
        ],
        cwd=ROOT,
    )  # fmt: skip
    try:
        time.sleep(args.warmup)
        subprocess.run(
            [
                spy, "record", "--pid", str(server.pid), "--duration", str(int(args.seconds)),
                "--rate", str(args.rate), "--format", "raw", "--output", str(raw_path),
                "--nonblocking",
            ],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
        )  # fmt: skip
        load.wait(timeout=duration + 600)
    finally:
        if load.poll() is None:
            load.terminate()
        server.stop()
    lines, last = summarise(raw_path.read_text(), args.top)
    print(f"server under {args.tables} tables x {args.players} bots, {args.seconds:.0f} s sampled")
    print("\n".join(lines))
    print(last)
    return 0


if __name__ == "__main__":
    sys.exit(main())
