#!/usr/bin/env bash
# Quick start, command 2: installs what the tests need and runs every tier (unit, integration,
# end-to-end). PostgreSQL and Redis are used where they answer on their standard ports (or
# TEST_DATABASE_URL / TEST_REDIS_URL); otherwise the test setup starts embedded PostgreSQL and a
# throw-away redis-server (Debian's package, installed here when missing); Kafka is started from
# Maven Central jars (infra/kafka) when no broker is configured; Debian's chromium is installed for
# the web console's browser tests when missing. A run that skips tests fails unless
# GW_ALLOW_SKIPS=1; under CI (CI=true or CI=1) a missing service always fails it.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh

is_ci() { [ "${CI:-}" = true ] || [ "${CI:-}" = 1 ]; }

# Redis for the integration and end-to-end tiers: an existing one, or redis-server on PATH for the
# test setup to start. Debian packages it; install it as root, otherwise say exactly how to get it.
# The binary is wanted even beside an existing Redis: e2e/infra-faults.e2e.test.ts kills and restarts
# a redis-server of its own (never a shared one), so as root it is installed whenever it is missing.
ensure_redis() {
  command -v redis-server >/dev/null 2>&1 && return 0
  if [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[test] installing Debian's redis-server (the test setup and the infrastructure-fault suite start their own)" >&2
    if apt-get update -qq >&2 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >&2; then
      return 0
    fi
  fi
  # Without the binary an existing Redis still serves every other test; the fault suite says what it lacks.
  [ -n "${TEST_REDIS_URL:-}" ] && return 0
  (exec 3<>/dev/tcp/127.0.0.1/6379) 2>/dev/null && return 0
  local how="Redis is needed by the integration and end-to-end tests and none was found: install Debian's
redis-server (as root: apt-get update && apt-get install -y redis-server), or run Redis on
127.0.0.1:6379, or set TEST_REDIS_URL=redis://host:port."
  if ! is_ci && [ "${GW_ALLOW_SKIPS:-}" = 1 ]; then
    echo "[test] $how GW_ALLOW_SKIPS=1: the tests that need it will be skipped." >&2
    return 0
  fi
  echo "$how (GW_ALLOW_SKIPS=1 runs without it, skipping those tests.)" >&2
  exit 1
}

# Chromium for the web console's browser tests (apps/console/test, driven by playwright-core, which never
# downloads a browser): CHROMIUM_PATH, else Debian's /usr/bin/chromium, installed here as root when missing.
ensure_chromium() {
  local path="${CHROMIUM_PATH:-/usr/bin/chromium}"
  [ -x "$path" ] && return 0
  if [ -z "${CHROMIUM_PATH:-}" ] && [ "$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then
    echo "[test] installing Debian's chromium (the console's browser tests run it headless)" >&2
    if apt-get update -qq >&2 &&
      DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >&2; then
      return 0
    fi
  fi
  local how="Chromium is needed by the web console's browser tests (apps/console/test) and none was found at
$path: install Debian's chromium (as root: apt-get update && apt-get install -y chromium), or set
CHROMIUM_PATH to a Chromium or Chrome executable."
  if ! is_ci && [ "${GW_ALLOW_SKIPS:-}" = 1 ]; then
    echo "[test] $how GW_ALLOW_SKIPS=1: the browser tests will be skipped." >&2
    return 0
  fi
  echo "$how (GW_ALLOW_SKIPS=1 runs without it, skipping those tests.)" >&2
  exit 1
}

pnpm install --frozen-lockfile --reporter=append-only
ensure_redis
ensure_chromium
pnpm test "$@"
