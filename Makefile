# dwk fleet — the entry point. `make demo` runs it, `make test` proves it.
SHELL := /bin/bash
GO ?= go
BIN := $(CURDIR)/bin
VERSION ?= $(shell git describe --tags --always --dirty 2>/dev/null || echo devel)
LDFLAGS := -s -w -X github.com/dwk/fleet/appliance/process/buildinfo.version=$(VERSION)

.PHONY: all build test test-unit test-race lint demo demo-down bench generate docs-figures soak tools clean

all: build

## build: the static dwk binary into bin/
build:
	CGO_ENABLED=0 $(GO) build -trimpath -ldflags '$(LDFLAGS)' -o $(BIN)/dwk ./cmd/dwk

## tools: everything the tests need that the repository does not hold (scripts/tools.sh NAME… for some)
tools:
	@./scripts/tools.sh

## test: everything CI runs (vet, unit, conformance and multi-process tests under -race)
test: tools build lint
	$(GO) run ./test/benchdocs/docfigures -check
	$(GO) build -race -o $(BIN)/dwk-race ./cmd/dwk
	TF_ACC=1 DWK_BIN=$(BIN)/dwk-race $(GO) test -race -timeout 25m ./...
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

clean:
	rm -rf $(BIN)
