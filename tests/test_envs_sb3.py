"""The SB3 VecEnv adapter (issue 34.1): sb3-contrib's MaskablePPO trains on the
vectorised env unchanged, finding the masks through env_method("action_masks")."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import numpy as np
import pytest
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks, is_masking_supported
from stable_baselines3.common.vec_env import VecEnv

from durak.envs.sb3 import DurakSB3VecEnv
from durak.envs.vector import DurakVectorEnv


def test_maskable_ppo_trains_on_the_vector_env() -> None:
    torch.set_num_threads(1)
    venv = DurakSB3VecEnv(num_envs=8, rules="podkidnoy", opponents=["random"])
    assert isinstance(venv, VecEnv) and is_masking_supported(venv)
    model = MaskablePPO("MlpPolicy", venv, n_steps=64, batch_size=128, n_epochs=1, seed=0)
    model.learn(total_timesteps=512)  # one rollout of 8 x 64 steps, one update
    assert model.num_timesteps >= 512
    # the deals ran through the vector env: finished deals were counted there
    assert venv.venv.deals_done > 0
    # the trained policy only picks legal actions when given the masks
    obs = venv.reset()
    masks = get_action_masks(venv)
    actions, _ = model.predict(obs, action_masks=masks, deterministic=True)
    assert all(masks[i, a] for i, a in enumerate(actions))


def test_dones_carry_the_terminal_observation_and_the_next_deal() -> None:
    venv = DurakSB3VecEnv(venv=DurakVectorEnv(4, "perevodnoy(players=3)"))
    venv.seed(3)
    obs = venv.reset()
    ended = 0
    for _ in range(120):
        masks = np.stack(venv.env_method("action_masks"))
        assert masks.any(axis=1).all()  # never an all-zero mask, also right after a deal
        actions = venv.venv.sample_legal()
        obs, rewards, dones, infos = venv.step(actions)
        assert obs.shape == (4, venv.venv.encoder.size)
        for i in np.flatnonzero(dones).tolist():
            ended += 1
            final = infos[i]["terminal_observation"]
            assert final.shape == obs[i].shape and not np.array_equal(final, obs[i])
            assert infos[i]["TimeLimit.truncated"] is False
        assert not any(infos[i] for i in np.flatnonzero(~dones).tolist())
    assert ended > 0


def test_attributes_and_bad_input() -> None:
    venv = DurakSB3VecEnv(num_envs=2)
    venv.reset()
    assert venv.get_attr("num_envs") == [2, 2]
    assert venv.env_method("action_masks", indices=[1])[0].shape == (1608,)
    with pytest.raises(AttributeError, match="no attribute"):
        venv.get_attr("no_such_thing")
    with pytest.raises(AttributeError, match="set_attr"):
        venv.set_attr("num_envs", 3)
    with pytest.raises(RuntimeError, match="step_async"):
        venv.step_wait()


def test_the_tutorial_in_docs_runs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/envs.md's tutorial block, as written but for one small rollout (16 deals x 16
    steps) and a temporary directory for the saved model; then its vector env and
    self-play blocks, shortened."""
    text = (Path(__file__).resolve().parent.parent / "docs" / "envs.md").read_text("utf-8")
    tutorial = text.split("## Tutorial", 1)[1].split("\n## ", 1)[0]
    (code,) = re.findall(r"```python\n(.*?)```", tutorial, re.S)
    assert "total_timesteps=20_000" in code and "n_steps=256, batch_size=512" in code
    (tmp_path / "scratch").mkdir()
    monkeypatch.chdir(tmp_path)
    namespace: dict[str, Any] = {}
    small = code.replace("total_timesteps=20_000", "total_timesteps=256")
    exec(small.replace("n_steps=256, batch_size=512", "n_steps=16, batch_size=128"), namespace)
    assert (tmp_path / "scratch" / "ppo_tutorial.zip").exists()
    g = namespace["g"]
    assert namespace["bot"].choose(g.observation(g.to_act)) in g.legal_actions()
    # the vector env's and self-play's blocks, on the tutorial's model and env
    blocks = re.findall(r"```python\n(.*?)```", text.split("### Many deals at once", 1)[1], re.S)
    vector, selfplay = blocks[0], blocks[1]
    exec(vector.replace("range(1000)", "range(5)"), namespace)
    assert namespace["rewards"].shape == (256,) and namespace["obs"]["observation"].shape[0] == 256
    exec(selfplay.replace("model.learn(200_000", "model.learn(256"), namespace)
    assert namespace["pool"].added >= 1
