package site

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// Go's function table in the module's data (the pclntab) names every function with its full
// import path and maps every instruction to a file and line. Only tracebacks and
// runtime.FuncForPC/runtime.Caller read those two; the scheduler, the garbage collector and
// stack growth read the function's entry, frame size table (pcsp), pcdata tables (stack maps,
// unsafe points) and funcdata, which are left alone. thinSymtab keeps all of that and empties,
// in place, what only a traceback would print:
//
//   - file and line: every function's pcfile and pcln offsets become 0, which the runtime's
//     pcvalue reads as "no table" (funcline1 then gives "?" and line 0), its startLine and
//     cuOffset 0, and the line and file tables, the file names and the compilation-unit table
//     are zeroed (tables shared with a pcsp or pcdata table are kept);
//   - names: a function outside the runtime is named without its import path ("dialect.Detect"
//     rather than "github.com/trainlint/trainlint/lint/dialect.Detect"), and a generic one's
//     type arguments are "[...]" as tracebacks print them anyway: the shorter name is written
//     over the old one and the rest zeroed. The names the runtime tests keep their import path:
//     "runtime." (isSystemGoroutine, showframe), "internal/runtime/" and "reflect." (preemption
//     and reflect's stubs, reflect's method names in its panics), and no shortened name may
//     begin with one of these, so every function is classified as before. The standard
//     library's plain functions and value methods outside the runtime and reflect lose their
//     names altogether (unnamedStd): a traceback skips their frames.
//
// Nothing moves: the memory keeps its size and every offset, and the zeros compress to almost
// nothing. Panics still unwind and are still recovered the same way (recovery walks pcsp and
// funcdata, not names); a traceback prints "dialect.Detect(...)" and "?:0". Only the layout of
// Go 1.20's pclntab (magic 0xfffffff1, still Go 1.26's) is accepted, with no inlined calls
// (the modules are built with -l); anything else is an error, never a silent change.
//
// ThinWASMSymtab applies thinSymtab to a module whose data section is one segment (as
// PackWASMData writes it), returning the changed copy.
func ThinWASMSymtab(mod []byte) ([]byte, symtabStats, error) {
	out := bytes.Clone(mod)
	seg, base, err := dataSegment(out)
	if err != nil {
		return nil, symtabStats{}, err
	}
	st, err := thinSymtab(seg, base)
	if err != nil {
		return nil, st, err
	}
	return out, st, nil
}

