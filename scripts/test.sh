#!/usr/bin/env bash
# Quick start, command 2: installs what the tests need and runs every tier (unit, integration,
# end-to-end). Postgres and Redis are used where they answer on their standard ports; otherwise the
# test setup starts embedded PostgreSQL; Kafka is started from Maven Central jars (infra/kafka) when
# no broker is configured. Under CI=true a missing service fails the run instead of skipping.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
pnpm install --frozen-lockfile --reporter=append-only
pnpm test "$@"
