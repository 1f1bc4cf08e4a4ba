#!/bin/sh
# The searcher's top level against the pool (issue 15): paired deals, niced processes
# (the shared cores), each match saving its summary after every deal (chunked.py), so
# that a run cut short still counts every finished deal. Two queues, one process each:
#   sh benchmarks/bots/pool.sh            # everything, seed 41, results in pool/
#   OUT=pool-v5 sh benchmarks/bots/pool.sh
cd "$(dirname "$0")"
PY=${PY:-../../.venv/bin/python}
OUT=${OUT:-pool}
mkdir -p "$OUT"
run() { out=$1; shift; nice -n 5 $PY chunked.py "$OUT/$out.json" --seed 41 "$@"; }
(
    run level5-expert-podkidnoy --bots level5 expert --games 400
    run level5-3expert-4p --bots level5 expert expert expert --games 200 \
        --rules "podkidnoy(players=4)"
    run level5-level4-podkidnoy --bots level5 level4 --games 100
    # Control: the v4 level 5 (best mean, plain model in half the worlds) on the same deals.
    run v4level5-expert-podkidnoy --bots ismcts:iterations=500 expert --games 400
) &
(
    run level5-expert-perevodnoy --bots level5 expert --games 400 --rules perevodnoy
    run level5-expert-2x2 --bots level5 expert --games 200 \
        --rules "podkidnoy(players=4,teams=2x2)"
    # More rollouts with the same decision rule, on the first 60 deals only.
    run ismcts1200-expert-podkidnoy --bots ismcts:iterations=1200,plain=0,keep=2 expert \
        --games 400 --deals 0:60
    run level5-greedy-podkidnoy --bots level5 greedy --games 100
    run v4level5-expert-perevodnoy --bots ismcts:iterations=500 expert --games 400 \
        --rules perevodnoy
    nice -n 5 $PY stats.py level5 expert --games 20 --seed 43 \
        --json "$OUT/habits-level5-expert-podkidnoy.json" > "$OUT/habits-level5-expert-podkidnoy.txt"
) &
wait
