#!/bin/sh
# Compile the engine to C with mypyc, once for every make target: `make play` starts it
# in the background (the game meanwhile runs on the pure-Python engine) and any target
# that needs it while it runs waits for that build instead of starting a second one.
# Usage: sh scripts/build-engine.sh VENV
VENV=${1:-.venv}
LOCK=$VENV/.engine-building
STAMP=$VENV/.engine-built
WHAT="Compiling the engine to C with mypyc (about 2-3 min on 2 cores, 1 with 8; once, until the engine's sources change)"
while ! mkdir "$LOCK" 2>/dev/null; do
    pid=$(cat "$LOCK/pid" 2>/dev/null)
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then
        echo "==> Waiting for the engine build already under way (log: $VENV/engine-build.log)"
        n=0
        while kill -0 "$pid" 2>/dev/null; do
            sleep 5; n=$((n + 5))
            [ $((n % 10)) -eq 0 ] && echo "    ... $n s, the build says: $(tail -n 1 "$VENV/engine-build.log" 2>/dev/null | sed "s/^ *//" | cut -c1-80)"
        done
        if [ -f "$STAMP" ] && [ "$(cat "$LOCK.result" 2>/dev/null)" = "ok" ]; then
            exit 0
        fi
    else
        sleep 1  # a build that died, or one that is just starting: look again
        pid2=$(cat "$LOCK/pid" 2>/dev/null)
        if [ "$pid" = "$pid2" ]; then rm -rf "$LOCK"; fi
    fi
done
echo $$ > "$LOCK/pid"
trap 'rm -rf "$LOCK"' EXIT INT TERM
rm -f "$STAMP" "$LOCK.result"
if ${PY:-python3} scripts/step.py "$WHAT" -- "$VENV/bin/python" -m pip install -v --no-deps -e .; then
    "$VENV/bin/python" -c "from durak import build; print('durak engine:', build.engine_name())"
    touch "$STAMP"
    echo ok > "$LOCK.result"
else
    echo failed > "$LOCK.result"
    exit 1
fi
