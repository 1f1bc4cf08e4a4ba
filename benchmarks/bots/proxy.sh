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
# v6 (issue 15, third session): the same deals as pool.sh (seed 41), compared paired with
# pool-v5/level5-expert-podkidnoy.json; results in proxy2/ (stopped where the text files say).
run6() { out=$1; shift; nice -n 10 $PY chunked.py "proxy2/$out.json" --seed 41 "$@"; }
run6 s1club41-pod --bots ismcts:iterations=1,plain=0,keep=2,nodes=5000 expert --deals 0:100
run6 s1n20k41-pod --bots ismcts:iterations=1,plain=0,keep=2,nodes=20000 expert --deals 0:100
run6 pc-pod --bots ismcts:iterations=500,plain=0,keep=2,prior=careful expert --deals 0:100
run6 c3i1000-pod --bots ismcts:iterations=1000,plain=0,keep=2,cut=3 expert --deals 0:100
run6 c3i1000-pod-b --bots ismcts:iterations=1000,plain=0,keep=2,cut=3 expert --deals 100:200
# The rules of thumb with the exact endgame only (no search), seed 5 as above:
nice -n 10 $PY chunked.py proxy2/s1club-pod.json --seed 5 --games 300 \
    --bots ismcts:iterations=1,plain=0,keep=2,nodes=5000 expert
nice -n 10 $PY chunked.py proxy2/s1care-pod.json --seed 5 --games 300 \
    --bots ismcts:iterations=1,plain=0,keep=2,nodes=5000,prior=careful expert
nice -n 10 $PY chunked.py proxy2/heurc-pod.json --seed 5 --games 300 \
    --bots heuristic:style=careful expert
# Level 5 as it is now (v5 plus nodes=20000), the pool.sh deals in two halves each, merged
# into pool-v6/ with chunked.py --merge; and with four players (six parts, merged).
L5=ismcts:iterations=500,plain=0,keep=2,nodes=20000
run6 n20-pod --bots $L5 expert --deals 0:100
run6 n20-pod-b --bots $L5 expert --deals 100:200
run6 n20-per --bots $L5 expert --deals 0:100 --rules perevodnoy
run6 n20-per-b --bots $L5 expert --deals 100:200 --rules perevodnoy
nice -n 10 $PY chunked.py pool-v6/n20-3expert-4p.json --seed 41 --games 400 \
    --bots $L5 expert expert expert --rules "podkidnoy(players=4)"
nice -n 10 $PY chunked.py pool-v6/level5-expert-2x2.json --seed 41 --games 200 \
    --bots $L5 expert --rules "podkidnoy(players=4,teams=2x2)"
# After the endgame search's 0.3 s limit: the deals of the longest moves, replayed.
run6 ../pool-v6/capcheck-pod --bots $L5 expert --deals 60:80
run6 ../pool-v6/capcheck-per --bots $L5 expert --deals 60:80 --rules perevodnoy
# v7 (issue 15, fourth session): the compiled, faster solver; level 5 with nodes=60000.
# Results in proxy3/, the halves merged into pool-v7/ with chunked.py --merge.
run7() { out=$1; shift; nice -n 10 $PY chunked.py "proxy3/$out.json" --seed 41 "$@"; }
L5=ismcts:iterations=500,plain=0,keep=2
run7 n20-pod --bots $L5,nodes=20000 expert --deals 0:100    # the v6 level 5 on the new solver
run7 n60-pod --bots $L5,nodes=60000 expert --deals 0:100
run7 n60-pod-b --bots $L5,nodes=60000 expert --deals 100:200
run7 n60-per --bots $L5,nodes=60000 expert --deals 0:100 --rules perevodnoy
run7 n60-per-b --bots $L5,nodes=60000 expert --deals 100:200 --rules perevodnoy
run7 x1500-pod --bots $L5,nodes=60000,extend=1500 expert --deals 0:100
run7 x1500-pod-b --bots $L5,nodes=60000,extend=1500 expert --deals 100:200
run7 x1500-per --bots $L5,nodes=60000,extend=1500 expert --deals 0:100 --rules perevodnoy
run7 x1500-per-b --bots $L5,nodes=60000,extend=1500 expert --deals 100:200 --rules perevodnoy
run7 i1000n60-pod --bots ismcts:iterations=1000,plain=0,keep=2,nodes=60000 expert --deals 0:100  # stopped after 9 deals
# After extend= got its stop at half the cap: 100 more podkidnoy deals, both ways.
run7 n60-pod-c --games 600 --bots $L5,nodes=60000 expert --deals 200:300
run7 x1500-pod-c --games 600 --bots $L5,nodes=60000,extend=1500 expert --deals 200:300
nice -n 10 $PY chunked.py pool-v7/level5-expert-2x2.json --seed 41 --games 200 \
    --bots $L5,nodes=60000 expert --rules "podkidnoy(players=4,teams=2x2)"
