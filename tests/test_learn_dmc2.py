"""The Deep Monte-Carlo baseline (issue 34.3, :mod:`durak.learn.dmc2`): a tiny training
run saves a checkpoint that :mod:`durak.learn.evaluate`'s ``dmc:PATH`` plays to the end
with legal moves, whose numpy network scores as the torch one, and that ``--export``
turns into the ``.npz`` ``make("policy:PATH")`` plays move for move as the checkpoint
(its features are tested in tests/test_learned.py)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import torch

from durak import Game
from durak.bots import make
from durak.envs.episode import learning_rules
from durak.errors import ArgumentError
from durak.learn import dmc2 as dmc
from durak.learn import evaluate
from durak.rules import Rules

RULES = learning_rules("podkidnoy")


def test_a_tiny_run_saves_a_q_that_plays_legal_moves_on_the_ladder(tmp_path: Path) -> None:
    save, curve = tmp_path / "dmc.pt", tmp_path / "curve.csv"
    args = ["--envs", "6", "--opponents", "self,greedy", "--deals", "12", "--batch", "16"]
    dmc.main([*args, "--eval-deals", "1", "--save", str(save), "--curve", str(curve)])
    st = torch.load(save, weights_only=True)
    assert st["deals"] >= 12 and st["updates"] > 0 and st["samples"] > 0
    assert curve.read_text().splitlines()[0].startswith("deals,samples,updates")
    # the numpy network scores as the torch network it was saved from
    policy = dmc.load(str(save))
    f = policy.features
    assert f is not None
    net = dmc.QNet(f.size, f.width)
    net.load_state_dict(st["net"])
    g = Game(RULES, seed=4)
    seat = g.to_act
    assert seat is not None
    legal = np.array(sorted(a.index(RULES) for a in g.moves()))
    s, t = f.state(f.view(g, seat)[None, :])
    rows = f.actions[t[0], legal]
    with torch.no_grad():
        want = net(torch.from_numpy(s), torch.from_numpy(rows),
                   torch.zeros(len(legal), dtype=torch.int64)).numpy()  # fmt: skip
    assert np.allclose(policy.scores(s[0], rows), want, atol=1e-5)
    # --export: the .npz make("policy:PATH") plays, move for move the checkpoint's player
    npz = tmp_path / "net.npz"
    dmc.main(["--save", str(save), "--export", str(npz)])
    exported, played = make(f"policy:{npz}"), dmc.player(policy)
    g = Game(RULES, seed=9)
    while not g.is_over:
        seat = g.to_act
        assert seat is not None
        a = played(g, seat)
        assert exported.choose(g.observation(seat)) is a
        g.apply(a)
    # evaluate.py's dmc:PATH plays whole deals from both seats with legal moves only
    assert 0.0 <= evaluate.deal_score(RULES, f"dmc:{save}", "greedy", 7) <= 1.0
    # a resumed run goes on from the checkpoint's counters
    dmc.main([*args[:2], "--deals", "18", "--eval-every", "100", "--eval-deals", "1",
              "--save", str(save), "--resume"])  # fmt: skip
    assert torch.load(save, weights_only=True)["deals"] >= 18


def test_the_trainer_api_trains_and_its_bot_plays_the_ladder(tmp_path: Path) -> None:
    """:class:`Trainer` as the tutorial uses it: a run to a deal count, its bot scored by
    :func:`durak.learn.evaluate.pairing`, its checkpoint resumed with the counters."""
    t = dmc.Trainer(envs=4, batch=16, seed=3)
    t.run(deals=8)
    assert t.st["deals"] >= 8 and t.st["updates"] > 0
    cell = evaluate.pairing(t.bot, "random", games=4)
    assert cell.games == 4 and 0.0 <= cell.low <= cell.mean <= cell.high <= 1.0
    t.save(str(tmp_path / "t.pt"))
    again = dmc.Trainer(envs=4, batch=16, seed=3, resume=str(tmp_path / "t.pt"))
    assert again.st["deals"] == t.st["deals"]
    with pytest.raises(ArgumentError, match="no checkpoint"):
        dmc.load(str(tmp_path / "none.pt"))
    with pytest.raises(ArgumentError, match="2-player"):
        evaluate.pairing("greedy", "greedy", 2, Rules(players=3))


def test_the_evaluator_imports_no_trainer_and_no_torch() -> None:
    """No import circle: the evaluator needs torch only for a ``dmc:``/``ppo:`` spec."""
    code = (
        "import sys, durak.learn.evaluate, durak.learn.scoring; "
        "print('torch' in sys.modules, 'durak.learn.dmc2' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "False"]
