"""Training the learned players (the ``rl`` extra: torch on the CPU).

- :mod:`durak.learn.tables`: the mix of tables the every-table network is trained on;
- :mod:`durak.learn.dmc`: Deep Monte-Carlo self-play at every table
  (``python -m durak.learn.dmc``), the trainer of :mod:`durak.bots.tablenet`'s network.

Playing a trained network needs numpy alone (:mod:`durak.bots.tablenet`).
"""
