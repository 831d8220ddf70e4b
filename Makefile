# trainlint: the verbs people expect. `make demo` lints the bundled examples; `make test` runs
# every test (unit, rule archives, corpus golden, native/WASM parity, browser).
GO      ?= go
BIN     ?= bin/trainlint
EXAMPLES = cmd/trainlint/examples

.PHONY: all build test demo vet fmt bench fuzz clean wasm site serve

all: build

build:
	$(GO) build -o $(BIN) ./cmd/trainlint

# The examples are meant to fail the lint (each shows a pitfall), so demo ignores exit code 1
# but not 2 (a usage or internal error).
demo: build
	@$(BIN) check $(EXAMPLES); rc=$$?; if [ $$rc -ge 2 ]; then exit $$rc; fi

vet:
	$(GO) vet ./...
	@out=$$(gofmt -l cmd lint rules wasm site 2>/dev/null); if [ -n "$$out" ]; then echo "not gofmt-ed:"; echo "$$out"; exit 1; fi

test: vet
	$(GO) test -count=1 ./...

# The guidance site and its in-browser checker. `site` writes site/dist: the pages, the engine
# compiled to WebAssembly, Go's wasm_exec.js and the CodeMirror bundle (npm ci + esbuild); it
# prints the size budgets. `serve` builds it and serves it on 127.0.0.1 only.
SERVE ?= 127.0.0.1:8080
# wasm: the module alone, built as the site builds it (site.WASMBuildFlags: stripped, no
# inlining; then its data section packed into one segment, see site/wasmpack.go).
wasm:
	@mkdir -p site/dist
	$(GO) run ./site/internal/buildwasm site/dist/trainlint.wasm

site:
	$(GO) run ./cmd/trainlint site -o site/dist

serve:
	$(GO) run ./cmd/trainlint site -o site/dist --serve $(SERVE)

# bench: the engine's stages per framework (Go benchmarks on ../shared/corpus), then the
# whole-process comparison on the corpus YAML files: trainlint against a bare yaml.v3 parse (the
# floor) and yamllint, a single-file run, 1k/5k/10k files for scaling and memory; medians and
# ratios, each target marked met or MISSED (cmd/trainlint-bench). yamllint comes from Debian.
BENCHTIME ?= 1s
bench: build
	$(GO) test -run '^$$' -bench . -benchmem -benchtime $(BENCHTIME) ./lint/ ./lint/doc/ ./cmd/trainlint/
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
