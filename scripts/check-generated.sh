#!/usr/bin/env bash
# Fails when `make generate` would change committed files (stale provider docs).
set -euo pipefail
cd "$(dirname "$0")/.."
./scripts/generate.sh >/dev/null
if ! git diff --quiet -- docs || [ -n "$(git ls-files --others --exclude-standard docs)" ]; then
  echo "docs/ is stale: run 'make generate' and commit the result" >&2
  git status --short docs >&2
  exit 1
fi
