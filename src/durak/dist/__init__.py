"""Batches of games on many processes or many machines.

- :mod:`durak.dist.executors`: one interface over the ways to run independent tasks: in
  this process, on a pool of local processes, or on a Ray cluster (the ``dist`` extra).
- :mod:`durak.dist.runlog`: the JSON-lines file of an arena run (a header, then one line a
  game), so that runs can be resumed, split into shards and merged.
- :mod:`durak.dist.selfplay`: self-play on Ray actors, streaming encoded games to a learner.

Results never depend on where a game was played: every game's cards and every bot's seed
follow from the run's seed and the game's number alone (docs/scale.md).
"""
