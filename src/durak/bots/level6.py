"""Level 6: level 5's search with worlds read by the learned model of the opponent.

Level 5 (:class:`~durak.bots.ismcts.ISMCTSBot`) deals its worlds from a particle filter
that weighs each guess of the opponent's hand by whether a careful rule-of-thumb player
would have made the moves seen there (yes keeps the weight, no multiplies it by 0.1).
Level 6 weighs each guess by the probability that the learned network
(:mod:`durak.bots.learned`, an imitation of ``expert``) gives to the move seen there
(:class:`~durak.bots.learned.MoveOdds`; policy-based inference, Rebstock et al. 2019);
the rest is level 5: the same budget, rollouts, decision rule, exact endgame and CPU
cap. With three players or more the belief does not read (as level 5's), so level 6
plays there as level 5 does.

>>> from durak import Game, Rules
>>> g = Game(Rules(), seed=5)
>>> bot = Level6Bot(seed=1)
>>> bot.choose(g.observation(g.to_act)) in g.legal_actions()
True
"""

from __future__ import annotations

from .ismcts import CAP, BeliefWorlds, ISMCTSBot, KeepPrior
from .learned import MoveOdds

# A guess's weight is multiplied by EPS + (1 - EPS) * the odds of the move seen. Chosen
# by how much weight the belief puts on the opponent's true cards against `expert`
# (benchmarks/rl/LEVEL6.md): 0.1 0.426, 0.02 0.441, 0.01 0.444 in podkidnoy.
EPS = 0.01


class Level6Bot(ISMCTSBot):
    """Level 6 (``make("level6")``): ``seed`` the sampling's random generator, ``cap``
    the CPU seconds a move at most (level 5's 0.5 by default)."""

    name = "level6"

    def __init__(self, seed: int | None = None, cap: float = CAP) -> None:
        super().__init__(
            iterations=500,
            heads_up=1000,
            cap=cap,
            seed=seed,
            model="careful",
            worlds=BeliefWorlds(seed=seed, eps=EPS, model=MoveOdds()),
            decision=KeepPrior(),
            nodes=60_000,
        )
