#!/usr/bin/env bash
# Quick start, command 1: installs what the gateway needs (Node 24 and pnpm into .tools/, the
# workspace's packages) and runs it on its embedded default: all four apps in one process on an
# embedded PostgreSQL under .data/, with the built-in demo provider. Nothing to install by hand.
set -euo pipefail
cd "$(dirname "$0")/.."
source scripts/env.sh
pnpm install --frozen-lockfile --reporter=append-only
exec pnpm start
