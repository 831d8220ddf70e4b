package doc

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Parse reads src as the given format and returns its Document. It never panics and never
// returns a nil Document: what is wrong with the bytes is in Document.Problems, and a file that
// cannot be parsed at all has a nil Root.
//
// Before any format parser runs, the bytes must be UTF-8 text: a UTF-16 byte order mark, a NUL
// byte or an invalid UTF-8 sequence is a parse-error at its position. A UTF-8 BOM is accepted
// and skipped (see LineIndex for how positions treat it).
func Parse(path string, src []byte, f Format, lim Limits) *Document {
	return ParseWith(path, src, f, Options{Limits: lim})
}

// ParseWith is Parse with options beyond the limits (see Options).
func ParseWith(path string, src []byte, f Format, o Options) (d *Document) {
	lim := o.Limits.withDefaults()
	d = &Document{Path: path, Format: f, Src: src}
	defer func() {
		if r := recover(); r != nil {
			d.Root, d.More = nil, nil
			d.Src = src // not the copy a reader was given (baseVarText)
			d.Problems = append(d.Problems, Problem{Kind: Syntax, Message: "the parser could not read this file", Span: d.Lines().Span(0, 0)})
		}
	}()
	if len(src) > lim.MaxBytes {
		oversize(d, int64(len(src)), lim)
		return d
	}
	if !checkText(d) || conflictMarkers(d) || lfsPointer(d) {
		return d
	}
	if i := bytes.IndexByte(src, '\n'); i > 0 && src[i-1] == '\r' {
		d.CRLF = true
	}
	switch f {
	case YAML, JSON:
		// MMEngine's `{{ _base_.name }}` values are read as quoted text (basevars.go).
		sub := baseVarText(src)
		if sub != nil {
			d.Src = sub
		}
		if f == YAML {
			parseYAML(d, lim, o.NoDirectYAML)
		} else {
			parseJSON(d, lim)
		}
		if sub != nil {
			d.Src = src
			markBaseVars(d, sub)
		}
	case TOML:
		readTOML(d, lim)
	case Gin:
		readGin(d, lim, o)
	case Python:
		readPython(d, lim, o)
	default:
		d.Problems = append(d.Problems, Problem{Kind: Syntax, Message: "unknown format " + strconv.Quote(string(f)), Span: d.Lines().Span(0, 0)})
	}
	return d
}

// Oversize is the Document of a file that was not read because it is size bytes long, over
// lim.MaxBytes: no tree, one input-limit-exceeded problem. A driver that stops reading at the
// limit (the CLI reads at most MaxBytes+1 bytes) calls it instead of Parse; a size of exactly
// MaxBytes+1 is worded "over the limit", since that is all the driver knows.
func Oversize(path string, size int64, f Format, lim Limits) *Document {
	d := &Document{Path: path, Format: f}
	oversize(d, size, lim.withDefaults())
	return d
}

func oversize(d *Document, size int64, lim Limits) {
	what := "file is " + humanBytes(int(min(size, 1<<50))) + ", over the size limit of " + humanBytes(lim.MaxBytes)
	if size == int64(lim.MaxBytes)+1 {
		what = "file is over the size limit of " + humanBytes(lim.MaxBytes)
	}
	d.Problems = append(d.Problems, Problem{Kind: LimitExceeded,
		Message: limitMessage(what, "max_bytes"),
		// A fixed position: indexing the lines of a file that is not read would cost time.
		Span: Span{Start: Pos{Line: 1, Col: 1}, End: Pos{Line: 1, Col: 1}}})
}

// checkText reports bytes that cannot be a text config: UTF-16/32 (by its BOM), NUL bytes and
// invalid UTF-8. It returns false when the file must not be parsed.
func checkText(d *Document) bool {
	src := d.Src
	if len(src) >= 2 && (src[0] == 0xFF && src[1] == 0xFE || src[0] == 0xFE && src[1] == 0xFF) {
		d.addProblem(Syntax, "file is UTF-16 or UTF-32 text (it starts with a byte order mark); save it as UTF-8", 0, 0)
		return false
	}
	if i := bytes.IndexByte(src, 0); i >= 0 {
		p := d.Lines().Pos(i)
		d.addProblem(Syntax, "file contains a NUL byte at line "+itoa(p.Line)+" column "+itoa(p.Col)+"; it looks binary, not a text config", i, i+1)
		return false
	}
	// An ASCII file (most configs) is UTF-8 without a closer look, and its line index
	// need not scan for non-ASCII bytes again.
	d.allASCII = isASCII(src)
	if !d.allASCII && !utf8.Valid(src) {
		i := firstInvalidUTF8(src)
		p := d.Lines().Pos(i)
		d.addProblem(Syntax, "file is not UTF-8 text: invalid byte "+hexByte(src[i])+" at line "+itoa(p.Line)+" column "+itoa(p.Col), i, i+1)
		return false
	}
	return true
}

