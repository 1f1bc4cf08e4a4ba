"""The Deep Monte-Carlo baseline (issue 34.3, benchmarks/rl/dmc.py): its action encoding
loses nothing, its state turn puts the trump suit in slot 0, and a tiny training run saves
a checkpoint that ``evaluate.py``'s ``dmc:PATH`` plays to the end with legal moves."""

from __future__ import annotations

import importlib
from pathlib import Path
from types import ModuleType

import numpy as np
import pytest
import torch

from durak import Game
from durak.envs.encoding import Encoder
from durak.envs.episode import learning_rules

RL = Path(__file__).resolve().parent.parent / "benchmarks" / "rl"
RULES = learning_rules("podkidnoy")


@pytest.fixture
def dmc(monkeypatch: pytest.MonkeyPatch) -> ModuleType:
    monkeypatch.syspath_prepend(str(RL))  # evaluate.py imports dmc by name, as a script does
    return importlib.import_module("dmc")


def test_every_action_number_comes_back_from_its_features(dmc: ModuleType) -> None:
    f = dmc.Features(RULES)
    for t in range(4):
        assert [f.decode(f.actions[t, i], t) for i in range(f.num_actions)] == list(
            range(f.num_actions)
        )


def test_an_attack_is_its_kind_and_its_cards_with_the_trump_suit_turned_to_slot_0(
    dmc: ModuleType,
) -> None:
    f = dmc.Features(RULES)
    row = f.actions[2, 25]  # 25: attack with 7♠+7♦; trump ♦ (suit 2)
    kinds = len(dmc.ACTION_KINDS)
    assert row[:kinds].tolist() == [1, 0, 0, 0, 0, 0, 0]  # attack
    # 7 is the second rank (slots 4-7): 7♦, a trump, in slot 0 of it; 7♠ turned to slot 2
    assert np.flatnonzero(row[kinds : kinds + 36]).tolist() == [4, 6]
    assert not row[kinds + 36 : kinds + 72].any()  # no table card beaten
    assert row[-1] == 0.5  # two cards laid


def test_the_state_turn_moves_the_hand_so_that_trumps_are_slot_0(dmc: ModuleType) -> None:
    f, enc = dmc.Features(RULES), Encoder(RULES)
    for seed in range(8):
        g = Game(RULES, seed=seed)
        x = enc.encode(g, 0)
        turned, trump = f.state(x[None, :])
        t = int(trump[0])
        assert g.trump_suit == t
        hand = [c.index - enc.lo for c in g.hand(0)]
        want = sorted(c - c % 4 + (c % 4 - t) % 4 for c in hand)
        assert np.flatnonzero(turned[0, :36]).tolist() == want
        assert turned[0, f.trump_cols].tolist() == [1, 0, 0, 0]


def test_a_tiny_run_saves_a_q_that_plays_legal_moves_on_the_ladder(
    dmc: ModuleType, tmp_path: Path
) -> None:
    save, curve = tmp_path / "dmc.pt", tmp_path / "curve.csv"
    args = ["--envs", "6", "--opponents", "self,greedy", "--deals", "12", "--batch", "16"]
    dmc.main([*args, "--eval-deals", "1", "--save", str(save), "--curve", str(curve)])
    st = torch.load(save, weights_only=True)
    assert st["deals"] >= 12 and st["updates"] > 0 and st["samples"] > 0
    assert curve.read_text().splitlines()[0].startswith("deals,samples,updates")
    # the numpy policy scores as the torch network it was saved from
    policy = dmc.load(str(save))
    net = dmc.QNet(policy.f.size, policy.f.width)
    net.load_state_dict(st["net"])
    g = Game(RULES, seed=4)
    seat = g.to_act
    assert seat is not None
    x = Encoder(RULES).encode(g, seat)
    legal = np.array(sorted(a.index(RULES) for a in g.moves()))
    s, t = policy.f.state(x[None, :])
    with torch.no_grad():
        want = net(torch.from_numpy(s), torch.from_numpy(policy.f.actions[t[0], legal]),
                   torch.zeros(len(legal), dtype=torch.int64)).numpy()  # fmt: skip
    assert np.allclose(policy.q(x, legal), want, atol=1e-5)
    # evaluate.py's dmc:PATH plays whole deals from both seats with legal moves only
    evaluate = importlib.import_module("evaluate")
    assert 0.0 <= evaluate.deal_score(RULES, f"dmc:{save}", "greedy", 7) <= 1.0
    # a resumed run goes on from the checkpoint's counters
    dmc.main([*args[:2], "--deals", "18", "--eval-every", "100", "--eval-deals", "1",
              "--save", str(save), "--resume"])  # fmt: skip
    assert torch.load(save, weights_only=True)["deals"] >= 18
