#!/usr/bin/env bash
# Scaffolds a workspace package: scripts/new-package.sh packages/foo @gw/foo
set -euo pipefail
dir="$1"; name="$2"
mkdir -p "$dir/src"
[ -f "$dir/package.json" ] || cat > "$dir/package.json" <<JSON
{
  "name": "$name",
  "version": "0.0.0",
  "private": true,
  "type": "module",
  "exports": { ".": { "types": "./dist/index.d.ts", "default": "./dist/index.js" } },
  "scripts": {
    "build": "tsc -p tsconfig.build.json",
    "check": "tsc -p tsconfig.json --noEmit"
  },
  "dependencies": {},
  "devDependencies": { "@gw/tsconfig": "workspace:*" }
}
JSON
[ -f "$dir/tsconfig.json" ] || cat > "$dir/tsconfig.json" <<JSON
{
  "extends": "@gw/tsconfig/base.json",
  "compilerOptions": { "rootDir": "src", "outDir": "dist", "noEmit": true },
  "include": ["src"]
}
JSON
[ -f "$dir/tsconfig.build.json" ] || cat > "$dir/tsconfig.build.json" <<JSON
{
  "extends": "./tsconfig.json",
  "compilerOptions": { "noEmit": false },
  "exclude": ["src/**/*.test.ts"]
}
JSON
