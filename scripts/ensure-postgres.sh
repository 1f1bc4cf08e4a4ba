#!/bin/sh
# Make sure Debian's PostgreSQL server binaries are installed: the server's store tests
# (tests/test_server_postgres.py) start a throwaway PostgreSQL of their own on them.
# Fails when it cannot be had, unless DURAK_SKIP_POSTGRES=1 says to go without.
if ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then exit 0; fi
if [ "${DURAK_SKIP_POSTGRES:-}" = "1" ]; then
    echo "PostgreSQL is not installed; DURAK_SKIP_POSTGRES=1: its tests are skipped"
    exit 0
fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    if apt-get update -qq && apt-get install -y -qq postgresql >/dev/null; then
        # Debian starts a cluster of its own; the tests do not use it.
        (command -v pg_ctlcluster >/dev/null && service postgresql stop) >/dev/null 2>&1
        exit 0
    fi
fi
echo "could not install PostgreSQL (needs root and apt-get); set DURAK_SKIP_POSTGRES=1 to" \
     "test without it" >&2
exit 1