$PY chunked.py pool-v7/level5-expert-podkidnoy.json --merge proxy3/n60-pod.json proxy3/n60-pod-b.json
$PY chunked.py pool-v7/level5-expert-perevodnoy.json --merge proxy3/n60-per.json proxy3/n60-per-b.json
# Four players, two processes of 50 deals each, merged:
nice -n 10 $PY chunked.py pool-v7/level5-3expert-4p-0.json --seed 41 --games 400 --deals 0:50 \
    --bots $L5,nodes=60000 expert expert expert --rules "podkidnoy(players=4)"
nice -n 10 $PY chunked.py pool-v7/level5-3expert-4p-50.json --seed 41 --games 400 --deals 50:100 \
    --bots $L5,nodes=60000 expert expert expert --rules "podkidnoy(players=4)"
$PY chunked.py pool-v7/level5-3expert-4p.json --merge pool-v7/level5-3expert-4p-0.json \
    pool-v7/level5-3expert-4p-50.json
# The solver's speed (nodes per CPU-second on the first empty-talon positions of expert games):
$PY solver_speed.py --positions 30 --nodes 50000
# Exact search in sampled worlds before the empty talon (the table in README.md, v7):
$PY exact_worlds.py --nodes 20000 --deals 20
$PY exact_worlds.py --nodes 200000 --deals 4 --min-hidden 1 --hidden 2
# v8 (issue 15, fifth session): the expert's move choice in the search. prior=expert: the
# expert's move (its rules, no exact endgame) is the one to beat; rollout=expert: every
# rollout seat plays by those rules (expert_policy.py, about four times a rules-of-thumb
# rollout's CPU, so 150 rollouts a move). Results in proxy4/, compared paired with proxy3/.
run8() { out=$1; shift; nice -n 10 $PY chunked.py "proxy4/$out.json" --seed 41 "$@"; }
run8 pe-pod --bots $L5,nodes=60000,prior=expert expert --deals 0:100
R8=ismcts:iterations=150,plain=0,keep=2,nodes=60000,rollout=expert
run8 re150-pod --bots $R8 expert --deals 0:100
run8 re150-pod-b --bots $R8 expert --deals 100:200
run8 re150-per --bots $R8 expert --deals 0:200 --rules perevodnoy
run8 re150-pod-c --games 600 --bots $R8 expert --deals 200:300   # paired with proxy3/n60-pod-c
$PY chunked.py pool-v8/re150-expert-podkidnoy.json --merge proxy4/re150-pod.json proxy4/re150-pod-b.json
# v9 (issue 15, sixth session): level 5 with twice the rollouts (iterations=1000), the
# pool.sh deals (seed 41) in one process each, one match at a time; compared paired with
# pool-v7/ (level 5's games on the same deals): python paired.py pool-v7/A.json pool-v9/B.json
I9=ismcts:iterations=1000,plain=0,keep=2,nodes=60000
nice -n 10 $PY chunked.py pool-v9/i1000-expert-podkidnoy.json --seed 41 --games 400 --bots $I9 expert
nice -n 10 $PY chunked.py pool-v9/i1000-expert-perevodnoy.json --seed 41 --games 400 \
    --rules perevodnoy --bots $I9 expert
