#!/usr/bin/env bash
# Makes sure the services the test suite talks to are up: PostgreSQL (for the PostgreSQL store tests)
# and Chromium (for the browser tests). Safe to run more than once.
set -uo pipefail
if ! command -v pg_isready >/dev/null 2>&1 || ! pg_isready -h 127.0.0.1 -p 5432 -q; then
  if ls /etc/postgresql >/dev/null 2>&1; then
    pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n1)" main start || true
  fi
fi
# Chromium from Debian's packages for the web app's browser tests (never a downloaded browser).
if [ ! -x /usr/bin/chromium ] && command -v apt-get >/dev/null 2>&1; then
  export DEBIAN_FRONTEND=noninteractive
  apt-get install -y chromium >/dev/null 2>&1 \
    || { apt-get update >/dev/null 2>&1 && apt-get install -y chromium >/dev/null 2>&1; } \
    || echo "ci-services: chromium could not be installed; the browser tests will fail" >&2
fi
exit 0