func firstInvalidUTF8(src []byte) int {
	for i := 0; i < len(src); {
		if src[i] < utf8.RuneSelf {
			i++
			continue
		}
		r, size := utf8.DecodeRune(src[i:])
		if r == utf8.RuneError && size == 1 {
			return i
		}
		i += size
	}
	return 0
}

func hexByte(b byte) string {
	const digits = "0123456789abcdef"
	return "0x" + string([]byte{digits[b>>4], digits[b&15]})
}

// addProblem records a problem spanning the byte offsets [start, end).
func (d *Document) addProblem(kind ProblemKind, msg string, start, end int) {
	d.Problems = append(d.Problems, Problem{Kind: kind, Message: msg, Span: d.Lines().Span(start, end)})
}

// addCodeError records an error of the gin or Python lexer or parser, its message after
// prefix: a bound passed (the nesting depth) as LimitExceeded, naming the limit to raise, and
// anything else as a syntax error at the offending character.
func (d *Document) addCodeError(prefix string, e *pySyntaxError) {
	if e.limit != "" {
		d.addProblem(LimitExceeded, limitMessage(prefix+e.msg, e.limit), e.off, e.off)
		return
	}
	d.addProblem(Syntax, prefix+e.msg, e.off, min(e.off+1, len(d.Src)))
}

// refusedBOM reports a leading byte order mark as a syntax error, for a format whose loader
// decodes the file as "utf-8" (which keeps the mark) and then stops at it: refusal says who
// refuses it, says what that loader says. It returns whether the file had one.
func refusedBOM(d *Document, refusal, says string) bool {
	if !HasBOM(d.Src) {
		return false
	}
	d.addProblem(Syntax, "the file starts with a byte order mark (U+FEFF): "+refusal+" ("+strconv.Quote(says)+"); save the file as UTF-8 without a BOM", 0, 3)
	return true
}

// maxDupProblems caps the duplicate-key problems of one file: past it the findings stop helping.
const maxDupProblems = 1000

// MoreDuplicatesNote ends the message of the last duplicate-key problem a file reports.
const MoreDuplicatesNote = " (further repeated keys in this file are not reported)"

// RepeatedKeyMessage is the message of a duplicate-key problem: the key, then how, what becomes
// of the repetition (what the format does, or what the framework's loaders do with it).
func RepeatedKeyMessage(key, how string) string {
	return "key " + strconv.Quote(key) + " is repeated; " + how
}

// addDuplicate records a duplicate-key problem for a key at second that repeats the one at first.
// how ends the message: what the format does with the repetition.
func (d *Document) addDuplicate(key string, first, second Span, how string, count *int) {
	*count++
	if *count > maxDupProblems {
		return
	}
	msg := RepeatedKeyMessage(key, how)
	if *count == maxDupProblems {
		msg += MoreDuplicatesNote
	}
	f := first
	d.Problems = append(d.Problems, Problem{Kind: DuplicateKey, Message: msg, Span: second,
		Related: &f, RelatedMessage: "first occurrence of " + strconv.Quote(key), Key: key})
}

func humanBytes(n int) string {
	const mib = 1 << 20
	if n >= mib {
		return itoa(n/mib) + " MiB"
	}
	if n >= 1024 {
		return itoa(n/1024) + " KiB"
	}
	return itoa(n) + " bytes"
}

func itoa(n int) string { return strconv.Itoa(n) }