nice -n 10 $PY chunked.py pool-v9/i1000-3expert-4p.json --seed 41 --games 400 \
    --rules "podkidnoy(players=4)" --bots $I9 expert expert expert
# v10 (issue 15, seventh session): the CAREFUL opponent model with more worlds for close
# calls, and a learned value network at the empty talon (train_value.py); compared
# paired with pool-v9/ (level 5's 2-player games on the same deals).
V10=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000
nice -n 10 $PY chunked.py pool-v10/mc-ext-expert-podkidnoy.json --seed 41 --games 400 \
    --bots $V10,model=careful,extend=2000 expert
nice -n 10 $PY chunked.py pool-v10/mc-ext-expert-perevodnoy.json --seed 41 --games 400 \
    --rules perevodnoy --bots $V10,model=careful,extend=2000 expert
nice -n 10 $PY chunked.py pool-v10/net-empty-pod.json --seed 41 --deals 0:100 \
    --bots $V10,empty=on,value=net expert
nice -n 10 $PY chunked.py pool-v10/net-empty-pod-b.json --seed 41 --deals 100:200 \
    --bots $V10,empty=on,value=net expert
nice -n 10 $PY chunked.py pool-v10/net-empty-per.json --seed 41 --deals 0:100 \
    --rules perevodnoy --bots $V10,empty=on,value=net expert
nice -n 10 $PY chunked.py pool-v10/level5-2expert-3p.json --seed 41 --games 150 \
    --rules "podkidnoy(players=3)" --bots level5 expert expert
for part in a:0:50 b:50:100; do IFS=: read p lo hi <<EOT
$part
EOT
    nice -n 10 $PY chunked.py pool-v10/mc-ext-3expert-4p-$p.json --seed 41 --games 400 \
        --deals $lo:$hi --rules "podkidnoy(players=4)" \
        --bots $V10,model=careful,extend=2000 expert expert expert
done
# Both together: the careful model with more worlds and the network at the empty talon
# (deals in two halves on the two cores, merged with chunked.py --merge).
for part in a:0:100 b:100:200; do IFS=: read p lo hi <<EOT
$part
EOT
    nice -n 10 $PY chunked.py pool-v10/mc-ext-net-pod-$p.json --seed 41 --deals $lo:$hi \
        --bots $V10,model=careful,extend=2000,empty=on,value=net expert
    nice -n 10 $PY chunked.py pool-v10/mc-ext-net-per-$p.json --seed 41 --deals $lo:$hi \
        --rules perevodnoy --bots $V10,model=careful,extend=2000,empty=on,value=net expert
done
$PY chunked.py pool-v10/mc-ext-net-expert-podkidnoy.json --merge pool-v10/mc-ext-net-pod-a.json \
    pool-v10/mc-ext-net-pod-b.json
$PY chunked.py pool-v10/mc-ext-net-expert-perevodnoy.json --merge pool-v10/mc-ext-net-per-a.json \
    pool-v10/mc-ext-net-per-b.json
