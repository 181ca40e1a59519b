#!/usr/bin/env bash
# Prints the provider's version: the one rule behind the version the
# provider reports (-ldflags -X buildinfo.version), the directory
# `make install-provider` installs it into, the release archives'
# names (`make release-snapshot`, goreleaser) and the e2e tests' mirror.
#
# The rule: the newest tag vMAJOR.MINOR.PATCH reachable from HEAD, without
# its "v" (tag v0.3.1 -> 0.3.1); 0.1.0 when there is no such tag. Commits
# after a tag keep its version (a local build replaces the installed one;
# `terraform init -upgrade` accepts its new checksum), so that the modules'
# `version = "~> 0.1"` constraints, which no pre-release satisfies, hold
# for every build. DWK_PROVIDER_VERSION, when set, wins (a semver without
# "v").
set -euo pipefail
cd "$(dirname "$0")/.."

semver='^[0-9]+\.[0-9]+\.[0-9]+(-[0-9A-Za-z.-]+)?$'
if [ -n "${DWK_PROVIDER_VERSION:-}" ]; then
  v=$DWK_PROVIDER_VERSION
elif tag=$(git describe --tags --abbrev=0 --match 'v[0-9]*.[0-9]*.[0-9]*' 2>/dev/null); then
  v=${tag#v}
else
  v=0.1.0
fi
if ! [[ $v =~ $semver ]]; then
  echo "error: provider version \"$v\" is not a semantic version like 0.1.0 (from DWK_PROVIDER_VERSION or the newest v* tag)" >&2
  exit 1
fi
echo "$v"
