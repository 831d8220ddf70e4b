// Command yamlfloor is the floor of trainlint's whole-process benchmark: it reads the YAML files
// named on the command line (folders are walked for *.yaml and *.yml) and decodes every document
// of each into a go.yaml.in/yaml/v3 yaml.Node, nothing more. No real linter can read YAML faster
// with the same parser, so trainlint's wall time is reported as a ratio to this one.
//
// Files are spread over GOMAXPROCS workers, the same way trainlint check does, so the ratio
// compares the work done per file and not the use of the cores. -j 1 gives the sequential floor.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"

	"go.yaml.in/yaml/v3"
)

func main() {
	workers := flag.Int("j", runtime.GOMAXPROCS(0), "parse on `N` workers")
	flag.Parse()
	var files []string
	for _, arg := range flag.Args() {
		st, err := os.Stat(arg)
		if err != nil {
			fmt.Fprintln(os.Stderr, "yamlfloor:", err)
			os.Exit(2)
		}
		if !st.IsDir() {
			files = append(files, arg)
			continue
		}
		err = filepath.WalkDir(arg, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if !d.IsDir() && (strings.HasSuffix(p, ".yaml") || strings.HasSuffix(p, ".yml")) {
				files = append(files, p)
			}
			return nil
		})
		if err != nil {
			fmt.Fprintln(os.Stderr, "yamlfloor:", err)
			os.Exit(2)
		}
	}
	var nodes, failed atomic.Int64
	jobs := make(chan string)
	var wg sync.WaitGroup
	for range max(*workers, 1) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for p := range jobs {
				n, err := parse(p)
				nodes.Add(int64(n))
				if err != nil {
					failed.Add(1)
				}
			}
		}()
	}
	for _, p := range files {
		jobs <- p
	}
	close(jobs)
	wg.Wait()
	// The summary keeps the decoded trees observable, so the work cannot be optimised away.
	fmt.Printf("%d files, %d documents, %d unreadable\n", len(files), nodes.Load(), failed.Load())
}

// parse decodes every document of one file and returns how many it decoded.
func parse(p string) (int, error) {
	src, err := os.ReadFile(p)
	if err != nil {
		return 0, err
	}
	dec := yaml.NewDecoder(bytes.NewReader(src))
	n := 0
	for {
		var doc yaml.Node
		if err := dec.Decode(&doc); err != nil {
			if err == io.EOF {
				return n, nil
			}
			return n, err
		}
		n++
	}
}
