"""The tutorial (examples/tutorial_train.py, issue 52.7) runs as a script on a small budget
and its agent has learnt something real: from random weights to beating ``random``
clearly in a dozen CPU seconds. (Its full budget, about 10 CPU minutes, is measured
against ``greedy`` in benchmarks/rl/tutorial.txt, not here: the suite has no time.)"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import durak

ROOT = Path(__file__).resolve().parent.parent
SCRIPT = ROOT / "examples" / "tutorial_train.py"


def test_the_tutorial_trains_an_agent_that_beats_random(tmp_path: Path) -> None:
    env = {**os.environ, "PYTHONPATH": str(Path(durak.__file__).resolve().parent.parent)}
    done = subprocess.run(
        [sys.executable, str(SCRIPT), "--cpu-seconds", "12", "--games", "40", "--envs", "32"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    line = [x for x in done.stdout.splitlines() if x.startswith("RESULT ")][-1]
    result = json.loads(line.removeprefix("RESULT "))
    assert result["deals"] > 500 and result["games"] == 40
    # an untrained network is about even with random; this one wins most deals
    assert result["random"] >= 0.75, result
    assert "saved and loaded as policy:" in done.stdout
    assert list(tmp_path.iterdir()) == []  # it leaves no file behind