# v11 (issue 15, eighth session): the search given the true game (oracle.py), the
# belief (level 5 + belief=256 before it became level 5), and level 5 against the pool.
# Results in pool-v11/.
V10=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000
for r in podkidnoy perevodnoy; do
    $PY oracle.py $r "ismcts:iterations=20,heads_up=20,plain=0,keep=2,nodes=60000,model=careful" 0:50 \
        > pool-v11/oracle-full-club-$r.log
    $PY oracle.py $r "ismcts:iterations=20,heads_up=20,plain=0,keep=2,nodes=60000,style=careful,model=careful" \
        0:50 > pool-v11/oracle-full-careful-$r.log
    $PY oracle.py $r "ismcts:iterations=20,heads_up=20,plain=0,keep=2,nodes=60000,rollout=expert" 0:50 \
        > pool-v11/oracle-full-expert-rollouts-$r.log
    $PY oracle.py $r "ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful" 0:50 \
        --mode hands > pool-v11/oracle-hands-$r.log
    # (run in two parts, 0:50 and 50:200, merged with chunked.py --merge)
    nice -n 5 $PY chunked.py pool-v11/belief-expert-$r.json --seed 41 --rules $r \
        --bots $V10,belief=256 expert
    for opp in greedy heuristic level4; do
        nice -n 5 $PY chunked.py pool-v11/level5-$opp-$r.json --seed 41 --games 200 --rules $r \
            --bots level5 $opp
    done
    nice -n 5 $PY chunked.py pool-v11/level5-random-$r.json --seed 41 --games 100 --rules $r \
        --bots level5 random
done
nice -n 5 $PY chunked.py pool-v11/nobelief-greedy-podkidnoy.json --seed 41 --games 200 \
    --bots level5:belief=0 greedy
# The belief for every player count (level 5 of commit d00228f), kept as belief-all-*:
nice -n 5 $PY chunked.py pool-v11/belief-all-3expert-4p.json --seed 41 --games 400 \
    --rules "podkidnoy(players=4)" --bots $V10,belief=256 expert expert expert
nice -n 5 $PY chunked.py pool-v11/belief-all-expert-2x2.json --seed 41 --games 200 \
    --rules "podkidnoy(players=4,teams=2x2)" --bots $V10,belief=256 expert
nice -n 5 $PY chunked.py pool-v11/belief-all-2expert-3p.json --seed 41 --games 150 \
    --rules "podkidnoy(players=3)" --bots $V10,belief=256 expert expert
for a in "podkidnoy 256 0.3 20" "podkidnoy 256 0.1 20" "podkidnoy 512 0.1 20" \
        "podkidnoy 256 0.03 20" "perevodnoy 256 0.1 20" "podkidnoy 256 0.1 20 --model expert" \
        "podkidnoy 256 0.02 20 --model expert"; do
    $PY belief_accuracy.py $a
done > pool-v11/belief-accuracy.txt
$PY careful_agreement.py podkidnoy 100 > pool-v11/careful-agreement.txt
# The belief's cost and the variants tried (v11):
nice -n 5 $PY chunked.py pool-v11/nobelief-level4-podkidnoy.json --seed 41 --games 200 \
    --bots level5:belief=0 level4
nice -n 5 $PY chunked.py pool-v11/nobelief-level4-perevodnoy.json --seed 41 --games 200 \
    --rules perevodnoy --bots level5:belief=0 level4
nice -n 5 $PY chunked.py pool-v11/mix-greedy-podkidnoy.json --seed 41 --games 200 \
    --bots level5:belief_plain=0.5 greedy
nice -n 5 $PY chunked.py pool-v11/mix-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
    --bots level5:belief_plain=0.5 expert
nice -n 5 $PY chunked.py pool-v11/eps03-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
    --bots level5:eps=0.03 expert
nice -n 5 $PY chunked.py pool-v11/level5-expert-podkidnoy-fixcheck.json --seed 41 --deals 0:50 \
    --bots level5 expert
nice -n 5 $PY chunked.py pool-v11/level5-3expert-4p-check.json --seed 41 --games 400 --deals 0:20 \
    --rules "podkidnoy(players=4)" --bots level5 expert expert expert
for b in level4 greedy; do echo "== $b"; $PY careful_agreement.py podkidnoy 100 $b | grep careful
done > pool-v11/careful-agreement-others.txt
nice -n 5 $PY chunked.py pool-v11/fit05-level4-perevodnoy.json --seed 41 --games 200 \
    --rules perevodnoy --bots level5:fit=0.5 level4
