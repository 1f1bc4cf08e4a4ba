"""Training the learned players (the ``rl`` extra: torch on the CPU).

- :mod:`durak.learn.tables`: the mix of tables the every-table network is trained on;
- :mod:`durak.learn.dmc`: Deep Monte-Carlo self-play at every table
  (``python -m durak.learn.dmc``), the trainer of :mod:`durak.bots.tablenet`'s network;
- :mod:`durak.learn.dmc2`: Deep Monte-Carlo at 2-player tables (``python -m
  durak.learn.dmc2``, :class:`~durak.learn.dmc2.Trainer`), the trainer of ``learned``;
- :mod:`durak.learn.evaluate`: a player against the bot ladder on fixed paired deals
  (``python -m durak.learn.evaluate``, :func:`~durak.learn.evaluate.pairing`);
- :mod:`durak.learn.scoring`: a seat's score in one game, shared by all of them.

Playing a trained network needs numpy alone (:mod:`durak.bots.tablenet`).
"""
