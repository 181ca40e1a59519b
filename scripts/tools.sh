#!/usr/bin/env bash
# Installs the tools the test suites and the demo need. Idempotent; every
# install goes through a registry this project may reach (Go module proxy,
# npm, Debian).
#
#   scripts/tools.sh                  # everything make test needs
#   scripts/tools.sh versitygw        # only the named tools (make demo)
#
# Tools: node, examples, versitygw, pebble, terraform, sshd, nftables, machines, promtool, chromium, tfplugindocs, goreleaser. terraform
# is not installed here (it comes from HashiCorp, not from a registry this
# project uses); it is only checked. Under CI (CI=true) every tool that
# cannot be installed is an error, since the tests that need it fail there;
# elsewhere it is a note, and those tests skip.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '==> %s\n' "$*"; }

# ci: the CI environment variable holds a true value (the values Go's
# strconv.ParseBool accepts, as test/needtool reads it).
ci() { case "${CI:-}" in 1 | t | T | true | TRUE | True) return 0 ;; *) return 1 ;; esac; }

# missing TOOL MESSAGE: an error under CI, a note elsewhere.
missing() {
  if ci; then
    echo "error: $1 is missing and CI=true, so the tests that need it would fail: $2" >&2
    exit 1
  fi
  echo "note: $1 is missing, so the tests that need it will skip: $2" >&2
}

# gobin is where `go install` puts binaries: $GOBIN, else the first GOPATH's bin.
gobin() {
  local d
  d=$(go env GOBIN)
  [ -n "$d" ] || d="$(go env GOPATH | cut -d: -f1)/bin"
  echo "$d"
}

# npm_ci DIR [ARGS]: installs DIR's npm packages from its lockfile, again
# whenever the lockfile changed since the last install.
npm_ci() {
  local dir=$1
  shift
  [ -f "$dir/package-lock.json" ] || return 0
  if [ ! -f "$dir/node_modules/.package-lock.json" ] || [ "$dir/package-lock.json" -nt "$dir/node_modules/.package-lock.json" ]; then
    say "npm ci${*:+ $*} ($dir)"
    npm ci --silent --no-audit --no-fund "$@" --prefix "$dir"
  fi
}

# need_node fails unless node and npm are on PATH.
need_node() {
  if ! command -v node >/dev/null || ! command -v npm >/dev/null; then
    echo "error: node (20 or newer) and npm are required to install Workers projects' npm packages (and for the @libsql/client conformance run): apt-get install nodejs npm" >&2
    exit 1
  fi
}

# node and the npm packages of the @libsql/client conformance run and of
# the Workers projects the tests and examples run (test/jsapps,
# test/jsprojects/projects, examples/*/app).
tool_node() {
  need_node
  local lock
  for lock in test/libsqlconformance/node/package-lock.json test/jsapps/*/package-lock.json test/jsprojects/projects/*/package-lock.json; do
    [ -f "$lock" ] && npm_ci "$(dirname "$lock")"
  done
  tool_examples
}