nice -n 5 $PY chunked.py pool-v11/fit05-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
    --bots level5:fit=0.5 expert
nice -n 5 $PY chunked.py pool-v11/fit04-level4-perevodnoy.json --seed 41 --games 200 \
    --rules perevodnoy --bots level5:fit=0.4 level4
nice -n 5 $PY chunked.py pool-v11/fit04-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
    --bots level5:fit=0.4 expert
# v12 (issue 15, ninth session): level 5 is v11 plus fit=0.4. Settings tried on podkidnoy
# deals 0-99 against expert, and a replay of v11's level 5 there as the control:
for v in "keep=1.5 keep15" "keep=3 keep3" "prior=careful priorc" "heads_up=1500 hu1500" \
        "fit=0,dear=4 dear4"; do
    set -- $v
    nice -n 5 $PY chunked.py pool-v12/$2-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
        --bots level5:$1 expert
done
nice -n 5 $PY chunked.py pool-v12/level5-expert-podkidnoy-a.json --seed 41 --deals 0:100 \
    --bots level5:fit=0 expert   # run as "level5" before fit=0.4 was added
# Where games are decided: the exact value of the first empty-talon position.
$PY endgame_split.py podkidnoy level5 100:130 --nodes 1000000 \
    > pool-v12/endgame-split-podkidnoy.txt
# The search given the opponent's hand on the rest of the deals.
$PY oracle.py podkidnoy "ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful" \
    50:200 --mode hands > pool-v12/oracle-hands-podkidnoy-50-200.log
# Level 5 (fit=0.4) against expert: deals 0-99 of podkidnoy are v11's fit04 run (renamed
# "level5" in pool-v12/fit04-expert-podkidnoy-a.json), then 100-199, perevodnoy 0-199
# (run as level5:fit=0.4) and the fresh deals 200-399 of both.
nice -n 5 $PY chunked.py pool-v12/fit04-expert-podkidnoy-b.json --seed 41 --deals 100:200 \
    --bots level5 expert
$PY chunked.py pool-v12/fit04-expert-podkidnoy.json \
    --merge pool-v12/fit04-expert-podkidnoy-a.json pool-v12/fit04-expert-podkidnoy-b.json
nice -n 5 $PY chunked.py pool-v12/fit04-expert-perevodnoy.json --seed 41 --deals 0:200 \
    --rules perevodnoy --bots level5:fit=0.4 expert
for r in podkidnoy perevodnoy; do
    nice -n 5 $PY chunked.py pool-v12/level5-expert-$r-c.json --seed 41 --games 800 \
        --deals 200:400 --rules $r --bots level5 expert
done
# The rest of the pool (level 4 in perevodnoy: v11's pool-v11/fit04-level4-perevodnoy.json).
for r in podkidnoy perevodnoy; do
    for b in greedy heuristic; do
        nice -n 5 $PY chunked.py pool-v12/level5-$b-$r.json --seed 41 --games 200 \
            --rules $r --bots level5 $b
    done
    nice -n 5 $PY chunked.py pool-v12/level5-random-$r.json --seed 41 --games 100 \
        --rules $r --bots level5 random
done
nice -n 5 $PY chunked.py pool-v12/level5-level4-podkidnoy.json --seed 41 --games 200 \
    --bots level5 level4
# hold=on: the uniform deal for the rest of the deal once an opponent is misread.
for r in podkidnoy perevodnoy; do
    nice -n 5 $PY chunked.py pool-v12/hold-level4-$r.json --seed 41 --games 200 \
        --rules $r --bots level5:hold=on level4
done
$PY fit_check.py podkidnoy expert greedy heuristic level4 > pool-v12/fit-check.txt
$PY fit_check.py perevodnoy expert level4 >> pool-v12/fit-check.txt
$PY dear_overrides.py 15 > pool-v12/dear-overrides.txt
for r in podkidnoy perevodnoy; do
    nice -n 5 $PY chunked.py pool-v12/hold-expert-$r.json --seed 41 --deals 0:200 --rules $r \
        --bots level5:hold=on expert
