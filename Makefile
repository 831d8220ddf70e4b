# trainlint: the verbs people expect. `make demo` lints the bundled examples; `make test` runs
# every test (unit, rule archives, corpus golden, native/WASM parity, browser).
GO      ?= go
BIN     ?= bin/trainlint
EXAMPLES = cmd/trainlint/examples

.PHONY: all build test demo vet fmt bench fuzz clean wasm site serve dist vsix

all: build

# `trainlint version` prints the commit and build date linked in here: Go's own VCS stamp is
# missing under GOFLAGS=-buildvcs=false (CI) and in git worktrees.
COMMIT   := $(shell git rev-parse HEAD 2>/dev/null)
MODIFIED := $(shell git status --porcelain --untracked-files=no 2>/dev/null | grep -q . && echo true)
LDFLAGS  := -X main.commit=$(COMMIT) -X main.modified=$(MODIFIED) -X main.date=$(shell date -u +%Y-%m-%dT%H:%M:%SZ)

build:
	$(GO) build -ldflags "$(LDFLAGS)" -o $(BIN) ./cmd/trainlint

# dist: the release artefacts in bin/dist: trainlint cross-built (CGO_ENABLED=0) for Linux
# x86_64/aarch64, macOS x86_64/arm64 and Windows x86_64, a Python wheel per platform tag
# (manylinux and musllinux for Linux), SHA256SUMS, and the pre-commit mirror repository
# (cmd/trainlint-wheel). SOURCE_DATE_EPOCH, when set, fixes the build date.
dist:
	rm -rf bin/dist
	$(GO) run ./cmd/trainlint-wheel -o bin/dist

# The examples are meant to fail the lint (each shows a pitfall), so demo ignores exit code 1
# but not 2 (a usage or internal error). DEMO_FLAGS is the launch context the examples are meant
# for and that some of them (DeepSpeed JSON, torchtune) cannot state: 2 hosts of 8 GPUs. The
# README shows this command and its output (TestDemoOutputInReadme reads DEMO_FLAGS from here).
DEMO_FLAGS = --hosts 2 --devices-per-host 8
demo: build
	@echo "trainlint check $(DEMO_FLAGS) $(EXAMPLES)"
	@$(BIN) check $(DEMO_FLAGS) $(EXAMPLES); rc=$$?; if [ $$rc -ge 2 ]; then exit $$rc; fi

vet:
	@echo "== go vet ./..., the packages with light-build files (lint/doc's tests need the full reader), and gofmt"
	$(GO) vet ./...
	GOOS=js GOARCH=wasm $(GO) vet -tags trainlint_lite ./lint/compose ./lint/dialect ./rules ./wasm/...
	@out=$$(gofmt -l cmd lint rules wasm site 2>/dev/null); if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

# test: vet, then the tools the tests need (.ci/test-tools names a missing one with the apt-get
# line that installs it, installs it when run as root, and announces each npm download), then
# every package: go test prints one line per package as it finishes (the slowest, site and
# wasm/api, run the browser and the WASM parity tests). TESTFLAGS adds flags (-v, -run X).
# The wheel package cross-builds five binaries and installs one into a venv: 5-6 minutes on an
# idle 2-core machine, more under load, past go test's default 10-minute package timeout.
TESTFLAGS ?=
test: vet
	@.ci/test-tools
	@echo "== go test ./... (one line per package as it finishes; the browser and WASM parity tests take a few minutes)"
	$(strip $(GO) test -count=1 -timeout 40m $(TESTFLAGS) ./...)

# The guidance site and its in-browser checker. `site` writes site/dist: the pages, the engine
# compiled to WebAssembly, Go's wasm_exec.js and the CodeMirror bundle (npm ci + esbuild); it
# prints the size budgets. `serve` builds it and serves it on 127.0.0.1 only.
SERVE ?= 127.0.0.1:8080
# wasm: the modules alone, built as the site builds them: trainlint.wasm light (site.WASMLiteFlags)
# and trainlint-full.wasm beside it (site.WASMBuildFlags: stripped, no inlining; then their data
# sections packed into one segment, see site/wasmpack.go).
wasm:
	@mkdir -p site/dist
	$(GO) run ./site/internal/buildwasm site/dist/trainlint.wasm

site:
	$(GO) run ./cmd/trainlint site -o site/dist

serve:
	$(GO) run ./cmd/trainlint site -o site/dist --serve $(SERVE)

# vsix: the VS Code extension (cmd/vscode-trainlint: vscode-languageclient bundled by esbuild,
# packaged offline by @vscode/vsce) with a stripped trainlint binary for this machine inside, so
# it works without trainlint on PATH: bin/trainlint.vsix. `code --install-extension` installs it.
VSIX ?= bin/trainlint.vsix
vsix:
	$(GO) build -trimpath -ldflags="-s -w" -o bin/vsix/trainlint ./cmd/trainlint
	cd cmd/vscode-trainlint && npm ci --no-audit --no-fund && node build.mjs --binary $(abspath bin/vsix/trainlint) --out $(abspath $(VSIX))

# bench: the engine's stages per framework (Go benchmarks on ../shared/corpus), then the
# whole-process comparison on the corpus YAML files: trainlint against a bare yaml.v3 parse (the
# floor) and yamllint, a single-file run, 1k/5k/10k files for scaling and memory; medians and
# ratios, each target marked met or MISSED (cmd/trainlint-bench). yamllint comes from Debian.
BENCHTIME ?= 1s
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./lint/ ./lint/doc/ ./cmd/trainlint/ ./cmd/trainlint/internal/lsp/
	$(GO) build -o bin/yamlfloor ./cmd/trainlint-bench/yamlfloor
	@command -v yamllint >/dev/null || apt-get install -y -q yamllint >/dev/null || echo "yamllint not installed: its comparison is skipped"
	$(GO) run ./cmd/trainlint-bench -trainlint $(BIN) -floor bin/yamlfloor

# fuzz: every fuzz target of the module for FUZZTIME each (plain `go test` replays the seeds in
# testdata/fuzz, so `make test` covers them). A failing target does not stop the others; the
# failures are listed at the end. New crashers land in testdata/fuzz: commit them with the fix.
FUZZTIME ?= 60s
fuzz:
	@failed=""; for pkg in $$($(GO) list ./...); do \
	  for t in $$($(GO) test -list '^Fuzz' $$pkg | grep '^Fuzz'); do \
	    echo "== $$pkg $$t"; $(GO) test -run '^$$' -fuzz "^$$t\$$" -fuzztime $(FUZZTIME) $$pkg || failed="$$failed $$pkg.$$t"; \
	  done; \
	done; \
	if [ -n "$$failed" ]; then echo "fuzz failures:$$failed"; exit 1; fi

fmt:
	gofmt -w cmd lint rules wasm site

clean:
	rm -rf bin site/dist .cache
