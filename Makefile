# One entry point for the whole test suite: `make test` (what .ci/run calls).
GO ?= go

.PHONY: test lint actionlint precommit unit fuzz conformance e2e golden build tidy bench release-check

test: lint actionlint precommit unit fuzz conformance

# Tools the checks run, built from the Go module proxy at pinned versions into
# .bin/ (git-ignored), one directory per version: nothing depends on what
# happens to be installed on the machine.
BIN := $(CURDIR)/.bin
ACTIONLINT_VERSION := v1.7.12
ACTIONLINT := $(BIN)/actionlint-$(ACTIONLINT_VERSION)/actionlint

GORELEASER_VERSION := v2.14.3
GORELEASER := $(BIN)/goreleaser-$(GORELEASER_VERSION)/goreleaser

$(ACTIONLINT):
	GOBIN=$(dir $@) $(GO) install github.com/rhysd/actionlint/cmd/actionlint@$(ACTIONLINT_VERSION)

# goreleaser v2.14.3 builds with Go 1.26 (tried); by their go.mod, releases up to
# v2.17 ask for Go 1.26 too, v2.18 for Go 1.27.
$(GORELEASER):
	GOBIN=$(dir $@) $(GO) install github.com/goreleaser/goreleaser/v2@$(GORELEASER_VERSION)

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd conformance && $(GO) vet ./...
	cd e2e && $(GO) vet ./...

# The README's GitHub Actions workflow (examples/ci/github-workflow.yml, kept
# identical to the README by TestCIExamples), and its inputs against action.yml
# (TestActionlint, which skips without ACTIONLINT).
actionlint: $(ACTIONLINT)
	$(ACTIONLINT) examples/ci/github-workflow.yml
	ACTIONLINT=$(ACTIONLINT) $(GO) test ./cmd/limitcheck -run '^TestActionlint$$' -count=1 -v

# pre-commit for TestPreCommit (run by unit; it skips, saying why, without
# pre-commit): Debian's package, installed only when pre-commit is missing and
# apt-get can run as root.
precommit:
	@if command -v pre-commit >/dev/null; then pre-commit --version; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
	  echo "installing pre-commit from Debian's packages"; \
	  { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pre-commit >/dev/null && pre-commit --version; } \
	  || echo "could not install pre-commit from Debian's packages: TestPreCommit will skip"; \
	else echo "pre-commit is not installed and apt-get cannot run as root: TestPreCommit will skip"; fi

unit:
	$(GO) test ./...

# A short run of the fuzz targets on every change, counted in executions: with
# a duration, Go 1.26's fuzz coordinator can fail a run with "context deadline
# exceeded" and no failing input when the machine is loaded (golang/go#75804,
# fixed in Go 1.27). A long run: make fuzz FUZZTIME=10m (applies to each target).
FUZZTIME ?=
FUZZTIMEOUT ?= $(if $(FUZZTIME),0,10m)
fuzztime = -fuzztime $(if $(FUZZTIME),$(FUZZTIME),$(1)) -timeout $(FUZZTIMEOUT)
fuzz:
	$(GO) test ./internal/check -run '^$$' -fuzz '^FuzzPipeline$$' $(call fuzztime,2000x)
	$(GO) test ./internal/load -run '^$$' -fuzz '^FuzzReadStream$$' $(call fuzztime,10000x)
	$(GO) test ./internal/load -run '^$$' -fuzz '^FuzzYAMLToJSON$$' $(call fuzztime,30000x)
	$(GO) test ./internal/render -run '^$$' -fuzz '^FuzzResultEncoding$$' $(call fuzztime,20000x)
	$(GO) test ./internal/render -run '^$$' -fuzz '^FuzzJUnitText$$' $(call fuzztime,5000x)
	$(GO) test ./internal/eval -run '^$$' -fuzz '^FuzzWireForm$$' $(call fuzztime,20000x)
	$(GO) test ./internal/jsonstr -run '^$$' -fuzz '^FuzzAppend$$' $(call fuzztime,20000x)
	$(GO) test ./internal/jsondec -run '^$$' -fuzz '^FuzzDecode$$' $(call fuzztime,30000x)
	$(GO) test ./internal/namecheck -run '^$$' -fuzz '^FuzzMatchers$$' $(call fuzztime,20000x)

# Differential tests against k8s.io/kubernetes v1.36.3 (separate module).
# More cases or another seed: make conformance CASES=20000 SEED=42
CASES ?= 2000
SEED ?= 1
conformance:
	cd conformance && $(GO) test ./... -cases $(CASES) -seed $(SEED)

# End-to-end against a real control plane (separate module, not part of
# `make test`): etcd, kube-apiserver, kube-controller-manager and kubectl are
# built once at the pinned versions into $(LIMITCHECK_E2E_CACHE) (default
# ~/.cache/limitcheck-e2e/kube-VERSION_etcd-VERSION/, minutes on a small
# machine), then the README's examples, the testscripts' inputs and
# E2E_CASES random cases are replayed and compared with limitcheck -o json,
# and the tables of their describe commands with kubectl describe.
# A case that differs is saved; replay it with
#   cd e2e && go test -run TestReplay -replay DIR
E2E_CASES ?= 500
E2E_SEED ?= 1
E2E_WORKERS ?= 4
e2e:
	cd e2e && $(GO) test -c -o $(BIN)/e2e.test . && \
	  $(BIN)/e2e.test -test.timeout 60m -cases $(E2E_CASES) -seed $(E2E_SEED) -workers $(E2E_WORKERS)

# Rewrite golden files after an intended output change; read the diff before committing.
golden:
	$(GO) test ./internal/render/ ./cmd/limitcheck/ -update

build:
	CGO_ENABLED=0 $(GO) build -trimpath -o limitcheck ./cmd/limitcheck

# Both modules: conformance/ requires the main module through a replace, so its
# go.mod must be tidied whenever the main module's requirements change.
tidy:
	$(GO) mod tidy
	cd conformance && $(GO) mod tidy
	cd e2e && $(GO) mod tidy

# limitcheck against the decode floor on the benchmark corpus at 1x, 4x and
# 10x, side by side: ratios and peak RSS (a benchmark; nothing fails on timings).
# BENCH_DIR names the shared bench directory; BENCH_RUNS, BENCH_SCALES tune it.
bench:
	python3 scripts/bench.py
	$(GO) test ./internal/eval -run '^$$' -bench AdmitPod -benchmem
	$(GO) test ./internal/load -run '^$$' -bench ReadStreamTyped -benchmem
	$(GO) test ./internal/jsondec -run '^$$' -bench Decode -benchmem

# Release dry run, not part of `make test` (minutes: every target is built):
# goreleaser check, then a snapshot of every archive, checksums, the krew
# manifest and, where a Docker engine with buildx runs, the image (skipped
# otherwise, saying so). Everything lands in dist/ (git-ignored).
release-check: $(GORELEASER)
	$(GORELEASER) check
	@skip=publish; \
	if docker info >/dev/null 2>&1 && docker buildx version >/dev/null 2>&1; then :; \
	else echo "no Docker engine with buildx: the image is not built (--skip=docker)"; skip=$$skip,docker; fi; \
	echo "$(GORELEASER) release --snapshot --clean --skip=$$skip"; \
	$(GORELEASER) release --snapshot --clean --skip=$$skip
	@test -s dist/krew/limitcheck.yaml || { echo "dist/krew/limitcheck.yaml was not generated"; exit 1; }
	@test -s dist/checksums.txt || { echo "dist/checksums.txt was not generated"; exit 1; }
