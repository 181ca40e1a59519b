#!/usr/bin/env bash
# The central stores of a fleet on this machine: `dwk libsql` (libSQL) and
# versitygw (S3), started in the background with their pids, logs and data
# under one directory. make demo uses it; use it by hand to run
# examples/local or examples/staging yourself:
#
#   scripts/demo-stores.sh start        # start both (idempotent)
#   eval "$(scripts/demo-stores.sh env)" # TF_VAR_* for examples/local, DWK_* for the provider
#   scripts/demo-stores.sh status
#   scripts/demo-stores.sh stop         # stop both (data kept)
#
# Settings (environment):
#   DWK_DEMO_DIR          state directory               (default: .demo)
#   DWK_DEMO_LIBSQL_PORT  Hrana port; admin API is +1   (default: 18080)
#   DWK_DEMO_S3_PORT      S3 port                       (default: 17070)
#   DWK_BIN               dwk binary                    (default: bin/dwk)
set -euo pipefail
cd "$(dirname "$0")/.."

DIR=$(mkdir -p "${DWK_DEMO_DIR:-.demo}" && cd "${DWK_DEMO_DIR:-.demo}" && pwd)
LIBSQL_PORT=${DWK_DEMO_LIBSQL_PORT:-18080}
LIBSQL_ADMIN_PORT=$((LIBSQL_PORT + 1))
S3_PORT=${DWK_DEMO_S3_PORT:-17070}
DWK=${DWK_BIN:-$PWD/bin/dwk}

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }

alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }

# listening PORT: is something accepting connections on 127.0.0.1:PORT?
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# wait_http NAME URL PIDFILE LOG: poll URL until it answers 200.
wait_http() {
  local name=$1 url=$2 pidfile=$3 log=$4
  for _ in $(seq 1 200); do
    if curl -fsS -o /dev/null --max-time 1 "$url" 2>/dev/null; then return 0; fi
    if ! alive "$pidfile"; then
      echo "$name exited during start-up; the end of $log:" >&2
      tail -n 20 "$log" >&2 || true
      rm -f "$pidfile"
      exit 1
    fi
    sleep 0.1
  done
  die "$name did not answer $url within 20s; see $log"
}

# versitygw_bin finds versitygw where scripts/tools.sh installs it: PATH,
# $GOBIN, or the first GOPATH's bin.
versitygw_bin() {
  if command -v versitygw >/dev/null; then command -v versitygw; return; fi
  local p
  for p in "$(go env GOBIN 2>/dev/null)" "$(go env GOPATH 2>/dev/null | cut -d: -f1)/bin"; do
    [ -n "$p" ] && [ -x "$p/versitygw" ] && { echo "$p/versitygw"; return; }
  done
  die "versitygw not found: run 'scripts/tools.sh versitygw' (go install github.com/versity/versitygw/cmd/versitygw@v1.8.0)"
}

# keys: the S3 root credentials, generated once and kept in $DIR/s3.env.
keys() {
  if [ ! -s "$DIR/s3.env" ]; then
    umask 077
    printf 'S3_ACCESS_KEY=%s\nS3_SECRET_KEY=%s\n' "dwk$(openssl rand -hex 8)" "$(openssl rand -hex 20)" >"$DIR/s3.env"
  fi
  # shellcheck disable=SC1091
  . "$DIR/s3.env"
}

# b64url: base64url without padding, as JWTs encode their parts.
b64url() { openssl base64 -A | tr '+/' '-_' | tr -d '='; }

# libsql_keys: the libSQL credentials, generated once under $DIR/libsql-auth:
# an Ed25519 key pair whose public half `dwk libsql` checks tokens with, a
# read-write token signed with the private half (EdDSA, expiring in a year:
# dwk libsql refuses tokens that never expire), and the admin API key.
libsql_keys() {
  local d=$DIR/libsql-auth
  if [ ! -s "$d/env" ]; then
    mkdir -p "$d"
    (
      umask 077
      openssl genpkey -algorithm ed25519 -out "$d/jwt-key.pem" 2>/dev/null
      openssl pkey -in "$d/jwt-key.pem" -pubout -out "$d/jwt-pub.pem"
      local input exp
      exp=$(($(date +%s) + 365 * 24 * 3600))
      input="$(printf '{"alg":"EdDSA","typ":"JWT"}' | b64url).$(printf '{"a":"rw","exp":%d}' "$exp" | b64url)"
      printf '%s' "$input" >"$d/jwt-input"
      printf 'LIBSQL_AUTH_TOKEN=%s.%s\nLIBSQL_ADMIN_KEY=%s\n' "$input" \
        "$(openssl pkeyutl -sign -inkey "$d/jwt-key.pem" -rawin -in "$d/jwt-input" | b64url)" "$(openssl rand -hex 24)" >"$d/env"
      rm -f "$d/jwt-input"
    )
  fi
  # shellcheck disable=SC1091
  . "$d/env"
}

