#!/bin/sh
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests
# (tests/test_browser*.py drive it through Playwright). Installing needs root and
# Debian's package index. Without Chromium the browser tests FAIL, so this script fails
# loudly when it cannot install it. To run the suite without a browser, opt out
# explicitly: DURAK_NO_BROWSER=1 make test (the browser tests then say they were skipped
# on request).
if [ "${DURAK_NO_BROWSER:-0}" = "1" ]; then
    echo "DURAK_NO_BROWSER=1: not installing Chromium; the browser tests will be skipped on request"
    exit 0
fi
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" != "0" ] || ! command -v apt-get >/dev/null 2>&1; then
    echo "ERROR: Chromium is not installed at /usr/bin/chromium and cannot be installed here" >&2
    echo "       (needs root and apt-get). Install Debian's 'chromium' package, or run with" >&2
    echo "       DURAK_NO_BROWSER=1 to skip the browser tests on purpose." >&2
    exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if ! (apt-get update -qq && apt-get install -y -qq chromium >/dev/null); then
    echo "ERROR: apt-get could not install chromium; the browser tests need it." >&2
    echo "       Run with DURAK_NO_BROWSER=1 to skip them on purpose." >&2
    exit 1
fi
if [ ! -x /usr/bin/chromium ]; then
    echo "ERROR: chromium was installed but /usr/bin/chromium is missing" >&2
    exit 1
fi
