"""The Deep Monte-Carlo baseline (issue 34.3, benchmarks/rl/dmc.py): a tiny training run
saves a checkpoint that ``evaluate.py``'s ``dmc:PATH`` plays to the end with legal moves,
whose numpy network scores as the torch one, and that ``--export`` turns into the ``.npz``
``make("policy:PATH")`` plays move for move as the checkpoint (its features are tested in
tests/test_learned.py)."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import torch

from durak import Game
from durak.bots import make
from durak.envs.episode import learning_rules

RL = Path(__file__).resolve().parent.parent / "benchmarks" / "rl"
RULES = learning_rules("podkidnoy")


@pytest.fixture
def dmc(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(RL))  # evaluate.py imports dmc by name, as a script does
    return importlib.import_module("dmc")


def test_a_tiny_run_saves_a_q_that_plays_legal_moves_on_the_ladder(
    dmc: ModuleType, tmp_path: Path
) -> None:
    save, curve = tmp_path / "dmc.pt", tmp_path / "curve.csv"
    args = ["--envs", "6", "--opponents", "self,greedy", "--deals", "12", "--batch", "16"]
    dmc.main([*args, "--eval-deals", "1", "--save", str(save), "--curve", str(curve)])
    st = torch.load(save, weights_only=True)
    assert st["deals"] >= 12 and st["updates"] > 0 and st["samples"] > 0
    assert curve.read_text().splitlines()[0].startswith("deals,samples,updates")
    # the numpy network scores as the torch network it was saved from
    policy = dmc.load(str(save))
    f = policy.features
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
    evaluate = importlib.import_module("evaluate")
    assert 0.0 <= evaluate.deal_score(RULES, f"dmc:{save}", "greedy", 7) <= 1.0
    # a resumed run goes on from the checkpoint's counters
    dmc.main([*args[:2], "--deals", "18", "--eval-every", "100", "--eval-deals", "1",
              "--save", str(save), "--resume"])  # fmt: skip
    assert torch.load(save, weights_only=True)["deals"] >= 18
