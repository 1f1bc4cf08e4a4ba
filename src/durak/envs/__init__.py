"""Learning environments: PettingZoo, Gymnasium and OpenSpiel adapters over the engine.

Install with the ``envs`` extra (``pip install "durak[envs]"``; ``rl`` adds the training
libraries). Each adapter lives in its own
module, imported only when used, so that the engine never needs numpy or the ecosystems:

- :mod:`durak.envs.pettingzoo`: every seat an agent (AEC API), ``env(rules=...)``;
- :mod:`durak.envs.gymnasium`: one seat against this project's bots, ``durak/Podkidnoy-v0``;
- :mod:`durak.envs.openspiel`: a ``pyspiel`` game with true chance nodes, ``python_durak``;
- :mod:`durak.envs.vector`: many deals stepped in one compiled call (Gymnasium's
  ``vector_entry_point`` of every id), with :mod:`durak.envs.sb3` its Stable-Baselines3
  ``VecEnv`` adapter and self-play, and :mod:`durak.envs.selfplay` policies as bots and a
  pool of a learner's past copies (the ``rl`` extra has torch and sb3-contrib).

All three share one encoder (:mod:`durak.envs.encoding`), the rewards and the
``action_limit`` that ends a deal that would not end (:mod:`durak.envs.episode`).
``docs/envs.md`` describes the spaces plane by plane.
"""
