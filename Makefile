# One entry point for the whole test suite: `make test` (what .ci/run calls).
GO ?= go

.PHONY: test lint unit fuzz conformance golden build tidy bench

test: lint unit fuzz conformance

lint:
	@out=$$(gofmt -l $$(git ls-files '*.go' 2>/dev/null || find . -name '*.go')); \
	  if [ -n "$$out" ]; then echo "gofmt needed:"; echo "$$out"; exit 1; fi
	$(GO) vet ./...
	cd conformance && $(GO) vet ./...

unit:
	$(GO) test ./...

# A short run of the fuzz targets on every change (longer: FUZZTIME=10m).
FUZZTIME ?= 15s
fuzz:
	$(GO) test ./internal/check -run '^$$' -fuzz FuzzPipeline -fuzztime $(FUZZTIME)
	$(GO) test ./internal/load -run '^$$' -fuzz FuzzReadStream -fuzztime $(FUZZTIME)

# Differential tests against k8s.io/kubernetes v1.36.3 (separate module).
# More cases or another seed: make conformance CASES=20000 SEED=42
CASES ?= 2000
SEED ?= 1
conformance:
	cd conformance && $(GO) test ./... -cases $(CASES) -seed $(SEED)

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

# limitcheck against the decode floor on the benchmark corpus at 1x, 4x and
# 10x, side by side: ratios and peak RSS (a benchmark; nothing fails on timings).
# BENCH_DIR names the shared bench directory; BENCH_RUNS, BENCH_SCALES tune it.
bench:
	python3 scripts/bench.py
	$(GO) test ./internal/eval -run '^$$' -bench AdmitPod -benchmem
	$(GO) test ./internal/load -run '^$$' -bench ReadStreamTyped -benchmem