done

# v13: regret on fixed positions (regret.py), other rollouts, keep=1 on 800 games.
L5=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000,belief=256,belief_players=2,fit=0.4
for r in podkidnoy perevodnoy; do
    $PY regret.py collect pool-v13/pos-$r.json --rules $r --deals 400:440
    $PY regret.py oracle pool-v13/pos-$r.json --worlds 1000
    $PY regret.py score pool-v13/pos-$r.json level5 heuristic expert ${L5/keep=2/keep=1} \
        ${L5/keep=2/keep=3} ${L5/belief=256/belief=0} ${L5/fit=0.4/fit=0.4,eps=0.03} \
        ${L5/heads_up=1000/heads_up=3000} > pool-v13/score-$r-1.txt
    $PY regret.py phases pool-v13/pos-$r.json level5 heuristic expert ${L5/keep=2/keep=1} \
        ${L5/belief=256/belief=0} > pool-v13/phases-$r.txt
done
$PY regret.py score pool-v13/pos-podkidnoy.json level5 \
    ${L5/heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000/heads_up=500,plain=0,keep=2,nodes=60000,model=careful,extend=1000} \
    ${L5/heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000/heads_up=250,plain=0,keep=2,nodes=60000,model=careful,extend=500} \
    --procs 1 > pool-v13/score-podkidnoy-2.txt
nice -n 5 $PY chunked.py pool-v13/exexp-expert-podkidnoy-a.json --seed 41 --deals 0:100 --rules podkidnoy \
    --bots ismcts:iterations=300,plain=0,keep=2,nodes=60000,prior=expert,rollout=expert,belief=256,belief_players=2,fit=0.4,extend=800 expert
nice -n 5 $PY chunked.py pool-v13/exown-expert-podkidnoy-a.json --seed 41 --deals 0:100 --rules podkidnoy \
    --bots ismcts:iterations=400,plain=0,keep=2,nodes=60000,prior=expert,rollout=own,model=careful,belief=256,belief_players=2,fit=0.4,extend=1000 expert
for r in podkidnoy perevodnoy; do
    nice -n 5 $PY chunked.py pool-v13/stylec-expert-$r-a.json --seed 41 --deals 0:100 --rules $r \
        --bots $L5,style=careful expert
    nice -n 5 $PY chunked.py pool-v13/keep1-expert-$r-a.json --seed 41 --deals 0:100 --rules $r \
        --bots ${L5/keep=2/keep=1} expert
    nice -n 5 $PY chunked.py pool-v13/keep1-expert-$r-b.json --seed 41 --deals 100:400 --games 800 \
        --rules $r --bots ${L5/keep=2/keep=1} expert
    $PY chunked.py pool-v13/keep1-expert-$r-800.json --rules $r --games 800 \
        --merge pool-v13/keep1-expert-$r-a.json pool-v13/keep1-expert-$r-b.json
done

# v14 (issue 15, eleventh session): pool-v14/
L5=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000,belief=256,belief_players=2,fit=0.4
for r in podkidnoy perevodnoy; do
    for part in 0:50 50:100; do  # two processes, merged into -a
        nice -n 5 $PY chunked.py pool-v14/tree3-expert-$r-${part/:/-}.json --seed 41 --deals $part \
            --rules $r --bots $L5,tree=3 expert
    done
    $PY chunked.py pool-v14/tree3-expert-$r-a.json --rules $r --games 200 \
        --merge pool-v14/tree3-expert-$r-0-50.json pool-v14/tree3-expert-$r-50-100.json
    nice -n 5 $PY chunked.py pool-v14/tree3-expert-$r-b.json --seed 41 --deals 100:200 --games 400 \
        --rules $r --bots $L5,tree=3 expert
    nice -n 5 $PY chunked.py pool-v14/noise05-expert-$r-a.json --seed 41 --deals 0:100 --rules $r \
        --bots $L5,noise=0.05 expert
    # stopped after 54 (podkidnoy) and 44 (perevodnoy) deals
    nice -n 5 $PY chunked.py pool-v14/cut2net-expert-$r-a.json --seed 41 --deals 0:100 --rules $r \
        --bots $L5,cut=2,value=net expert
    $PY distill_leads.py collect pool-v14/leads-$r.json --rules $r --deals 0:300  # stopped: 180, 120 deals
