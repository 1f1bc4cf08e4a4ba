#!/bin/sh
# The searcher's top level against the pool (issue 15): paired deals, niced processes
# (to leave the shared cores to others), each saving its summary after every deal
# (chunked.py), so that a run cut short still counts every finished deal. The two
# main matches are split over three processes each and merged afterwards:
#   python chunked.py pool/level5-expert-podkidnoy.json --merge pool/level5-expert-podkidnoy-?.json
cd "$(dirname "$0")"
PY=${PY:-../../.venv/bin/python}
run() { out=$1; shift; nice -n 10 $PY chunked.py "pool/$out.json" --seed 41 "$@" & }
for part in 0:67 67:134 134:200; do
    n=${part%%:*}
    run level5-expert-podkidnoy-$n --bots level5 expert --games 400 --deals $part
    run level5-expert-perevodnoy-$n --bots level5 expert --games 400 --deals $part \
        --rules perevodnoy
done
run level5-3expert-4p --bots level5 expert expert expert --games 200 --rules "podkidnoy(players=4)"
run level5-expert-2x2 --bots level5 expert --games 200 --rules "podkidnoy(players=4,teams=2x2)"
run level5-greedy-podkidnoy --bots level5 greedy --games 400
run level5-greedy-perevodnoy --bots level5 greedy --games 400 --rules perevodnoy
run expert-greedy-podkidnoy --bots expert greedy --games 400  # measured in two parts, 0:87 and 87:200, merged
run expert-greedy-perevodnoy --bots expert greedy --games 400 --rules perevodnoy
wait