start_libsql() {
  local pidfile=$DIR/libsql.pid log=$DIR/libsql.log
  if alive "$pidfile"; then say "dwk libsql already running (pid $(cat "$pidfile"))"; return; fi
  [ -x "$DWK" ] || die "$DWK is missing: run 'make build'"
  for p in "$LIBSQL_PORT" "$LIBSQL_ADMIN_PORT"; do
    listening "$p" && die "port $p is taken; pick other ports with DWK_DEMO_LIBSQL_PORT=<port> (it uses that port and the next)"
  done
  mkdir -p "$DIR/libsql"
  libsql_keys
  say "starting dwk libsql on 127.0.0.1:$LIBSQL_PORT (admin API on :$LIBSQL_ADMIN_PORT), data in $DIR/libsql, JWT and admin key required"
  LIBSQL_ADMIN_AUTH_KEY=$LIBSQL_ADMIN_KEY setsid nohup "$DWK" libsql --http-listen-addr "127.0.0.1:$LIBSQL_PORT" --admin-listen-addr "127.0.0.1:$LIBSQL_ADMIN_PORT" \
    --auth-jwt-key-file "$DIR/libsql-auth/jwt-pub.pem" --db-path "$DIR/libsql" >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  wait_http "dwk libsql" "http://127.0.0.1:$LIBSQL_PORT/health" "$pidfile" "$log"
}

start_s3() {
  local pidfile=$DIR/s3.pid log=$DIR/s3.log bin
  if alive "$pidfile"; then say "versitygw already running (pid $(cat "$pidfile"))"; return; fi
  bin=$(versitygw_bin)
  listening "$S3_PORT" && die "port $S3_PORT is taken; pick another with DWK_DEMO_S3_PORT=<port>"
  keys
  # The sidecar keeps object metadata in files, so any file system works
  # (the posix backend otherwise needs user extended attributes).
  mkdir -p "$DIR/s3/root" "$DIR/s3/meta"
  say "starting versitygw (S3) on 127.0.0.1:$S3_PORT, data in $DIR/s3"
  ROOT_ACCESS_KEY=$S3_ACCESS_KEY ROOT_SECRET_KEY=$S3_SECRET_KEY setsid nohup "$bin" --port "127.0.0.1:$S3_PORT" \
    --region us-east-1 --health /health --quiet posix --sidecar "$DIR/s3/meta" "$DIR/s3/root" >"$log" 2>&1 </dev/null &
  echo $! >"$pidfile"
  wait_http "versitygw" "http://127.0.0.1:$S3_PORT/health" "$pidfile" "$log"
}

# stop_one NAME PIDFILE: SIGTERM, wait up to 15s, then SIGKILL.
stop_one() {
  local name=$1 pidfile=$2 pid
  if ! alive "$pidfile"; then rm -f "$pidfile"; return; fi
  pid=$(cat "$pidfile")
  say "stopping $name (pid $pid)"
  kill -TERM "$pid" 2>/dev/null || true
  for _ in $(seq 1 150); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
  if kill -0 "$pid" 2>/dev/null; then
    echo "$name did not stop within 15s; killing it" >&2
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$pidfile"
}

status() {
  local rc=0
  if alive "$DIR/libsql.pid"; then echo "dwk libsql: running (pid $(cat "$DIR/libsql.pid")), http://127.0.0.1:$LIBSQL_PORT"; else echo "dwk libsql: stopped"; rc=1; fi
  if alive "$DIR/s3.pid"; then echo "versitygw:  running (pid $(cat "$DIR/s3.pid")), http://127.0.0.1:$S3_PORT"; else echo "versitygw:  stopped"; rc=1; fi
  return $rc
}

env_lines() {
  keys
  libsql_keys
  cat <<EOF
export TF_VAR_libsql_url=http://127.0.0.1:$LIBSQL_PORT
export TF_VAR_libsql_admin_url=http://127.0.0.1:$LIBSQL_ADMIN_PORT
export TF_VAR_libsql_auth_token=$LIBSQL_AUTH_TOKEN
export TF_VAR_libsql_admin_token=$LIBSQL_ADMIN_KEY
export DWK_LIBSQL_AUTH_TOKEN=$LIBSQL_AUTH_TOKEN
export DWK_LIBSQL_ADMIN_TOKEN=$LIBSQL_ADMIN_KEY
export TF_VAR_s3_endpoint=http://127.0.0.1:$S3_PORT
export TF_VAR_s3_access_key=$S3_ACCESS_KEY
export TF_VAR_s3_secret_key=$S3_SECRET_KEY
export DWK_LIBSQL_URL=http://127.0.0.1:$LIBSQL_PORT
export DWK_LIBSQL_ADMIN_URL=http://127.0.0.1:$LIBSQL_ADMIN_PORT
export DWK_S3_ENDPOINT=http://127.0.0.1:$S3_PORT
export DWK_S3_REGION=us-east-1
export DWK_S3_PATH_STYLE=true
export DWK_S3_ACCESS_KEY=$S3_ACCESS_KEY
export DWK_S3_SECRET_KEY=$S3_SECRET_KEY
EOF
}

case "${1:-}" in
  start) start_libsql; start_s3 ;;
  stop) stop_one "versitygw" "$DIR/s3.pid"; stop_one "dwk libsql" "$DIR/libsql.pid" ;;
  status) status ;;
  env) env_lines ;;
  *) echo "usage: $0 start|stop|status|env" >&2; exit 2 ;;
esac
