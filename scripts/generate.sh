#!/usr/bin/env bash
# make generate: provider docs (docs/index.md, docs/resources, docs/data-sources,
# docs/functions) from the provider schema and examples/, with tfplugindocs
# using the local terraform (nothing is downloaded).
set -euo pipefail
cd "$(dirname "$0")/.."
command -v terraform >/dev/null || { echo "generate: terraform is not on PATH (needed by tfplugindocs)" >&2; exit 1; }
TFPLUGINDOCS=$(command -v tfplugindocs || echo "$(go env GOPATH)/bin/tfplugindocs")
"$TFPLUGINDOCS" generate --provider-name dwk --provider-dir cmd/terraform-provider-dwk \
  --examples-dir ../../examples --rendered-website-dir ../../docs
# modules/*/variables.tf defaults and modules/staging/fleet_variables.tf
# (provider/internal/modulevars), from the provider's and dwk's defaults.
go generate ./provider/...