done
$PY regret.py score pool-v13/pos-podkidnoy.json level5 $L5,tree=3 $L5,tree=6,warm=4 --procs 1 \
    > pool-v14/score-podkidnoy-tree.txt
$PY distill_leads.py fit pool-v14/leads-podkidnoy.json
$PY distill_leads.py fit pool-v14/leads-perevodnoy.json
# The search given the opponent's hand, perevodnoy deals 50-199 (two processes).
for part in 50:125 125:200; do
    $PY oracle.py perevodnoy "ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful" \
        $part --mode hands > pool-v14/oracle-hands-perevodnoy-$(echo $part | tr : -).log
done
$PY self_agreement.py > pool-v14/self-agreement.txt

# v15 (issue 15, twelfth session): pool-v15/, policy switching and a guarded judge
L5=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=careful,extend=2000,belief=256,belief_players=2,fit=0.4
L5E=ismcts:iterations=500,heads_up=600,plain=0,keep=2,nodes=60000,model=careful,extend=2000,belief=256,belief_players=2,fit=0.4
for r in podkidnoy perevodnoy; do
    nice -n 5 $PY chunked.py pool-v15/switchc-expert-$r-a.json --seed 41 --deals 0:200 --games 400 \
        --rules $r --bots $L5,switch=careful expert
    nice -n 5 $PY chunked.py pool-v15/switche-expert-$r-a.json --seed 41 --deals 0:200 --games 400 \
        --rules $r --bots $L5E,switch=expert expert
    $PY paired.py pool-v12/level5-expert-$r-800.json pool-v15/switchc-expert-$r-a.json \
        pool-v15/switche-expert-$r-a.json
done
nice -n 5 $PY chunked.py pool-v15/guardc-expert-podkidnoy-a.json --seed 41 --deals 0:200 --games 400 \
    --rules podkidnoy --bots $L5,guard=club expert
$PY paired.py pool-v12/level5-expert-podkidnoy-800.json pool-v15/guardc-expert-podkidnoy-a.json
# The diagnostic model=expert (the opponents of every rollout by the expert's rules).
LX=ismcts:iterations=500,heads_up=1000,plain=0,keep=2,nodes=60000,model=expert,extend=2000,belief=256,belief_players=2,fit=0.4
nice -n 5 $PY chunked.py pool-v15/modelx-expert-podkidnoy-a.json --seed 41 --deals 0:200 --games 400 \
    --rules podkidnoy --bots $LX expert
nice -n 5 $PY chunked.py pool-v15/modelx-expert-podkidnoy-b.json --seed 41 --deals 200:400 --games 800 \
    --rules podkidnoy --bots $LX expert
$PY chunked.py pool-v15/modelx-expert-podkidnoy-800.json --rules podkidnoy --games 800 \
    --merge pool-v15/modelx-expert-podkidnoy-a.json pool-v15/modelx-expert-podkidnoy-b.json
nice -n 5 $PY chunked.py pool-v15/modelx-expert-perevodnoy-a.json --seed 41 --deals 0:200 --games 400 \
    --rules perevodnoy --bots $LX expert
$PY paired.py pool-v12/level5-expert-podkidnoy-800.json pool-v15/modelx-expert-podkidnoy-800.json
$PY paired.py pool-v12/level5-expert-perevodnoy-800.json pool-v15/modelx-expert-perevodnoy-a.json
