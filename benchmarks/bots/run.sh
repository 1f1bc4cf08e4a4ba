#!/bin/sh
# The bot benchmarks of README.md. Run from the repository root or this folder:
#   sh benchmarks/bots/run.sh
# Search budgets are fixed iteration counts (rollouts a move), not seconds: the machine's
# two cores are shared, so time budgets would measure the load, not the bots. 600
# rollouts take about 0.09 s of CPU a move in a 2-player game, 500 about 0.1 s with 4.
set -e
cd "$(dirname "$0")"
DURAK=${DURAK:-../../.venv/bin/durak}

# The ladder of levels: each against the one below, paired deals.
$DURAK arena --bots level2 level1 --games 1000 --seed 7 --json ladder-level2-level1.json --png ''
$DURAK arena --bots level3 level2 --games 1000 --seed 7 --json ladder-level3-level2.json --png ''
$DURAK arena --bots level4 level3 --games 400 --seed 7 --json ladder-level4-level3.json --png ''
$DURAK arena --bots level5 level4 --games 200 --seed 7 --json ladder-level5-level4.json --png ''

# The searcher (v4: plain=0.5 is the default) against greedy at about 0.1 s a move:
# 700 rollouts take 0.08-0.09 s of CPU a move in a 2-player game.
$DURAK arena --bots ismcts:iterations=700 greedy --games 300 --seed 11 \
    --json podkidnoy-2p.json --png podkidnoy-2p.png
$DURAK arena --bots ismcts:iterations=700 greedy --games 300 --seed 23 \
    --json podkidnoy-2p-seed23.json --png podkidnoy-2p-seed23.png
$DURAK arena --bots ismcts:iterations=700 greedy --games 300 --seed 11 \
    --rules perevodnoy --json perevodnoy-2p.json --png perevodnoy-2p.png
$DURAK arena --bots ismcts:iterations=700 greedy --games 300 --seed 37 \
    --json podkidnoy-2p-seed37.json --png podkidnoy-2p-seed37.png
$DURAK arena --bots ismcts:iterations=700 greedy --games 300 --seed 23 \
    --rules perevodnoy --json perevodnoy-2p-seed23.json --png perevodnoy-2p-seed23.png
$DURAK arena --bots ismcts:iterations=500 greedy greedy greedy --games 200 --seed 11 \
    --rules "podkidnoy(players=4)" --json podkidnoy-4p.json --png podkidnoy-4p.png

# The arena's speed: a 1,000-game match of two fast bots, with progress.
$DURAK arena --bots heuristic greedy --games 1000 --seed 3 --json fast-1000.json --png fast-1000.png
