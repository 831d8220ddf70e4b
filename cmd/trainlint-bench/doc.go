// Command trainlint-bench is the whole-process comparison behind `make bench`: it runs the built
// trainlint binary, a bare YAML parse (yamlfloor, the floor) and yamllint on the same YAML files
// of the shared corpus, repeats each run, and prints medians, ratios and whether each
// performance target is met. It also times a single-file run (the pre-commit case) and a scaling
// series of 1k, 5k and 10k files copied into a temporary folder, with each run's peak memory
// (max RSS from getrusage) and CPU time over wall time (how much of the machine it used).
//
// It measures whole processes on purpose: start-up, reading, walking and rendering are part of
// what a user waits for. The Go benchmarks (go test -bench) cover the engine's stages.
//
// # Results
//
// Measured on the project's machine (2 CPUs, Intel Xeon, linux/amd64, go1.26.8) on 2026-11-30
// 06:48 UTC, load average 1.3, medians of 21 runs (yamllint and scaling: 5), on the 312 YAML
// files of the shared corpus:
//
//	run                                              wall         CPU            max RSS
//	trainlint check --format json                    33.9 ms      52.1 ms        21.6 MiB
//	bare yaml.v3 parse of the same files (2 workers) 28.8 ms      46.0 ms        8.9 MiB
//	yamllint -f parsable                             1,984.1 ms   1,983.3 ms     18.7 MiB
//	one file (the pre-commit case)                   4.6 ms       5.0 ms         12.6 MiB
//	1,000 / 5,000 / 10,000 files                     83/387/715   133/638/1,176  25/54/94 MiB
//
// Targets, all met:
//   - at most 1.3× the bare parse: 1.18× wall, 1.13× CPU (0.86× the sequential floor); 1.19× in
//     a run an hour earlier;
//   - at least 40× faster than yamllint: 58.5× wall (38.0× in CPU time: yamllint is one process
//     on one core);
//   - a single-file run under 10 ms: 4.6 ms;
//   - linear cost up to 10,000 files: 82 → 72 µs per file;
//   - peak memory at 10,000 files under 150 MiB: 94 MiB;
//   - work spread over the cores: 1.64 of 2 cores busy (the floor: 1.65).
//
// In-process (Go benchmarks, 370 corpus files): parse 15.4 ms, normalise 7.6 ms, rules 3.3 ms,
// whole-file lint 32.9 ms. The session before the direct YAML reader (see package lint/doc)
// measured parse 36.8 ms, whole-file lint 54.2 ms and 1.69× the floor; the ratio is now under
// 1.3× because the reader parses the common YAML in less than half yaml.v3's time. Process
// start-up and the engine take the rest.
package main
