#!/usr/bin/env bash
# Installs a built terraform-provider-dwk where `terraform init` and
# `tofu init` find it with no CLI configuration: their implied local
# mirror directories, in the unpacked layout
# HOST/dwk/dwk/VERSION/OS_ARCH/terraform-provider-dwk_vVERSION.
#
#   scripts/install-provider.sh BINARY VERSION          # the user's mirrors
#   scripts/install-provider.sh BINARY VERSION DIR      # both hosts under DIR (make demo's .demo/plugins)
#
# The user's mirrors:
#   Terraform: ~/.terraform.d/plugins/registry.terraform.io/...
#   OpenTofu:  ${XDG_DATA_HOME:-~/.local/share}/opentofu/plugins/registry.opentofu.org/...
# (OpenTofu resolves source "dwk/dwk" to registry.opentofu.org, and looks in
# ~/.terraform.d/plugins as well as its XDG data directory.)
# VERSION comes from scripts/provider-version.sh (make install-provider).
set -euo pipefail

[ $# -ge 2 ] || { echo "usage: $0 BINARY VERSION [DIR]" >&2; exit 2; }
bin=$1 version=$2 into=${3:-}
[ -x "$bin" ] || { echo "error: $bin is not an executable provider; build it first (make install-provider)" >&2; exit 1; }
platform=$(go env GOOS)_$(go env GOARCH)

# put ROOT HOST copies the binary into ROOT's unpacked layout for HOST.
put() {
  local dir=$1/$2/dwk/dwk/$version/$platform
  mkdir -p "$dir"
  # A fresh name then a rename: a terraform running from the old file keeps it.
  cp "$bin" "$dir/.terraform-provider-dwk_v$version.tmp"
  mv -f "$dir/.terraform-provider-dwk_v$version.tmp" "$dir/terraform-provider-dwk_v$version"
  echo "installed $dir/terraform-provider-dwk_v$version"
}

if [ -n "$into" ]; then
  put "$into" registry.terraform.io
  put "$into" registry.opentofu.org
  exit 0
fi
: "${HOME:?HOME must be set: the mirrors live under it}"
put "$HOME/.terraform.d/plugins" registry.terraform.io
put "${XDG_DATA_HOME:-$HOME/.local/share}/opentofu/plugins" registry.opentofu.org
