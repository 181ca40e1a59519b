#!/usr/bin/env bash
# Installs the tools the test suites need. Idempotent; every install goes
# through a registry this project may reach (Go module proxy, npm, Debian).
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

if [ -f test/libsqlconformance/node/package-lock.json ]; then
  if ! command -v node >/dev/null; then
    echo "node (20 or newer) is required for the @libsql/client conformance run: apt-get install nodejs npm" >&2
    exit 1
  fi
  if [ ! -d test/libsqlconformance/node/node_modules ]; then
    say "npm ci (test/libsqlconformance/node)"
    npm ci --silent --no-audit --no-fund --prefix test/libsqlconformance/node
  fi
fi
