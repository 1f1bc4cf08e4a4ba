#!/bin/sh
# The fast proxies of issue 15 (benchmarks/bots/README.md, v5): variants of the searcher
# at 200 rollouts a move against expert, all on the deals of seed 5, so that any two
# compare paired on their common deals (python paired.py proxy/A.json proxy/B.json).
# The runs were stopped after the deals their text files name (CPU was short).
cd "$(dirname "$0")"
PY=${PY:-../../.venv/bin/python}
run() { out=$1; rules=$2; spec=$3; games=$4
    nice -n 5 $PY chunked.py "proxy/$out.json" --bots "$spec" expert --games "$games" \
        --seed 5 --rules "$rules"; }
run heur-pod podkidnoy heuristic 300
run base200-pod podkidnoy ismcts:iterations=200 300
run base200-per perevodnoy ismcts:iterations=200 300
run k2-200-pod podkidnoy ismcts:iterations=200,keep=2 200
run k1p0-200-pod podkidnoy ismcts:iterations=200,keep=1,plain=0 200
run k2p0-200-pod podkidnoy ismcts:iterations=200,keep=2,plain=0 200
run k3p0-200-pod podkidnoy ismcts:iterations=200,keep=3,plain=0 200
run k2p0-200-per perevodnoy ismcts:iterations=200,keep=2,plain=0 120
run k2p0mc-200-pod podkidnoy ismcts:iterations=200,keep=2,plain=0,model=careful 200
run k2p0mcr-200-pod podkidnoy ismcts:iterations=200,keep=2,plain=0,model=careful,read=on 200