// dataSegment finds the initial memory of a module packed by PackWASMData (one active segment)
// and its address; the slice aliases mod.
func dataSegment(mod []byte) (mem []byte, base int, err error) {
	if len(mod) < 8 || !bytes.Equal(mod[:8], []byte("\x00asm\x01\x00\x00\x00")) {
		return nil, 0, errors.New("not a WebAssembly module (version 1)")
	}
	for p := 8; p < len(mod); {
		id := mod[p]
		size, n := binary.Uvarint(mod[p+1:])
		if n <= 0 || uint64(len(mod)-p-1-n) < size {
			return nil, 0, fmt.Errorf("section %d at %d: bad size", id, p)
		}
		body := mod[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		if id != 11 {
			continue
		}
		// count 1, flags 0 (active, memory 0), i32.const offset, end, size, bytes.
		if len(body) < 3 || body[0] != 1 || body[1] != 0 || body[2] != 0x41 {
			return nil, 0, errors.New("data section: not one active segment (pack it first)")
		}
		q := 3
		off, n := sleb32(body[q:])
		if n <= 0 || q+n >= len(body) || body[q+n] != 0x0b || off < 0 {
			return nil, 0, errors.New("data section: bad offset")
		}
		q += n + 1
		l, n := binary.Uvarint(body[q:])
		if n <= 0 || uint64(len(body)-q-n) != l {
			return nil, 0, errors.New("data section: bad segment size")
		}
		return body[q+n:], int(off), nil
	}
	return nil, 0, errors.New("the module has no data section")
}

// thinSymtab does the work of ThinWASMSymtab on mem, the module's initial memory from address
// base on.
func thinSymtab(mem []byte, base int) (symtabStats, error) {
	var st symtabStats
	le := binary.LittleEndian
	magic := []byte{0xf1, 0xff, 0xff, 0xff, 0, 0, 1, 8} // magic, pad, pad, minLC 1, ptrSize 8
	hdr := bytes.Index(mem, magic)
	if hdr < 0 || bytes.Contains(mem[hdr+1:], magic) {
		return st, errors.New("pclntab: no single Go 1.20+ wasm header (magic 0xfffffff1, minLC 1, ptrSize 8)")
	}
	word := func(at int) int {
		if at < 0 || at+8 > len(mem) {
			return -1
		}
		v := le.Uint64(mem[at:])
		if v > uint64(len(mem))+uint64(base) {
			return -1
		}
		return int(v)
	}
	// moduledata starts with pcHeader, then the slices funcnametab, cutab, filetab, pctab,
	// pclntable and ftab (pointer, length, capacity each).
	var ptr [8]byte
	le.PutUint64(ptr[:], uint64(base+hdr))
	md := -1
	for at := 0; ; {
		i := bytes.Index(mem[at:], ptr[:])
		if i < 0 {
			break
		}
		if c := at + i; (base+c)%8 == 0 && word(c+8) == base+hdr+int(le.Uint64(mem[hdr+32:])) {
			if md >= 0 {
				return st, errors.New("pclntab: two moduledata candidates")
			}
			md = c
		}
		at += i + 1
	}
	if md < 0 {
		return st, errors.New("pclntab: no moduledata points at the header")
	}
	type span struct{ lo, hi int }   // indices into mem
	elem := [6]int{1, 4, 1, 1, 1, 8} // cutab is []uint32, ftab []functab
	slice := func(k int) (span, error) {
		p, n := word(md+8+24*k), word(md+16+24*k)
		if p < base || n < 0 || p-base+n*elem[k] > len(mem) {
			return span{}, fmt.Errorf("pclntab: moduledata slice %d out of range", k)
		}
		return span{p - base, p - base + n*elem[k]}, nil
	}
	var tabs [6]span // funcnametab, cutab, filetab, pctab, pclntable, ftab
	for k := range tabs {
		s, err := slice(k)
		if err != nil {
			return st, err
		}
		tabs[k] = s
	}
	names, cutab, filetab, pctab, pcln := tabs[0], tabs[1], tabs[2], tabs[3], tabs[4]
	nfunc := int(le.Uint64(mem[hdr+8:]))
	if n := tabs[5].hi - tabs[5].lo; n != (nfunc+1)*8 || tabs[5].lo != pcln.lo {
		return st, fmt.Errorf("pclntab: ftab of %d bytes for %d functions", n, nfunc)
	}
	// The header's own offsets must agree with moduledata's slices.
	for k, s := range []span{names, cutab, filetab, pctab, pcln} {
		if off := int(le.Uint64(mem[hdr+32+8*k:])); hdr+off != s.lo {
			return st, fmt.Errorf("pclntab: header offset %d disagrees with moduledata", k)
		}
	}
	st.Funcs = nfunc

	// tableEnd returns the end of the pc-value table at off in pctab (see runtime.step).
	tableEnd := func(off int) (int, error) {
		p := pctab.lo + off
		for first := true; ; first = false {
			if p >= pctab.hi {
				return 0, fmt.Errorf("pclntab: pc-value table at %d runs past pctab", off)
			}
			if mem[p] == 0 && !first {
				return p + 1 - pctab.lo, nil
			}
			for k := 0; k < 2; k++ { // value delta, pc delta
				_, n := binary.Uvarint(mem[p:min(p+5, pctab.hi)])
				if n <= 0 {
					return 0, fmt.Errorf("pclntab: bad varint in pc-value table at %d", off)
				}
				p += n
			}
		}
	}
	keepPC := make([]bool, pctab.hi-pctab.lo)
	keepPC[0] = true
	marked := map[uint32]bool{} // tables already kept, by start
	mark := func(off uint32) error {
		if off == 0 {
			return nil
		}
		if int(off) >= len(keepPC) {
			return fmt.Errorf("pclntab: table offset %d past pctab", off)
		}
		if marked[off] {
			return nil
		}
		marked[off] = true
		end, err := tableEnd(int(off))
		if err != nil {
			return err
		}
		for i := int(off); i < end; i++ {
			keepPC[i] = true
		}
		return nil
	}
	type fn struct{ at, nameOff int }
	funcs := make([]fn, 0, nfunc)
	for i := 0; i < nfunc; i++ {
		fo := int(le.Uint32(mem[pcln.lo+8*i+4:]))
		f := pcln.lo + fo
		if fo < 0 || f+44 > pcln.hi {
			return st, fmt.Errorf("pclntab: function %d out of range", i)
		}
		npc, nfd := int(le.Uint32(mem[f+28:])), int(mem[f+43])
		if f+44+4*(npc+nfd) > pcln.hi {
			return st, fmt.Errorf("pclntab: function %d's tables out of range", i)
		}
		if nfd > 3 && le.Uint32(mem[f+44+4*npc+12:]) != ^uint32(0) {
			return st, fmt.Errorf("pclntab: function %d has inlined calls (build with -gcflags=all=-l)", i)
		}
		if err := mark(le.Uint32(mem[f+16:])); err != nil { // pcsp
			return st, err
		}
		for k := 0; k < npc; k++ {
			if err := mark(le.Uint32(mem[f+44+4*k:])); err != nil {
				return st, err
			}
		}
		funcs = append(funcs, fn{f, int(le.Uint32(mem[f+4:]))})
	}

	// Names: rewritten in place, shorter, each followed by zeros up to its old end.
	offs := make([]int, 0, len(funcs))
	for _, f := range funcs {
		if f.nameOff < 0 || f.nameOff >= names.hi-names.lo {
			return st, errors.New("pclntab: name offset past funcnametab")
		}
		offs = append(offs, f.nameOff)
	}
	slices.Sort(offs)
	offs = slices.Compact(offs)
	// A module thinned before has its file names zeroed and its own functions' names already
	// short, like the standard library's: names are then only shortened again (a no-op).
	thinned := filetab.hi > filetab.lo && !slices.ContainsFunc(mem[filetab.lo:filetab.hi], func(b byte) bool { return b != 0 })
	// The runtime's special functions and the compiler's generated code (method wrappers,
	// whose names panicwrap parses) carry a funcID (the byte after startLine); a name shared by
	// several functions is kept when any of them does.
	special := map[int]bool{}
	for _, f := range funcs {
		if mem[f.at+40] != 0 {
			special[f.nameOff] = true
		}
	}
	keepName := make([]bool, names.hi-names.lo)
	next := 0 // where the previous name ended: names never overlap
	for _, off := range offs {
		if off < next {
			return st, errors.New("pclntab: function names overlap")
		}
		end := bytes.IndexByte(mem[names.lo+off:names.hi], 0)
		if end < 0 {
			return st, errors.New("pclntab: unterminated function name")
		}
		name := string(mem[names.lo+off : names.lo+off+end])
		short := name[shortNameAt(name):]
		if p := printedName(short); len(p) < len(short) {
			short = p // not "x.[2]T": "[...]" is longer than "[2]"
		}
		if !thinned && unnamedStd(name, special[off]) {
			short = ""
		}
		copy(mem[names.lo+off:], short)
		mem[names.lo+off+len(short)] = 0
		for i := off; i <= off+len(short); i++ {
			keepName[i] = true
		}
		next = off + end + 1
		st.NameBytes += end
		st.ShortNameBytes += len(short)
	}
	for _, f := range funcs {
		for _, o := range []int{20, 24, 32, 36} { // pcfile, pcln, cuOffset, startLine
			le.PutUint32(mem[f.at+o:], 0)
		}
	}
	zero := func(s span, keep []bool) (n int) {
		for i := s.lo; i < s.hi; i++ {
			if (keep == nil || !keep[i-s.lo]) && mem[i] != 0 {
				mem[i] = 0
				n++
			}
		}
		return n
	}
	st.Zeroed = zero(names, keepName) + zero(pctab, keepPC) + zero(cutab, nil) + zero(filetab, nil)
	st.PCTab, st.NameTab, st.FileTab = pctab.hi-pctab.lo, names.hi-names.lo, filetab.hi-filetab.lo+cutab.hi-cutab.lo
	return st, nil
}

// symtabStats says what thinSymtab emptied.
type symtabStats struct {
	Funcs                     int
	NameBytes, ShortNameBytes int // function names before and after
	PCTab, NameTab, FileTab   int // table sizes (unchanged)
	Zeroed                    int // bytes set to zero
}

// printedName is name as the runtime prints it (funcNameForPrint): a generic function's type
// arguments, the shapes it was instantiated for, become "[...]".
func printedName(name string) string {
	i := strings.IndexByte(name, '[')
	j := strings.LastIndexByte(name, ']')
	if i < 0 || j <= i {
		return name
	}
	return name[:i] + "[...]" + name[j+1:]
}

// unnamedStd reports a function of the standard library outside the runtime and reflect whose
// name thinSymtab empties: a function or method ("strconv.Quote", "slices.SortFunc[...]",
// "sync/atomic.Int64.Load", "strings.(*Builder).Grow"), whose package's first path element has
// no dot. A traceback skips a frame without a name (showframe wants a '.'), so a crash shows the
// frames of trainlint's own code and the runtime's, not strconv's or sort's. A special function
// (a funcID other than normal: the runtime's own, and the wrappers the compiler generates,
// whose names panicwrap parses and throws on without a '(') keeps its name, except the
// equality and hash functions the compiler generates (type:.eq.T), which nothing parses.
func unnamedStd(name string, special bool) bool {
	if strings.HasPrefix(name, "type:.eq.") || strings.HasPrefix(name, "type:.hash.") {
		return true
	}
	if special {
		return false
	}
	for _, p := range keptNamePrefixes {
		if strings.HasPrefix(name, p) {
			return false
		}
	}
	if strings.HasPrefix(name, "type:") || strings.HasPrefix(name, "go:") || strings.HasPrefix(name, "main.") {
		return false
	}
	if i := strings.IndexByte(name, '('); i >= 0 {
		name = name[:i] // the package path is before the receiver
	}
	path := name
	if i := strings.IndexByte(path, '['); i >= 0 {
		path = path[:i]
	}
	slash := strings.LastIndexByte(path, '/')
	dot := strings.IndexByte(path[slash+1:], '.')
	if dot < 0 {
		return false
	}
	first, _, _ := strings.Cut(path[:slash+1+dot], "/")
	return !strings.Contains(first, ".")
}

// keptNamePrefixes are the names the runtime compares against (see thinSymtab).
var keptNamePrefixes = []string{"runtime.", "internal/runtime/", "reflect."}

// shortNameAt returns where name's short form starts: past its import path's last slash
// ("github.com/a/b.(*T[c/d.U]).m" gives "b.(*T[c/d.U]).m"), or 0 for the runtime's names and
// for a short form that would look like one of them.
func shortNameAt(name string) int {
	for _, p := range keptNamePrefixes {
		if strings.HasPrefix(name, p) {
			return 0
		}
	}
	if strings.HasPrefix(name, "type:") || strings.HasPrefix(name, "go:") {
		return 0 // the linker's own functions (type:.eq.…): their prefix says what they are
	}
	path := name
	if i := strings.IndexAny(path, "[("); i >= 0 {
		path = path[:i]
	}
	cut := strings.LastIndexByte(path, '/') + 1
	for _, p := range keptNamePrefixes {
		if strings.HasPrefix(name[cut:], p) {
			return 0
		}
	}
	return cut
}
