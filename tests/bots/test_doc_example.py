"""The complete bot printed in docs/bots.md runs as published: two copies of it, started as
scripts exactly as its last comment says, play 50 hands each at the default friends table of
a real server and report no violation and no error."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from bots.launch import ServerProcess

DOC = Path(__file__).resolve().parents[2] / "docs" / "bots.md"


def example_bot() -> str:
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    assert blocks, "docs/bots.md has no python example"
    return str(blocks[0])


def test_the_documented_bot_plays_50_hands(tmp_path: Path) -> None:
    source = example_bot()
    assert len(source.splitlines()) <= 40  # "a complete 30-line example bot"
    script = tmp_path / "pairs.py"
    script.write_text(source, encoding="utf-8")
    fast = {"cut_seconds": 0.2, "next_hand_seconds": 0.05, "showdown_seconds": 0.05}
    with ServerProcess(tmp_path / "data", action_seconds=5, **fast) as server:
        invite = server.invites["friends"]
        bots = [
            subprocess.Popen(
                [sys.executable, str(script), server.url, "friends", str(seat), invite],
                stdout=subprocess.PIPE,
                stderr=subprocess.STDOUT,
                text=True,
            )
            for seat in (1, 2)
        ]
        outputs = []
        try:
            for bot in bots:
                out, _ = bot.communicate(timeout=120)
                outputs.append(out)
                assert bot.returncode == 0, out
        finally:
            for bot in bots:
                bot.kill()
        assert "Traceback" not in server.stderr(), server.stderr()[-3000:]
    for out in outputs:
        assert "seated; come back later with" in out, out
        assert "violations: {} errors: {}" in out, out
