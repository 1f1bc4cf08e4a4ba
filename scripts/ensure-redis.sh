#!/bin/sh
# Make sure Debian's Redis server binary is installed: the tests of several server workers
# (tests/test_server_workers.py) start a throwaway redis-server of their own on it.
# Fails when it cannot be had, unless DURAK_SKIP_REDIS=1 says to go without.
if command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]; then exit 0; fi
if [ "${DURAK_SKIP_REDIS:-}" = "1" ]; then
    echo "Redis is not installed; DURAK_SKIP_REDIS=1: its tests are skipped"
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq redis-server >/dev/null; then
        # Debian starts a server of its own on port 6379; the tests do not use it.
        (command -v service >/dev/null && service redis-server stop) >/dev/null 2>&1
        exit 0
    fi
fi
echo "could not install Redis (needs root and apt-get); set DURAK_SKIP_REDIS=1 to" \
     "test without it" >&2
exit 1