// conflictMarkers reports a file left with git merge-conflict markers: no format parses it, and
// the parsers' own messages would point at a harmless-looking line.
func conflictMarkers(d *Document) bool {
	src := d.Src
	// The first "<<<<<<< " that starts a line. Searching for the marker and checking the byte
	// before, instead of searching for "\n<<<<<<< ", keeps the search from stopping at every
	// line break (a candidate first byte) of a file that has no marker.
	i := 0
	for {
		j := bytes.Index(src[i:], []byte("<<<<<<< "))
		if j < 0 {
			return false
		}
		i += j
		if i == 0 || src[i-1] == '\n' {
			break
		}
		i++
	}
	rest := src[i:]
	if !bytes.Contains(rest, []byte("\n=======")) || !bytes.Contains(rest, []byte("\n>>>>>>> ")) {
		return false
	}
	end := bytes.IndexAny(src[i:], "\r\n")
	if end < 0 {
		end = len(src) - i
	}
	p := d.Lines().Pos(i)
	d.addProblem(Syntax, "file contains an unresolved git merge conflict (marker \"<<<<<<<\" on line "+itoa(p.Line)+"); resolve it before linting", i, i+end)
	return true
}

// IsLFSPointer reports a Git LFS pointer file: the few lines git-lfs commits in place of a
// file's content (git-lfs docs/spec.md), which a clone without git-lfs, or a CI checkout that
// does not fetch LFS objects, leaves in the work tree.
func IsLFSPointer(src []byte) bool {
	return len(src) < 1024 && (bytes.HasPrefix(src, []byte("version https://git-lfs.github.com/spec/v1\n")) ||
		bytes.HasPrefix(src, []byte("version https://hawser.github.com/spec/v1\n"))) && bytes.Contains(src, []byte("\noid "))
}

// lfsPointer reports a Git LFS pointer as what it is: the parsers' own messages would point at
// its first word.
func lfsPointer(d *Document) bool {
	if !IsLFSPointer(d.Src) {
		return false
	}
	end := bytes.IndexByte(d.Src, '\n')
	d.addProblem(Syntax, "this is a Git LFS pointer, not the file: its content was not fetched (run `git lfs pull`, or fetch LFS objects in the CI checkout)", 0, end)
	return true
}

// limitMessage words an input-limit-exceeded problem: what was exceeded, the limit's name, and
// the setting that raises it (the [limits] table of .trainlint.toml spells names with dashes).
func limitMessage(what, key string) string {
	return what + "; the file was not analysed (limit limits." + key + "; raise " +
		strings.ReplaceAll(key, "_", "-") + " under [limits] in .trainlint.toml to analyse it)"
}

// overrides says what YAML and JSON loaders do with a repeated key: the later value wins.
func overrides(first, second Span) string {
	if first.Start.Line == second.Start.Line {
		return "the second value silently overrides the first"
	}
	return "the value on line " + itoa(second.Start.Line) + " silently overrides the one on line " + itoa(first.Start.Line)
}

// nodeAlloc hands out nodes and child lists from blocks that grow with the document, so that a
// small file costs a few allocations and a large one one allocation per many nodes. Child lists
// are handed out with their capacity clipped, so appending to one copies it instead of
// overwriting a neighbour.
type nodeAlloc struct {
	nodes    []Node
	kids     []*Node
	nodeSize int
}

func (a *nodeAlloc) new() *Node {
	if len(a.nodes) == 0 {
		a.nodeSize = min(max(2*a.nodeSize, 8), 64)
		a.nodes = make([]Node, a.nodeSize)
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	return n
}

// reserve makes the next blocks hold at least the given numbers of nodes and child-list slots
// (capped, so a huge document still grows block by block): a document whose size is known up
// front then takes one block of each instead of a doubling series whose last block is partly
// unused.
func (a *nodeAlloc) reserve(nodes, kids int) {
	if nodes = min(nodes, 4096); len(a.nodes) < nodes {
		a.nodes = make([]Node, nodes)
	}
	if kids = min(kids, 8192); len(a.kids) < kids {
		a.kids = make([]*Node, kids)
	}
}

// children returns an empty child list with room for n entries.
func (a *nodeAlloc) children(n int) []*Node {
	if n > 64 {
		return make([]*Node, 0, n)
	}
	if len(a.kids) < n {
		a.kids = make([]*Node, max(2*a.nodeSize, 64))
	}
	q := a.kids[:0:n]
	a.kids = a.kids[n:]
	return q
}
