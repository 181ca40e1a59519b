#!/usr/bin/env bash
# make demo: a 3-replica central-mode dwk fleet on this machine, stood up by
# Terraform from examples/local: dwk libsql and versitygw as the central
# stores, three `dwk serve` replicas, each behind its own built-in front door
# (Caddy) that balances over the whole fleet, running the reference workers
# and a Workers project in JavaScript (examples/workers-app/app).
#
# make demo installs what it needs first (scripts/tools.sh versitygw
# examples: the S3 server, through the Go module proxy, and the project's
# npm packages, through npm); terraform (or tofu), node and npm must be on
# PATH.
# When a step fails, or on Ctrl-C, it takes the demo down as make demo-down
# does (a demo already running in .demo included): no process it started
# keeps running and .demo is removed.
#
# make demo-down (scripts/demo.sh down): terraform destroy, stop the stores,
# remove .demo. Nothing keeps running.
#
# scripts/demo.sh prepare: build, install the provider mirror and start the
# stores, without applying (to run examples/staging or custom-worker by
# hand); scripts/demo.sh env: the exports that point terraform at the
# mirror and the stores: eval "$(scripts/demo.sh env)".
#
# Everything lives in .demo/ (ignored by git): the provider's filesystem
# mirror and CLI config, the Terraform state, the stores' data, pids and
# logs, the replicas' install directories. Once versitygw is installed, no
# network is needed.
#
# Settings (environment): DWK_DEMO_PORT (first replica's port, default
# 8787; replica n uses +10n), DWK_DEMO_LIBSQL_PORT (18080 and the next),
# DWK_DEMO_S3_PORT (17070), TERRAFORM (the CLI; default terraform, else tofu).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
export DWK_DEMO_DIR=${DWK_DEMO_DIR:-$ROOT/.demo}
DEMO=$DWK_DEMO_DIR
EXAMPLE=$ROOT/examples/local
PORT=${DWK_DEMO_PORT:-8787}
REPLICAS=3
PROVIDER_VERSION=$(scripts/provider-version.sh)

say() { printf '==> %s\n' "$*"; }
die() { printf 'error: %s\n' "$*" >&2; exit 1; }
alive() { [ -s "$1" ] && kill -0 "$(cat "$1")" 2>/dev/null; }
listening() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }

# find_terraform sets TF to terraform, or tofu when terraform is missing.
find_terraform() {
  if [ -n "${TERRAFORM:-}" ]; then TF=$TERRAFORM
  elif command -v terraform >/dev/null; then TF=terraform
  elif command -v tofu >/dev/null; then TF=tofu
  else
    die "neither terraform (1.11 or later) nor tofu is on PATH. Install one: https://developer.hashicorp.com/terraform/install or https://opentofu.org/docs/intro/install/"
  fi
  local v
  v=$("$TF" version 2>/dev/null || true)
  say "using $(grep -m 1 -E '^(Terraform|OpenTofu) v' <<<"$v" || echo "$TF")"
}

# tf runs the CLI on examples/local with the demo's mirror, data dir and variables.
tf() {
  TF_CLI_CONFIG_FILE=$DEMO/terraformrc TF_DATA_DIR=$DEMO/terraform TF_IN_AUTOMATION=1 CHECKPOINT_DISABLE=1 \
    "$TF" -chdir="$EXAMPLE" "$@"
}

# variables exports what examples/local needs.
variables() {
  eval "$(scripts/demo-stores.sh env)"
  TF_VAR_fleet_secret=$(cat "$DEMO/fleet-secret") TF_VAR_app_token=$(cat "$DEMO/app-token")
  export TF_VAR_fleet_secret TF_VAR_app_token
  export TF_VAR_state_dir=$DEMO/fleet TF_VAR_artifact=$ROOT/bin/dwk TF_VAR_base_port=$PORT TF_VAR_replicas=$REPLICAS
}

