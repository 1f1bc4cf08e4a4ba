"""The searcher's tree over its own choices in the current bout (``ismcts:tree=k``,
benchmarks/bots/README.md, v14): the UCB1 choice, what the tree records, legal play."""

from __future__ import annotations

import pytest

import durak.bots.ismcts as ism
from durak import Game, Rules
from durak.actions import Action
from durak.bots import make
from durak.bots.ismcts import ISMCTSBot, _ucb

from .helpers import play


def test_ucb_plays_the_default_while_warm_then_tries_the_rest_then_the_best() -> None:
    g = Game(Rules(), seed=1)
    legal = g.legal_actions()
    assert len(legal) >= 3
    a, b, c = legal[:3]
    node: dict[Action, list[float]] = {}
    # warm: the rules of thumb's choice, whatever else is legal
    assert _ucb(node, legal, c, 0.5, warm=4) is c
    node[c] = [2.0, 4.0]
    # warm spent: an untried action comes next, in the legal order
    assert _ucb(node, legal, c, 0.5, warm=4) is a
    # every action tried: the one with the best mean wins when exploration is off
    node.update({x: [0.0, 1.0] for x in legal})
    node[b] = [9.0, 10.0]
    node[c] = [2.0, 4.0]
    assert _ucb(node, legal, c, 0.0, warm=4) is b
    # ... and a much tried action yields to a rarely tried one when it is on
    node[b] = [900.0, 1000.0]
    node[a] = [0.0, 1.0]
    assert _ucb(node, legal, c, 5.0, warm=4) is not b


def test_the_tree_holds_only_this_seats_choices_in_the_current_bout(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Every node of the tree is a sequence of public moves after a candidate, played in
    one of the sampled worlds, that ends with this seat to choose among several actions
    in the root's bout; the actions stored there are legal for it, their counts add up
    to the rollouts through the node, and no rollout goes through more than ``tree``."""
    g = Game(Rules.preset("podkidnoy"), seed=11)
    seat = g.to_act
    assert seat is not None
    obs = g.observation(seat)
    worlds: list[tuple[Game, dict[tuple[Action, ...], dict[Action, list[float]]]]] = []
    depth: list[int] = []
    original = ISMCTSBot._tree_rollout
    ucb = ism._ucb

    def spy(
        self: ISMCTSBot,
        h: Game,
        tree: dict[tuple[Action, ...], dict[Action, list[float]]],
        styles: list[int],
        s: int,
        bout: int,
    ) -> float:
        worlds.append((h.clone(), tree))
        depth.append(0)
        return original(self, h, tree, styles, s, bout)

    def counting(*args: object) -> Action:
        depth[-1] += 1
        return ucb(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(ISMCTSBot, "_tree_rollout", spy)
    monkeypatch.setattr(ism, "_ucb", counting)
    bot = ISMCTSBot(iterations=300, seed=2, plain=0, tree=3, warm=2)
    assert bot.choose(obs) in obs.legal
    assert worlds and max(depth) >= 2 and max(depth) <= 3
    trees = {id(t): t for _, t in worlds}
    checked = 0
    for tree in trees.values():
        starts = [w for w, t in worlds if t is tree]
        for path, node in tree.items():
            visits = sum(st[1] for st in node.values())
            assert visits >= 1 and all(0 <= st[0] <= st[1] for st in node.values())
            for w in starts:  # the world the path was played in
                h = w.clone()
                if not all(a in h.legal_actions() and h.apply(a) is None for a in path):
                    continue
                assert h.to_act == seat and h.bout == g.bout
                legal = h.legal_actions()
                assert len(legal) > 1 and all(a in legal for a in node)
                checked += 1
                break
            else:
                raise AssertionError(f"no sampled world plays {path}")
    assert checked >= 5


@pytest.mark.parametrize(
    "rules", ["podkidnoy", "perevodnoy", "podkidnoy(players=3)", "podkidnoy(players=4,teams=2x2)"]
)
def test_the_searcher_with_a_tree_plays_legal_moves_to_the_end(rules: str) -> None:
    r = Rules.parse(rules)
    play(
        r,
        [
            make("ismcts:iterations=40,plain=0,keep=2,tree=4,warm=2", seed=1)
            if s == 0
            else make("heuristic")
            for s in range(r.players)
        ],
        5,
    )


def test_tree_options_are_checked() -> None:
    assert make("ismcts:tree=3,explore=0.3,warm=4").tree == 3  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="tree"):
        make("ismcts:tree=-1")
    with pytest.raises(ValueError, match="no option 'trees'"):
        make("ismcts:trees=3")


def test_without_the_tree_no_tree_rollout_is_played(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = []
    monkeypatch.setattr(ism.ISMCTSBot, "_tree_rollout", lambda *a, **k: calls.append(1) or 0.5)
    g = Game(Rules(), seed=3)
    obs = g.observation(g.to_act or 0)
    ISMCTSBot(iterations=30, seed=1).choose(obs)
    assert not calls


def test_noise_changes_the_rollouts_and_stays_legal(monkeypatch: pytest.MonkeyPatch) -> None:
    """``noise=p``: a random legal move with probability ``p`` in every rollout."""
    calls: list[int] = []
    noisy = ism._noisy_action

    def spy(g: Game, styles: list[int], rng: object, p: float) -> Action:
        a = noisy(g, styles, rng, p)  # type: ignore[arg-type]
        assert a in g.legal_actions()
        calls.append(1)
        return a

    monkeypatch.setattr(ism, "_noisy_action", spy)
    g = Game(Rules(), seed=8)
    obs = g.observation(g.to_act or 0)
    quiet = ISMCTSBot(iterations=100, seed=4, plain=0).evaluate(obs)
    assert not calls
    loud = ISMCTSBot(iterations=100, seed=4, plain=0, noise=1.0).evaluate(obs)
    assert calls and loud != quiet
    with pytest.raises(ValueError, match="noise"):
        ISMCTSBot(noise=1.5)
