#!/usr/bin/env bash
# make soak: the long chaos run. A central-mode fleet under mixed load with
# randomized, seeded faults; exits non-zero on any invariant violation.
#
#   scripts/soak.sh [DURATION] [SEED] [REPLICAS]    e.g. scripts/soak.sh 10m 42 4
#
# DURATION is how long the load runs (default 10m); the invariant checks
# and the fleet's start and stop add a minute or two. The run's result
# (fault schedule, counts per fault and operation, invariants) is written
# to bench/soak-DURATION-SEED.json, passed or not, and the docs that quote
# that file are regenerated (test/benchdocs).
set -euo pipefail
cd "$(dirname "$0")/.."
duration="${1:-${DURATION:-10m}}"
seed="${2:-${SEED:-$(date +%s)}}"
replicas="${3:-${REPLICAS:-4}}"
mkdir -p bin
go build -race -o bin/dwk-race ./cmd/dwk
# go test's own timeout: the load plus ten minutes for the fleet's start,
# the checks and cleanup. DURATION is a number with s, m or h.
case "$duration" in
*h) secs=$((${duration%h} * 3600)) ;;
*m) secs=$((${duration%m} * 60)) ;;
*s) secs=${duration%s} ;;
*) echo "soak: DURATION must be like 90s, 10m or 1h, not $duration" >&2; exit 2 ;;
esac
out="$PWD/bench/soak-${duration}-${seed}.json"
echo "soak: ${duration} of load, seed ${seed}, ${replicas} replicas (re-run: scripts/soak.sh ${duration} ${seed} ${replicas})"
rm -f "$out"
set +e
DWK_SOAK_STRICT=1 DWK_BIN="$PWD/bin/dwk-race" go test -count=1 -v -run '^TestSoak$' -timeout "$((secs + 600))s" ./test/soak \
	-args -soak.duration="$duration" -soak.seed="$seed" -soak.replicas="$replicas" -soak.random -soak.out="$out" \
	2>&1 | grep --line-buffered -v '^\[dwk serve \|^\[dwk libsql\]\|^\[versitygw\]\|^\[dwk provision\]'
rc="${PIPESTATUS[0]}"
set -e
if [ -f "$out" ]; then
	echo "soak: result in ${out#"$PWD"/}"
	if ! go run ./test/benchdocs/docfigures; then
		echo "soak: the docs were not regenerated from ${out#"$PWD"/}" >&2
		[ "$rc" != 0 ] || rc=1
	fi
fi
exit "$rc"