# mirror installs the provider where `terraform init` finds it without a
# network, under both registries' host names (OpenTofu's default is its own),
# in the layout `make install-provider` uses for the user's own mirrors.
mirror() {
  scripts/install-provider.sh bin/terraform-provider-dwk "$PROVIDER_VERSION" "$DEMO/plugins" >/dev/null
  cat >"$DEMO/terraformrc" <<EOF
provider_installation {
  filesystem_mirror {
    path    = "$DEMO/plugins"
    include = ["registry.terraform.io/dwk/dwk", "registry.opentofu.org/dwk/dwk"]
  }
  direct {
    exclude = ["registry.terraform.io/dwk/dwk", "registry.opentofu.org/dwk/dwk"]
  }
}
EOF
  say "installed the provider into the filesystem mirror $DEMO/plugins"
}

# have_state reports whether the demo's Terraform state holds resources.
have_state() { [ -s "$DEMO/terraform.tfstate" ] && grep -q '"resources": \[[^]]' <(tr -d '\n' <"$DEMO/terraform.tfstate"); }

# prepare installs the tools, builds dwk and the provider, fills the
# mirror, starts the stores and makes the fleet secret.
prepare() {
  find_terraform
  command -v go >/dev/null || die "go is not on PATH; it builds dwk and the provider"
  scripts/tools.sh versitygw examples
  mkdir -p "$DEMO"

  say "building bin/dwk"
  make --no-print-directory -s build
  say "building bin/terraform-provider-dwk $PROVIDER_VERSION"
  CGO_ENABLED=0 go build -trimpath -ldflags "-X github.com/dwk/fleet/appliance/process/buildinfo.version=$PROVIDER_VERSION" \
    -o bin/terraform-provider-dwk ./cmd/terraform-provider-dwk
  mirror

  scripts/demo-stores.sh start

  if [ ! -s "$DEMO/fleet-secret" ]; then
    (umask 077 && openssl rand -hex 32 >"$DEMO/fleet-secret")
    say "generated the fleet secret into $DEMO/fleet-secret"
  fi
  if [ ! -s "$DEMO/app-token" ]; then
    (umask 077 && openssl rand -hex 16 >"$DEMO/app-token")
    say "generated the Workers project's API_TOKEN into $DEMO/app-token"
  fi
}

# env prints the exports that point terraform at the demo's mirror and
# stores, with the demo's fleet secret.
env_lines() {
  [ -s "$DEMO/terraformrc" ] || die "run 'scripts/demo.sh prepare' (or make demo) first"
  echo "export TF_CLI_CONFIG_FILE=$DEMO/terraformrc"
  scripts/demo-stores.sh env
  echo "export TF_VAR_fleet_secret=$(cat "$DEMO/fleet-secret") TF_VAR_secret=$(cat "$DEMO/fleet-secret")"
  echo "export TF_VAR_app_token=$(cat "$DEMO/app-token") TF_VAR_api_token=$(cat "$DEMO/app-token")"
}

