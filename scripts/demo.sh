#!/usr/bin/env bash
# make demo: run dwk with the reference workers on this machine.
# make demo-down: stop it. State lives in .demo/ (ignored by git).
set -euo pipefail
cd "$(dirname "$0")/.."
DEMO=.demo
ADDR=${DWK_DEMO_ADDR:-127.0.0.1:8787}

say() { printf '==> %s\n' "$*"; }

down() {
  if [ -f "$DEMO/dwk.pid" ] && kill -0 "$(cat "$DEMO/dwk.pid")" 2>/dev/null; then
    say "stopping dwk (pid $(cat "$DEMO/dwk.pid")), draining"
    kill -TERM "$(cat "$DEMO/dwk.pid")"
    for _ in $(seq 1 100); do kill -0 "$(cat "$DEMO/dwk.pid")" 2>/dev/null || break; sleep 0.1; done
  fi
  rm -f "$DEMO/dwk.pid"
  say "demo stopped (data kept in $DEMO/data; rm -rf $DEMO to forget it)"
}

if [ "${1:-}" = down ]; then down; exit 0; fi

mkdir -p "$DEMO"
if [ -f "$DEMO/dwk.pid" ] && kill -0 "$(cat "$DEMO/dwk.pid")" 2>/dev/null; then
  say "demo already running: http://$ADDR/ (make demo-down stops it)"
  exit 0
fi
say "starting dwk serve (local mode) on $ADDR"
nohup bin/dwk serve --data-dir "$DEMO/data" --listen "$ADDR" >"$DEMO/dwk.log" 2>&1 &
echo $! >"$DEMO/dwk.pid"
for _ in $(seq 1 100); do
  if grep -q "ready on" "$DEMO/dwk.log" 2>/dev/null; then break; fi
  if ! kill -0 "$(cat "$DEMO/dwk.pid")" 2>/dev/null; then
    echo "dwk serve exited; its log:" >&2; cat "$DEMO/dwk.log" >&2; rm -f "$DEMO/dwk.pid"; exit 1
  fi
  sleep 0.1
done
grep -q "ready on" "$DEMO/dwk.log" || { echo "dwk serve did not become ready; see $DEMO/dwk.log" >&2; exit 1; }
say "ready"
cat <<MSG

  Chat:     http://$ADDR/            (open it in two browser tabs)
  Counter:  curl -X POST http://$ADDR/counter/demo/increment
  Health:   curl http://$ADDR/readyz
  Logs:     $DEMO/dwk.log

  make demo-down stops it.
MSG