# examples: the npm packages of the examples' Workers projects (make demo
# deploys examples/workers-app/app).
tool_examples() {
  need_node
  local lock
  for lock in examples/*/app/package-lock.json; do
    [ -f "$lock" ] && npm_ci "$(dirname "$lock")"
  done
  return 0
}

# versitygw: the S3 server of the tests and of make demo.
tool_versitygw() {
  if ! command -v versitygw >/dev/null && [ ! -x "$(gobin)/versitygw" ]; then
    say "go install versitygw@v1.8.0 into $(gobin) (the S3 server; a few minutes the first time)"
    GOFLAGS= go install github.com/versity/versitygw/cmd/versitygw@v1.8.0
  fi
}

# pebble: the ACME server of the shared-certificate test (caddy/dwkstorage, test/pebbleserver).
tool_pebble() {
  if ! command -v pebble >/dev/null && [ ! -x "$(gobin)/pebble" ]; then
    say "go install pebble@v2.10.3 into $(gobin) (the ACME test server)"
    GOFLAGS= go install github.com/letsencrypt/pebble/v2/cmd/pebble@v2.10.3
  fi
}

# terraform: the provider's acceptance tests and test/e2e drive the real CLI.
tool_terraform() {
  if ! command -v terraform >/dev/null; then
    missing terraform "install terraform 1.11 or later on PATH (https://developer.hashicorp.com/terraform/install)"
  fi
}

# sshd: the provider's dwk_fleet tests deploy over SSH to local sshd instances (test/sshd).
tool_sshd() {
  [ -x /usr/sbin/sshd ] && return 0
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install openssh-server (sshd for the provider's SSH tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq openssh-server >/dev/null
  else
    missing /usr/sbin/sshd "apt-get install -y openssh-server (as root)"
  fi
}

# nftables: the partition tests (test/partition) cut links with nft drop rules
# inside network namespaces, as root.
tool_nftables() {
  [ -x /usr/sbin/nft ] && return 0
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install nftables (nft for the partition tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq nftables >/dev/null
  else
    missing /usr/sbin/nft "apt-get install -y nftables (as root)"
  fi
}

# machines: the provider's systemd tests boot Debian machines with
# systemd-nspawn from a root file system debootstrap builds (test/machines).
tool_machines() {
  [ -x /usr/bin/systemd-nspawn ] && [ -x /usr/sbin/debootstrap ] && return 0
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install systemd-container debootstrap (systemd machines for the provider's systemd tests)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq systemd-container debootstrap >/dev/null
  else
    missing systemd-nspawn "apt-get install -y systemd-container debootstrap (as root)"
  fi
}

# promtool: test/dashboard checks examples/prometheus/prometheus.yml with
# promtool check config; Debian ships it in the prometheus package.
tool_promtool() {
  command -v promtool >/dev/null && return 0
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install prometheus (promtool for the scrape config check)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends prometheus >/dev/null
  else
    missing promtool "apt-get install -y prometheus (as root)"
  fi
}

# chromium: test/browser drives the fleet page and the chat page in
# headless Chromium over the DevTools protocol (chromedp).
tool_chromium() {
  command -v chromium >/dev/null && return 0
  if [ "$(id -u)" = 0 ]; then
    say "apt-get install chromium (headless browser for test/browser)"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends chromium >/dev/null
  else
    missing chromium "apt-get install -y chromium (as root)"
  fi
}

# tfplugindocs: make generate renders docs/ from the provider schema and examples/.
tool_tfplugindocs() {
  if ! command -v tfplugindocs >/dev/null && [ ! -x "$(gobin)/tfplugindocs" ]; then
    say "go install tfplugindocs@v0.25.0"
    GOFLAGS= go install github.com/hashicorp/terraform-plugin-docs/cmd/tfplugindocs@v0.25.0
  fi
}

# goreleaser: make release-snapshot builds the registry's release archives (and test/release checks them).
# v2.15.1: the newest that builds with this toolchain from the module proxy.
tool_goreleaser() {
  if [ ! -x "$(gobin)/goreleaser" ]; then
    say "go install goreleaser@v2.15.1 into $(gobin) (the release builder; several minutes the first time)"
    GOFLAGS= go install github.com/goreleaser/goreleaser/v2@v2.15.1
  fi
}

[ $# -gt 0 ] || set -- node versitygw pebble terraform sshd nftables machines promtool chromium tfplugindocs goreleaser
for tool in "$@"; do
  case "$tool" in
    node | examples | versitygw | pebble | terraform | sshd | nftables | machines | promtool | chromium | tfplugindocs | goreleaser) "tool_$tool" ;;
    *) echo "usage: $0 [node|examples|versitygw|pebble|terraform|sshd|nftables|machines|promtool|chromium|tfplugindocs|goreleaser]..." >&2; exit 2 ;;
  esac
done
