# dwk fleet — the entry point. `make demo` runs it, `make test` proves it.
SHELL := /bin/bash
GO ?= go
BIN := $(CURDIR)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/dwk/fleet/appliance/process/buildinfo.version=$(VERSION)
# The provider's version, a semver (scripts/provider-version.sh holds the rule):
# what it reports, where install-provider puts it, what the archives are named.
PROVIDER_VERSION ?= $(shell ./scripts/provider-version.sh)
PROVIDER_LDFLAGS := -s -w -X github.com/dwk/fleet/appliance/process/buildinfo.version=$(PROVIDER_VERSION)
# Where `go install` puts tools (scripts/tools.sh installs goreleaser there).
GOBIN_DIR := $(shell d=$$($(GO) env GOBIN); [ -n "$$d" ] || d=$$($(GO) env GOPATH | cut -d: -f1)/bin; echo $$d)

.PHONY: all build install-provider release-snapshot test test-unit test-race lint demo demo-down bench generate docs-figures soak scale tools clean

all: build

## build: the static dwk binary into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/dwk ./cmd/dwk

## install-provider: the provider (version from scripts/provider-version.sh) into Terraform's and OpenTofu's implied local mirrors, so plain `terraform init` finds source "dwk/dwk"
install-provider:
	@test -n "$(PROVIDER_VERSION)" || { echo "error: no provider version; see scripts/provider-version.sh" >&2; exit 1; }
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(PROVIDER_LDFLAGS)' -o $(BIN)/terraform-provider-dwk ./cmd/terraform-provider-dwk
	@./scripts/install-provider.sh $(BIN)/terraform-provider-dwk $(PROVIDER_VERSION)

## release-snapshot: the registry's release files (zips, SHA256SUMS, manifest) for every platform into dist/, unsigned, by goreleaser from .goreleaser.yml
GORELEASER_CONFIG ?= .goreleaser.yml
release-snapshot:
	@./scripts/tools.sh goreleaser
	DWK_PROVIDER_VERSION=$(PROVIDER_VERSION) $(GOBIN_DIR)/goreleaser release --snapshot --clean --skip=sign --config $(GORELEASER_CONFIG)
	@# A release uploads the manifest beside the zips (release.extra_files); a snapshot publishes nothing, so it goes into dist/ here.
	@dist=$$(sed -n 's/^dist: *//p' $(GORELEASER_CONFIG)); \
	  cp terraform-registry-manifest.json "$${dist:-dist}/terraform-provider-dwk_$(PROVIDER_VERSION)_manifest.json"

## tools: everything the tests need that the repository does not hold (scripts/tools.sh NAME… for some)
tools:
	@./scripts/tools.sh

## test: everything CI runs (vet, unit, conformance and multi-process tests under -race)
test: tools build lint
	$(GO) run ./test/benchdocs/docfigures -check
	$(GO) build -race -o $(BIN)/dwk-race ./cmd/dwk
	TF_ACC=1 DWK_BIN=$(BIN)/dwk-race DWK_DEPLOY_BIN=$(BIN)/dwk $(GO) test -race -timeout 25m ./...
	@./scripts/check-generated.sh

## lint: go vet and gofmt
lint:
	$(GO) vet ./...
	@test -z "$$(gofmt -l $$(git ls-files '*.go'))" || { gofmt -l $$(git ls-files '*.go'); exit 1; }

## demo: a 3-replica fleet from examples/local; installs what it needs (scripts/tools.sh versitygw) and undoes itself when a step fails
demo: build
	@./scripts/demo.sh

## demo-down: stop what `make demo` started
demo-down:
	@./scripts/demo.sh down

## bench: benchmarks, side by side in one run, into bench/report.md and bench/report.json, then the docs' figures
bench: tools build
	@./scripts/bench.sh

## generate: regenerate the provider docs in docs/ from the schema and examples/, and the docs' figures
generate: tools docs-figures
	@./scripts/generate.sh

## docs-figures: fill the figures docs quote (docs/limits.md, …) from bench/report.json and bench/soak-*.json
docs-figures:
	$(GO) run ./test/benchdocs/docfigures

## soak: the long chaos run: a fleet under mixed load and random faults (DURATION=10m SEED=… REPLICAS=4), result in bench/soak-DURATION-SEED.json
DURATION ?= 10m
soak: tools build
	@./scripts/soak.sh "$(DURATION)" "$(SEED)" "$(REPLICAS)"

## scale: the scale harness (test/scale) into bench/report.json's scale section and bench/scale.png
scale: tools build
	@./scripts/bench.sh -only scale

clean:
	rm -rf $(BIN)
