// Command thinprobe exercises, inside a js/wasm module whose function table was thinned
// (site.ThinWASMSymtab), what the Go runtime does with that table: recovering panics (a rule
// that panics must still become an internal-error finding), growing and copying stacks,
// collecting garbage with pointers live in deep frames, goroutines and channels, reflect's
// call stubs, and reporting names and positions. TestThinSymtabRuntime builds and runs it under
// Node and checks each line it prints; with "crash" it dies of an unrecovered panic.
package main

import (
	"fmt"
	"os"
	"reflect"
	"runtime"
	"runtime/debug"
	"strings"
	"sync"
	"time"

	"github.com/trainlint/trainlint/lint"
)

type node struct {
	next *node
	val  int
}

// deep recurses n frames with a heap pointer live in each, collecting garbage at the bottom
// (the collector scans every frame through its stack map; the stack has grown and been copied
// many times on the way down) and summing the list the frames built, then checks each frame on
// the way up: it returns n*(n+1)/2.
func deep(n int, prev *node) int {
	cur := &node{next: prev, val: n}
	var pad [64]byte // bigger frames, more stack growth
	pad[n%64] = byte(n)
	if n == 0 {
		runtime.GC()
		sum := 0
		for p := cur; p != nil; p = p.next {
			sum += p.val
		}
		return sum
	}
	sum := deep(n-1, cur)
	if cur.val != n || cur.next != prev || pad[n%64] != byte(n) {
		panic("frame corrupted")
	}
	return sum
}

// recovered panics three frames down and recovers in a deferred call.
func recovered() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var m map[string]int
	level1(m)
	return "no panic"
}

// nilWrapper calls a value method of the standard library's through a nil pointer: its
// generated wrapper, whose name thinSymtab keeps (panicwrap would parse it), panics, and the
// panic is recovered as before thinning.
func nilWrapper() (msg string) {
	defer func() { msg = fmt.Sprint(recover()) }()
	var d *time.Duration
	var s fmt.Stringer = d
	return s.String()
}

func level1(m map[string]int) { level2(m) }
func level2(m map[string]int) { m["x"] = 1 }

type adder struct{ base int }

func (a adder) Add(x int) int { return a.base + x }

func main() {
	if len(os.Args) > 1 && os.Args[1] == "crash" {
		level1(nil)
	}

	// A rule that panics: the engine recovers it into an internal-error finding.
	boom := &lint.Rule{Code: "TL999", Name: "probe-panics", Category: "structure", Severity: lint.Error,
		Frameworks: []string{"*"}, Check: func(*lint.Pass) { var s []int; _ = s[3] }}
	_, diags := lint.LintFile(lint.File{Path: "probe.yaml", Text: []byte("a: 1\n")}, []*lint.Rule{boom}, lint.Options{})
	for _, d := range diags {
		fmt.Printf("finding %s %s: %s\n", d.Code, d.Rule, d.Message)
	}

	fmt.Println("recovered:", recovered())
	fmt.Println("wrapper:", nilWrapper())
	fmt.Println("deep:", deep(20000, nil))

	var wg sync.WaitGroup
	ch := make(chan int)
	for i := range 8 {
		wg.Add(1)
		go func() { defer wg.Done(); ch <- deep(500+i, nil) }()
	}
	go func() { wg.Wait(); close(ch) }()
	total := 0
	for v := range ch {
		total += v
	}
	fmt.Println("goroutines:", total)

	swap := reflect.MakeFunc(reflect.TypeFor[func(int, string) (string, int)](), func(in []reflect.Value) []reflect.Value {
		runtime.GC()
		return []reflect.Value{in[1], in[0]}
	}).Interface().(func(int, string) (string, int))
	s, n := swap(7, "seven")
	add := reflect.ValueOf(adder{40}).MethodByName("Add").Interface().(func(int) int)
	fmt.Println("reflect:", s, n, add(2))

	pc, file, line, ok := runtime.Caller(0)
	fmt.Println("caller:", runtime.FuncForPC(pc).Name(), file, line, ok)
	fmt.Println("func:", runtime.FuncForPC(reflect.ValueOf(lint.LintFile).Pointer()).Name())
	stack := string(debug.Stack())
	fmt.Println("stack names main.main:", strings.Contains(stack, "main.main("))
	fmt.Println("stack has paths:", strings.Contains(stack, "github.com/"), strings.Contains(stack, ".go:"))
	var inMap string
	strings.Map(func(r rune) rune { inMap = string(debug.Stack()); return r }, "x")
	fmt.Println("stack names strings.Map:", strings.Contains(inMap, "strings.Map("), strings.Contains(inMap, "main.main("))
}
