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

# versitygw: the S3 server the R2-over-S3 tests run against.
GOBIN_DIR="$(go env GOPATH)/bin"
if ! command -v versitygw >/dev/null && [ ! -x "$GOBIN_DIR/versitygw" ]; then
  say "go install versitygw@v1.8.0 (S3 server for the tests; a few minutes the first time)"
  GOFLAGS= go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
fi

# terraform: the provider's acceptance tests drive the real CLI.
if ! command -v terraform >/dev/null; then
  echo "note: terraform is not on PATH (expected at /usr/local/bin/terraform); Terraform tests will fail" >&2
fi

# sshd: the provider's dwk_fleet tests deploy over SSH to local sshd instances (test/sshd).
if [ ! -x /usr/sbin/sshd ]; then
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install openssh-server (sshd for the provider's SSH tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null
  else
    echo "note: /usr/sbin/sshd is missing (apt-get install openssh-server); the SSH deploy tests will skip" >&2
  fi
fi

# tfplugindocs: make generate renders docs/ from the provider schema and examples/.
if ! command -v tfplugindocs >/dev/null && [ ! -x "$GOBIN_DIR/tfplugindocs" ]; then
  say "go install tfplugindocs@v0.25.0"
  GOFLAGS= go install github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v0.25.0
fi