up() {
  prepare
  variables

  if ! have_state; then
    for i in $(seq 0 $((REPLICAS - 1))); do
      for p in $((PORT + 10 * i)) $((PORT + 10 * i + 1)) $((PORT + 10 * i + 2)); do
        listening "$p" && die "port $p is taken (a demo from an older dwk? run 'make demo-down'); or pick other ports with DWK_DEMO_PORT=<port>"
      done
    done
  fi

  # The lock file pins the checksum of a provider built here; a rebuilt
  # provider has another, so it is made afresh.
  rm -f "$EXAMPLE/.terraform.lock.hcl"
  say "terraform init (examples/local; state in $DEMO/terraform.tfstate)"
  tf init -input=false -reconfigure -backend-config="path=$DEMO/terraform.tfstate" >"$DEMO/init.log" 2>&1 ||
    { cat "$DEMO/init.log" >&2; die "terraform init failed"; }

  say "terraform apply: databases, bucket, mode marker, the Workers project's D1 migrations, then $REPLICAS replicas"
  tf apply -input=false -auto-approve

  local urls
  urls=$(tf output -json urls | tr -d '[]"' | tr ',' ' ')
  local first=${urls%% *}
  cat <<MSG

  A $REPLICAS-replica dwk fleet runs in central mode. Every replica's front door
  balances over the whole fleet; use any of them:
$(for u in $urls; do printf '      %s/\n' "$u"; done)

  Notes:    $first/                (examples/workers-app/app: a Workers project in JavaScript
                                   with a Durable Object, D1, R2 and KV)
            curl -H "Authorization: Bearer \$(cat $DEMO/app-token)" $first/api/secret
  Chat:     $first/chat/           (open it in two tabs, or one per URL)
  Counter:  curl -X POST $first/counter/demo/increment
  Members:  bin/dwk status$(for i in $(seq 0 $((REPLICAS - 1))); do printf ' --admin http://127.0.0.1:%d' $((PORT + 10 * i + 2)); done) \\
              --token "\$(sed -n 's/.*\"token\": *\"\\([^\"]*\\)\".*/\\1/p' $DEMO/fleet/replica-1/dwk.json)"
  Logs:     $DEMO/fleet/replica-*/dwk.log, $DEMO/libsql.log, $DEMO/s3.log

  make demo-down destroys it all.
MSG
}

down() {
  if [ -d "$DEMO" ] && have_state; then
    find_terraform
    if [ -x bin/dwk ] && [ -s "$DEMO/terraformrc" ] && [ -s "$DEMO/fleet-secret" ]; then
      scripts/demo-stores.sh start >/dev/null
      variables
      say "terraform destroy: drain and remove the replicas, then the marker, bucket and databases"
      tf destroy -input=false -auto-approve || echo "terraform destroy failed; stopping what is left by hand" >&2
    fi
  fi
  # Whatever survived a failed destroy: replicas under .demo/fleet, and the
  # single process of the local-mode demo this script used to run.
  for pidfile in "$DEMO"/fleet/*/dwk.pid "$DEMO/dwk.pid"; do
    if alive "$pidfile"; then
      say "stopping leftover replica (pid $(cat "$pidfile"))"
      kill -TERM "$(cat "$pidfile")" 2>/dev/null || true
      for _ in $(seq 1 150); do alive "$pidfile" || break; sleep 0.1; done
      alive "$pidfile" && kill -KILL "$(cat "$pidfile")" 2>/dev/null || true
    fi
  done
  if [ -d "$DEMO" ]; then scripts/demo-stores.sh stop; fi
  rm -rf "$DEMO" "$EXAMPLE/.terraform.lock.hcl"
  say "demo removed: nothing is running and $DEMO is gone"
}

# undo_on_failure runs as the EXIT trap of up and prepare: when they did
# not finish (a failed step, Ctrl-C), it takes down whatever they started.
undo_on_failure() {
  local rc=$?
  trap - EXIT INT TERM
  if [ "$rc" -ne 0 ]; then
    printf '\nerror: the demo did not come up (exit %d); removing what it started\n' "$rc" >&2
    (down) || echo "error: the clean-up failed too; see above, then run 'make demo-down'" >&2
  fi
  exit "$rc"
}

# arm_cleanup installs undo_on_failure; a signal becomes a failing exit.
arm_cleanup() {
  trap undo_on_failure EXIT
  trap 'exit 130' INT
  trap 'exit 143' TERM
}

case "${1:-up}" in
  up) arm_cleanup; up ;;
  down) down ;;
  prepare) arm_cleanup; prepare; say "ready: eval \"\$(scripts/demo.sh env)\"" ;;
  env) env_lines ;;
  *) echo "usage: $0 [up|down|prepare|env]" >&2; exit 2 ;;
esac
