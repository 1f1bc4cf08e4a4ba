#!/bin/sh
# Make sure Debian's Chromium is installed for the browser tests. Needs root and
# Debian's package index; without them the browser tests skip themselves.
if command -v chromium >/dev/null 2>&1; then exit 0; fi
if [ "$(id -u)" = "0" ] && command -v apt-get >/dev/null 2>&1; then
    (apt-get update -qq && apt-get install -y -qq chromium >/dev/null) \
        || echo "could not install chromium: browser tests will be skipped"
else
    echo "chromium is not installed and cannot be (not root): browser tests will be skipped"
fi
exit 0
