#!/bin/sh
# Make sure Debian's Chromium is at /usr/bin/chromium for the browser tests
# (tests/test_browser*.py drive it through Playwright). Needs root and Debian's package
# index; without them the browser tests skip themselves.
if [ -x /usr/bin/chromium ]; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    export DEBIAN_FRONTEND=noninteractive
    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
        || echo "could not install chromium: browser tests will be skipped"
else
    echo "chromium is not installed and cannot be (not root): browser tests will be skipped"
fi
exit 0
