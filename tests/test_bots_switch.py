"""Policy switching in the searcher (``ismcts:switch=careful``, benchmarks/bots/README.md,
v15): every candidate is played on in every world by each continuation of this seat's
side, and judged by its best continuation's mean over the worlds."""

from __future__ import annotations

from collections.abc import Callable

import pytest

import durak.bots.ismcts as ism
from durak import Game, Rules
from durak.bots import make
from durak.bots.ismcts import EXPERT, ISMCTSBot, _max_min
from durak.bots.policy import CAREFUL, CLUB, PLAIN
from durak.game import Game as GameT

from .helpers import play


def _spy(
    monkeypatch: pytest.MonkeyPatch, value: Callable[[object, list[int]], float]
) -> list[tuple[object, list[int]]]:
    """Replace the rollouts by a record of (candidate, styles) and the score by
    ``value(candidate, styles)``."""
    seen: list[tuple[object, list[int]]] = []
    styles_of: dict[int, list[int]] = {}

    def rollout(self: ISMCTSBot, g: GameT, styles: list[int]) -> None:
        seen.append((g.history[-1], list(styles)))
        styles_of[id(g)] = list(styles)

    def score(g: GameT, seat: int) -> float:
        return value(g.history[-1], styles_of[id(g)])

    monkeypatch.setattr(ISMCTSBot, "_rollout", rollout)
    monkeypatch.setattr(ism, "score", score)
    return seen


def test_each_world_plays_every_candidate_once_a_continuation(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Pins the sampling: with ``switch=careful`` every world plays each live candidate
    once with this seat's side on the CLUB rules and once on the CAREFUL ones, the
    opponent on its model's style (PLAIN here) in both."""
    g = Game(Rules.preset("podkidnoy"), seed=11)
    seat = g.to_act
    assert seat is not None
    seen = _spy(monkeypatch, lambda a, st: 0.5)
    bot = ISMCTSBot(iterations=60, seed=2, plain=1.0, switch="careful")
    obs = g.observation(seat)
    bot.choose(obs)
    assert len(seen) == bot.last_stats["rollouts"] >= 60
    other = 1 - seat
    for _, styles in seen:
        assert styles[other] == PLAIN
    mine = [styles[seat] for _, styles in seen]
    assert set(mine) == {CLUB, CAREFUL} and mine.count(CLUB) == mine.count(CAREFUL)
    # the first world: every legal action, first under CLUB, then under CAREFUL
    n = len(obs.legal)
    assert [s[seat] for _, s in seen[: 2 * n]] == [CLUB] * n + [CAREFUL] * n
    assert {a for a, _ in seen[:n]} == set(obs.legal)


def test_a_candidate_is_judged_by_its_best_continuation(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pins the choice: one candidate wins only if this side plays CAREFULLY after it (1
    against 0 under CLUB), every other scores 0.6 under CLUB and 0.5 under CAREFUL. With
    one continuation (CLUB) the search avoids that candidate; switching picks it."""
    g = Game(Rules.preset("podkidnoy"), seed=11)
    seat = g.to_act
    assert seat is not None
    obs = g.observation(seat)
    target = obs.legal[-1]

    def value(a: object, st: list[int]) -> float:
        if a == target:
            return 1.0 if st[seat] == CAREFUL else 0.0
        return 0.6 if st[seat] == CLUB else 0.5

    _spy(monkeypatch, value)
    for switch, want_target in (("careful", True), ("", False)):
        bot = ISMCTSBot(iterations=200, seed=2, plain=0, switch=switch)
        ranked = bot.evaluate(g.observation(seat))
        assert (ranked[0][0] == target) is want_target
        if want_target:
            assert ranked[0][1] == 1.0 and all(v == 0.6 for a, v in ranked[1:] if v)


def test_a_candidate_is_judged_by_the_worst_reply_to_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pins ``guard``: one candidate wins 0.9 against the opponents' model (CAREFUL) but
    0.1 against the CLUB rules, every other 0.5 against both. Judged against the model
    alone the search plays it; with ``guard=club`` it does not, and its value is 0.1.
    With ``switch`` too, this side's best continuation is taken against the worst reply."""
    g = Game(Rules.preset("podkidnoy"), seed=11)
    seat = g.to_act
    assert seat is not None
    obs = g.observation(seat)
    target = obs.legal[-1]
    other = 1 - seat

    def value(a: object, st: list[int]) -> float:
        if a != target:
            return 0.5
        if st[seat] == CAREFUL:  # this side's other continuation beats either reply
            return 0.8 if st[other] == CLUB else 0.95
        return 0.9 if st[other] == CAREFUL else 0.1

    _spy(monkeypatch, value)
    for opts, want in (
        ({}, 0.9),
        ({"guard": "club"}, 0.1),
        ({"guard": "club", "switch": "careful"}, 0.8),
    ):
        bot = ISMCTSBot(iterations=200, seed=2, plain=0, model="careful", **opts)  # type: ignore[arg-type]
        ranked = dict(bot.evaluate(g.observation(seat)))
        assert ranked[target] == want
        best = max(ranked, key=lambda a: ranked[a])
        assert (best == target) is (want > 0.5)


def test_max_min_takes_the_best_row_of_worst_replies() -> None:
    rows = [[1.0], [0.0], [0.4, 0.4], [0.6]]  # row 1: 1.0 / 0.0; row 2: 0.4 / 0.6
    assert _max_min(rows, 2) == [0.4, 0.4]
    assert _max_min(rows, 1) == [1.0]


@pytest.mark.parametrize(
    "rules", ["podkidnoy", "perevodnoy", "podkidnoy(players=3)", "podkidnoy(players=4,teams=2x2)"]
)
def test_the_switching_searcher_plays_legal_moves_to_the_end(rules: str) -> None:
    r = Rules.parse(rules)
    play(
        r,
        [
            make("ismcts:iterations=40,plain=0,keep=2,switch=careful+expert,guard=club", seed=1)
            if s == 0
            else make("heuristic")
            for s in range(r.players)
        ],
        4,
    )


def test_switch_options_are_checked() -> None:
    bot = make("ismcts:switch=careful+expert,guard=club")
    assert bot.switch == [CAREFUL, EXPERT]  # type: ignore[attr-defined]
    assert bot.guard == [CLUB]  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="guard names styles"):
        make("ismcts:guard=clubs")
    with pytest.raises(ValueError, match="switch names styles"):
        make("ismcts:switch=carefull")
    with pytest.raises(ValueError, match="not with tree"):
        make("ismcts:switch=careful,tree=2")


def test_model_expert_plays_the_opponents_by_the_experts_rules(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """``model=expert`` (a diagnostic, v15): every rollout's opponents are EXPERT seats,
    this side keeps its style; the rollouts then go through the expert's rules."""
    g = Game(Rules.preset("podkidnoy"), seed=5)
    seat = g.to_act
    assert seat is not None
    seen = _spy(monkeypatch, lambda a, st: 0.5)
    ISMCTSBot(iterations=30, seed=1, plain=0, model="expert").choose(g.observation(seat))
    assert seen and all(st[1 - seat] == EXPERT and st[seat] == CLUB for _, st in seen)
    with pytest.raises(ValueError, match="model is one of"):
        make("ismcts:model=experts")


def test_model_expert_plays_legal_games() -> None:
    play(
        Rules.preset("perevodnoy"),
        [make("ismcts:iterations=30,plain=0,model=expert", seed=2), make("expert")],
        2,
    )
