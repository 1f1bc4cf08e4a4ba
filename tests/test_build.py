"""The compiled engine (mypyc) and the pure-Python one: the install compiles it when it
can, both play exactly the same games, and DURAK_PURE switches to the pure one."""

from __future__ import annotations

import importlib
import importlib.machinery
import os
import random
import shutil
import subprocess
import sys
from types import ModuleType

import pytest

import durak
from durak import build
from durak.game import FIELDS
from tests.helpers import snapshot

pure = build.load_pure()

# Every preset, 2..6 players, the three decks, team play: the same seeded games on both.
CONFIGS = [
    ("podkidnoy", {"players": 2}),
    ("podkidnoy", {"players": 4, "teams": "2x2", "deck": 52}),
    ("perevodnoy", {"players": 3}),
    ("perevodnoy-proezdnoy", {"players": 2, "trump_exchange": True}),
    ("perevodnoy", {"players": 6, "teams": "3x3", "deck": 52}),
    ("prostoy", {"players": 5}),
    ("pogonny", {"players": 2, "deck": 24}),
    ("pagony", {"players": 4}),
    (
        "podkidnoy",
        {
            "players": 3,
            "throw_in": "opening_rank",
            "pile_on": False,
            "throwers": "neighbours",
            "opening": "single",
            "draws": False,
        },
    ),
]


def _have_compiler() -> bool:
    return any(shutil.which(c) for c in (os.environ.get("CC", "cc"), "gcc", "clang"))


def test_the_install_compiled_the_engine() -> None:
    # pip install -e . (and make) compile the engine on any machine with a C compiler;
    # only DURAK_PURE=1 or a missing compiler give the pure one.
    if build.pure_requested() or not _have_compiler():
        assert not build.is_compiled()
        return
    for name in build.ENGINE:
        module = importlib.import_module(f"durak.{name}")
        assert not (module.__file__ or "").endswith(".py"), f"durak.{name} is not compiled"
    assert durak.game.__file__ and durak.game.__file__.endswith(
        tuple(importlib.machinery.EXTENSION_SUFFIXES)
    )
    assert build.engine_name() == "compiled (mypyc)"
    assert build.engine_name(pure) == "pure Python"


def test_the_compiled_engine_is_not_older_than_its_sources() -> None:
    # A stale build would test yesterday's engine: `make` rebuilds it when sources change.
    if not build.is_compiled():
        return
    for name in build.ENGINE:
        here, _, stem = os.path.join(os.path.dirname(durak.__file__), *name.split(".")).rpartition(
            os.sep
        )
        source = os.path.join(here, f"{stem}.py")
        found = [os.path.join(here, stem + s) for s in importlib.machinery.EXTENSION_SUFFIXES]
        found = [f for f in found if os.path.exists(f)]
        if not found:
            continue  # a wheel install may hold its compiled modules elsewhere
        compiled = found[0]
        assert os.path.getmtime(compiled) + 1 >= os.path.getmtime(source), (
            f"{compiled} is older than {source}: rebuild it (make engine, or pip install -e .)"
        )


def _play(package: ModuleType, preset: str, options: dict[str, object], seed: int) -> list[str]:
    """A seeded random game on ``package``'s engine, as text: every legal list, every
    action, every seat's view at the end and the outcome."""
    rules = package.Rules.preset(preset, **options)
    g = package.Game(rules, seed=seed)
    rng = random.Random(seed)
    out = []
    while not g.is_over:
        legal = g.legal_actions()
        a = legal[int(rng.random() * len(legal))]
        out.append(" ".join(str(x) for x in legal) + " -> " + str(a))
        if len(g.history) % 17 == 0:
            g.clone().apply(a)  # a clone plays on without touching g
        g.apply(a)
    o = g.outcome
    out.append(
        f"{o} {o.durak} {o.draw} {o.out_order} {o.pogony} {o.tally} {o.losers} "
        f"{o.losing_team} {o.hung} {o.hung_cards}"
    )
    out += [repr(g.observation(s)) for s in range(rules.players)]
    out.append(g.record())
    return out


@pytest.mark.parametrize(("preset", "options"), CONFIGS)
def test_compiled_and_pure_play_the_same_games(preset: str, options: dict[str, object]) -> None:
    for seed in range(4):
        assert _play(durak, preset, options, seed) == _play(pure, preset, options, seed)


def _rollouts(package: ModuleType, seed: int) -> list[str]:
    """Worlds sampled from one seat's view and played out by the compiled loops."""
    playout = __import__(package.__name__ + ".playout", fromlist=["_"])
    policy = __import__(package.__name__ + ".bots.policy", fromlist=["_"])
    sample = __import__(package.__name__ + ".determinize", fromlist=["_"]).sample
    g = package.Game(package.Rules.preset("perevodnoy", players=3), seed=seed)
    rng = random.Random(seed)
    for _ in range(25):
        g.apply(g.legal_actions()[int(rng.random() * len(g.legal_actions()))])
    out = []
    for k in range(5):
        world = sample(g.observation(g.to_act), random.Random(k))
        playout.random_playout(world, random.Random(k))
        out.append(" ".join(map(str, world.history)) + f" {world.outcome}")
        world = sample(g.observation(g.to_act), random.Random(k))
        playout.rollout(world, lambda w: w.legal_actions()[-1], random.Random(k), max_moves=30)
        out.append(" ".join(map(str, world.history)) + f" {world.outcome}")
        # the searchers' rollouts: the rule-of-thumb policy, one style per seat
        world = sample(g.observation(g.to_act), random.Random(k))
        policy.rollout(world, random.Random(k), styles=[k % 3, (k + 1) % 3, (k + 2) % 3])
        out.append(" ".join(map(str, world.history)) + f" {world.outcome}")
    return out


def test_sampled_worlds_and_playouts_agree() -> None:
    for seed in range(3):
        assert _rollouts(durak, seed) == _rollouts(pure, seed)


def test_clone_copies_every_field() -> None:
    # clone() lists the fields one by one; a forgotten one would be unset in the copy.
    g = durak.Game(durak.Rules.preset("pagony", players=4), seed=2)
    for _ in range(10):
        g.apply(g.legal_actions()[0])
    c = g.clone()
    assert snapshot(c) == snapshot(g)
    assert len(snapshot(c)) == len(FIELDS) - 1  # all but the cache of legal actions


def test_durak_pure_loads_the_python_sources() -> None:
    code = "import durak.game, durak.build as b; print(durak.game.__file__, b.engine_name())"
    env = {**os.environ, "DURAK_PURE": "1"}
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=True
    ).stdout
    assert out.split()[0].endswith("game.py") and out.strip().endswith("pure Python")


def test_games_views_and_outcomes_pickle() -> None:
    # Process pools, Ray and OpenSpiel send them between processes (compiled frozen
    # dataclasses and classes with constructor arguments need their own __reduce__).
    import pickle

    from durak.actions import encoding

    g = durak.Game(durak.Rules.preset("pagony", players=4), seed=5)
    while not g.is_over:
        g.apply(g.legal_actions()[0])
    for x in (g.outcome, g.observation(0), g.rules, g.history[0], g.hand(0)):
        assert pickle.loads(pickle.dumps(x)) == x
    assert snapshot(pickle.loads(pickle.dumps(g))) == snapshot(g)
    assert pickle.loads(pickle.dumps(encoding(g.rules))).size == g.rules.num_actions
