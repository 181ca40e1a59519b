#!/usr/bin/env bash
# make bench: every benchmark, side by side in one run, into bench/report.{md,json}.
set -euo pipefail
cd "$(dirname "$0")/.."
go run ./test/bench/dwkbench -dwk bin/dwk -out bench "$@"
