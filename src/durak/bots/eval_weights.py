"""The weights of durak.bots.evaluate, fitted by benchmarks/bots/train_eval.py
(--games 600 --seed 1, 19506 positions)."""

WEIGHTS: tuple[float, ...] = (
    -0.10332,  # bias,
    +0.01655,  # talon,
    -0.57807,  # talon empty,
    +0.14415,  # leads,
    +1.23262,  # leads, talon empty,
    -0.38378,  # cards - theirs,
    -2.70403,  # cards - theirs, talon empty,
    -0.17932,  # cards,
    +0.20446,  # their cards,
    -0.46633,  # trumps,
    +0.47893,  # their trumps,
    +0.32002,  # trumps - theirs, talon empty,
    +0.70250,  # trump strength,
    -0.71001,  # their trump strength,
    +0.15310,  # highest trump in hands,
    +0.32445,  # high plain,
    -0.32026,  # their high plain,
    -0.11756,  # low plain,
    +0.11424,  # their low plain,
    -0.38394,  # plain rank,
    +0.37460,  # their plain rank,
    +0.55801,  # aces and trumps - theirs, talon empty
)
