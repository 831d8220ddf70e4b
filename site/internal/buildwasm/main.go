// Command buildwasm builds the checker's WebAssembly modules exactly as the site build does
// (site.BuildWASM: the light module at the path given, trainlint-full.wasm beside it, their data
// sections packed): `make wasm` runs it.
//
//	go run ./site/internal/buildwasm site/dist/trainlint.wasm
package main

import (
	"fmt"
	"os"

	"github.com/trainlint/trainlint/site"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: buildwasm OUT.wasm (from the module root)")
		os.Exit(2)
	}
	if err := site.BuildWASM(".", os.Args[1]); err != nil {
		fmt.Fprintln(os.Stderr, "buildwasm:", err)
		os.Exit(1)
	}
}
