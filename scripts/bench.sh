#!/usr/bin/env bash
# make bench: every benchmark, side by side in one run, into bench/report.{md,json},
# then the figures the docs quote from it (test/benchdocs). Arguments go to
# dwkbench: scripts/bench.sh -only fleet refreshes one section of the report.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./test/bench/dwkbench -dwk bin/dwk -out bench "$@"
# The front door's CPU profiles (lb section), as text: where its time goes,
# proxied and in process.
for p in lb-front-door lb-own-replica; do
  if [ -f "bench/$p.pprof" ]; then
    go tool pprof -top -cum -nodecount=60 "bench/$p.pprof" >"bench/$p-profile.txt" 2>/dev/null
  fi
done
go run ./test/benchdocs/docfigures
