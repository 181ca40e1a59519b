#!/usr/bin/env bash
# sizes.sh prints, for each size probe, the stripped static binary size, its
# growth over the database/sql baseline, and the wall time of one cold run
# (process start, driver init, open :memory:, one query), best of 5. The
# "both" probe links modernc's driver and zombiezen together, as dwk does.
set -euo pipefail
cd "$(dirname "$0")"
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
base=0
printf '%-10s %10s %10s %10s\n' probe bytes delta cold_ms
for p in baseline modernc ncruces zombiezen both; do
	CGO_ENABLED=0 go build -trimpath -ldflags='-s -w' -o "$out/$p" "./sizeprobe/$p"
	size=$(stat -c %s "$out/$p")
	[ "$p" = baseline ] && base=$size
	best=999999
	for _ in 1 2 3 4 5; do
		start=$(date +%s%N)
		"$out/$p" >/dev/null
		ms=$(( ($(date +%s%N) - start) / 1000000 ))
		(( ms < best )) && best=$ms
	done
	printf '%-10s %10d %10d %10d\n' "$p" "$size" $((size - base)) "$best"
done
