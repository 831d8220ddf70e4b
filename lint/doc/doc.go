// Package doc is trainlint's format-neutral view of a configuration file: a tree of maps,
// sequences and scalars in which every node knows its key path, the span of its key and the
// span of its value in the original bytes. One front-end per format (YAML, JSON, TOML, gin,
// Python) builds it; dialects and rules read only this tree, never a format's own types.
//
// Configs written as code (gin.go, python.go) are read statically, never executed: gin
// bindings become key paths (`train/utils.DatasetConfig.batch_size`), macros resolve to their
// definition with the use kept in Node.Use; a Python file is parsed (pyparse.go: our own parser,
// since no pure-Go library parses the corpus) and evaluated over a safe subset (pyeval.go), and
// the tree is what get_config() returns or the module's variables (MMEngine). What cannot be
// known is an Unknown scalar (Style "opaque" or "reference"). Other files a config names
// (include, _base_, read_base imports) are listed in Document.Refs. Work is bounded: a step
// budget of 2,000,000, 64 nested calls, 1 MiB strings and the usual node and depth limits give
// input-limit-exceeded; syntax errors are parse-error at their position.
//
// Cost (BenchmarkCodeVsYAML: CPU time per KiB including each format's garbage collection, all
// corpus files of the format, interleaved rounds, -cpu 1, on the shared 2-core machine,
// 2026-12-01; six runs): YAML 23-31 µs/KiB, gin 39-54 µs/KiB (1.7-1.9× YAML), Python 90-128
// µs/KiB (about 4× YAML: lexing, parsing, then evaluating get_config, its helpers and
// comprehensions). Reading gin and Python therefore costs more per KiB than the tuned YAML
// reader; the files are small (1.3 KiB and 3.4 KiB on average): a typical one reads in under
// half a millisecond of CPU, the largest Python config (8 KiB) in about one. Wall-clock MB/s (BenchmarkParseGin/Python) swing several fold between runs
// on that machine; read the CPU benchmark.
//
// Positions are 1-based lines and 1-based columns counted in Unicode code points, plus a 0-based
// byte offset; an End position is exclusive (the first code point after the span).
package doc

import (
	"strconv"
	"strings"
)

// Format names a file format.
type Format string

const (
	YAML Format = "yaml"
	JSON Format = "json"
	TOML Format = "toml"
	// Gin is Google's gin-config language (T5X): `configurable.param = value` bindings.
	Gin Format = "gin"
	// Python is a Python config file (ml_collections get_config(), MMEngine module variables),
	// read by static evaluation, never executed.
	Python Format = "python"
)

// Pos is a point in the source.
type Pos struct {
	Line   int // 1-based
	Col    int // 1-based, in code points
	Offset int // 0-based byte offset
}

// Span is a half-open range [Start, End) in the source.
type Span struct {
	Start, End Pos
}

// IsZero reports whether the span was never set.
func (s Span) IsZero() bool { return s.Start.Line == 0 }

// Kind is the shape of a node.
type Kind uint8

const (
	Map Kind = iota + 1
	Seq
	Scalar
)

func (k Kind) String() string {
	switch k {
	case Map:
		return "map"
	case Seq:
		return "seq"
	case Scalar:
		return "scalar"
	}
	return "invalid"
}

// Type is the type of a scalar, as the format resolves it.
type Type uint8

const (
	String Type = iota + 1
	Int
	Float
	Bool
	Null
	// Unknown marks a value that is decided later: an interpolation (`${...}`), Hydra's `???`,
	// DeepSpeed's "auto", gin's %gin.REQUIRED. Dialects treat it as "no fact", never as an error.
	Unknown
)

func (t Type) String() string {
	switch t {
	case String:
		return "string"
	case Int:
		return "int"
	case Float:
		return "float"
	case Bool:
		return "bool"
	case Null:
		return "null"
	case Unknown:
		return "unknown"
	}
	return "invalid"
}

// Node is one value of the tree.
type Node struct {
	Kind Kind
	Type Type // scalars only

	// Value is a scalar's value as text, with quotes and escapes resolved ("true", "16", "1e-4",
	// "${oc.env:RANK}"). For maps and sequences it is empty.
	Value string
	// Quoted reports whether the scalar was written quoted (its type is then String unless it is
	// an interpolation).
	Quoted bool
	// Style is the front-end's spelling detail needed for faithful edits: for YAML "plain",
	// "single", "double", "literal", "folded", "flow"; for JSON and TOML the same vocabulary.
	// Collections written by indentation (YAML block mappings and sequences, TOML tables and
	// arrays of tables) have Style "block".
	Style string

	// Key is the node's key in its parent map ("" for the root and for sequence items).
	Key string
	// Index is the node's position in its parent (map entries and sequence items alike).
	Index int
	// Path is the key path from the root: map keys and sequence indexes.
	Path Path

	KeySpan Span // span of the key token (maps' children only); zero otherwise
	Span    Span // span of the value

	Parent   *Node
	Children []*Node // map entries in source order (each with Key) or sequence items

	// Alias reports that the node is a copy of a YAML anchored node, reached through an alias
	// (`*name`) or a merge key (`<<: *name`). The alias node itself spans the `*name` token; its
	// descendants and merged entries keep the spans of the anchored definition, so they need
	// not lie inside their parent's span.
	Alias bool
	// Use is, for a value reached through a reference (a gin `%MACRO`, a Python name bound
	// earlier), the span of the reference where it is used; the node's own spans are those of
	// the definition, so findings and fixes land where the value is written. A pointer: most
	// nodes have none, and every node of every format carries the field.
	Use *Span

	flags uint8 // front-end scratch: how a TOML table was defined
}

// PathElem is one step of a key path: a map key, or a sequence index when IsIndex.
type PathElem struct {
	Key     string
	Index   int
	IsIndex bool
}

// Path is a key path from the document root.
type Path []PathElem

// String renders a path the way messages and config files spell it: dotted keys, [i] for
// sequence items, and keys that contain dots or brackets quoted ("a.\"b.c\"[0].d").
func (p Path) String() string {
	var b strings.Builder
	for i, e := range p {
		if e.IsIndex {
			b.WriteByte('[')
			b.WriteString(strconv.Itoa(e.Index))
			b.WriteByte(']')
			continue
		}
		if i > 0 {
			b.WriteByte('.')
		}
		if strings.ContainsAny(e.Key, ".[]\" ") || e.Key == "" {
			b.WriteString(strconv.Quote(e.Key))
		} else {
			b.WriteString(e.Key)
		}
	}
	return b.String()
}

// Append returns a copy of p with e appended (never aliasing p's backing array).
func (p Path) Append(e PathElem) Path {
	q := make(Path, len(p), len(p)+1)
	copy(q, p)
	return append(q, e)
}

// Get returns the child of a map with the given key, or nil. Nil-safe: (*Node)(nil).Get is nil.
// When a key is repeated the last occurrence wins, as in the formats themselves.
func (n *Node) Get(key string) *Node {
	if n == nil || n.Kind != Map {
		return nil
	}
	for i := len(n.Children) - 1; i >= 0; i-- {
		if n.Children[i].Key == key {
			return n.Children[i]
		}
	}
	return nil
}

// At follows a dotted path of map keys ("trainer.val_check_interval"). Nil-safe.
func (n *Node) At(dotted string) *Node {
	// strings.Cut, not SplitSeq: dialect detection calls At for every evidence key of every
	// dialect on every file, and the iterator's closures cost more than the lookups.
	cur := n
	for rest, more := dotted, true; more; {
		var k string
		k, rest, more = strings.Cut(rest, ".")
		cur = cur.Get(k)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// Lookup follows map keys one by one. Nil-safe.
func (n *Node) Lookup(keys ...string) *Node {
	cur := n
	for _, k := range keys {
		cur = cur.Get(k)
		if cur == nil {
			return nil
		}
	}
	return cur
}

// Item returns the i-th item of a sequence, or nil.
func (n *Node) Item(i int) *Node {
	if n == nil || n.Kind != Seq || i < 0 || i >= len(n.Children) {
		return nil
	}
	return n.Children[i]
}

// IsScalar reports whether n is a scalar (nil-safe).
func (n *Node) IsScalar() bool { return n != nil && n.Kind == Scalar }

// IsNull reports whether n is an explicit null.
func (n *Node) IsNull() bool { return n != nil && n.Kind == Scalar && n.Type == Null }

// IsUnknown reports whether n's value is decided later (interpolation, ???, "auto").
func (n *Node) IsUnknown() bool { return n != nil && n.Kind == Scalar && n.Type == Unknown }

// Int returns the value as an integer when the scalar is an integer, or a float with no
// fractional part, or a quoted string that holds one ("16"). ok is false otherwise.
func (n *Node) Int() (v int64, ok bool) {
	if n == nil || n.Kind != Scalar {
		return 0, false
	}
	switch n.Type {
	case Int, String:
		s := strings.ReplaceAll(strings.TrimSpace(n.Value), "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return i, true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil && f == float64(int64(f)) && n.Type == Int {
			return int64(f), true
		}
	case Float:
		if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == float64(int64(f)) && f < 1<<62 && f > -(1<<62) {
			return int64(f), true
		}
	}
	return 0, false
}

// Float returns the value as a float for integer and float scalars (and quoted numbers).
func (n *Node) Float() (v float64, ok bool) {
	if n == nil || n.Kind != Scalar {
		return 0, false
	}
	switch n.Type {
	case Int, Float, String:
		s := strings.ReplaceAll(strings.TrimSpace(n.Value), "_", "")
		if i, err := strconv.ParseInt(s, 0, 64); err == nil {
			return float64(i), true
		}
		if f, err := strconv.ParseFloat(s, 64); err == nil {
			return f, true
		}
	}
	return 0, false
}

// Bool returns the value of a boolean scalar; quoted "true"/"false" (any case) count too,
// because several frameworks parse strings leniently.
func (n *Node) Bool() (v bool, ok bool) {
	if n == nil || n.Kind != Scalar {
		return false, false
	}
	switch n.Type {
	case Bool, String:
		switch strings.ToLower(strings.TrimSpace(n.Value)) {
		case "true", "yes", "on":
			return true, n.Type == Bool || !isYAML11Only(n.Value)
		case "false", "no", "off":
			return false, n.Type == Bool || !isYAML11Only(n.Value)
		}
	}
	return false, false
}

func isYAML11Only(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "yes", "no", "on", "off":
		return true
	}
	return false
}

// Str returns a scalar's text (any scalar type) and whether n is a scalar.
func (n *Node) Str() (string, bool) {
	if n == nil || n.Kind != Scalar {
		return "", false
	}
	return n.Value, true
}

// Walk calls fn for n and every descendant in source order; fn returning false skips a
// subtree. It is iterative, so a deep tree cannot overflow the stack.
func (n *Node) Walk(fn func(*Node) bool) {
	if n == nil {
		return
	}
	// The stack starts in a local array: walks run on every file (dialect evidence, rules), and
	// growing a heap slice from one element was most of a walk's own cost.
	var buf [64]*Node
	stack := append(buf[:0], n)
	for len(stack) > 0 {
		cur := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		if !fn(cur) {
			continue
		}
		for i := len(cur.Children) - 1; i >= 0; i-- {
			stack = append(stack, cur.Children[i])
		}
	}
}

// Comment is one comment in the source (YAML and TOML `#` comments), used by suppressions.
type Comment struct {
	Text string // the comment text after '#', untrimmed
	Span Span   // the span of the comment including '#'
	// Trailing reports whether code precedes the comment on its line.
	Trailing bool
}

// Problem is something a front-end found wrong with the bytes themselves. The engine turns each
// into a diagnostic of the named rule (parse-error, duplicate-key, input-limit-exceeded).
type Problem struct {
	Rule    string // rule name: "parse-error", "duplicate-key", "input-limit-exceeded"
	Message string
	Span    Span
	// Related is an optional second location (the first occurrence of a duplicate key).
	Related        *Span
	RelatedMessage string
}

// FileRef is one reference to another file or module.
type FileRef struct {
	Kind   string // "include" (gin), "import" (gin or Python), "base" (MMEngine _base_ / read_base)
	Target string // the path or dotted module name as written
	Span   Span
}

// Document is one parsed file.
type Document struct {
	Path   string
	Format Format
	Src    []byte // the bytes as read (BOM included); spans index into Src
	// Root is the first document's root (a YAML stream's later documents are in More).
	Root *Node
	More []*Node
	// Comments in source order.
	Comments []Comment
	// Problems found while parsing. A document with a fatal parse error has a nil Root.
	Problems []Problem
	// CRLF reports whether the file's lines end in \r\n (edits keep the file's style).
	CRLF bool
	// Refs are the other files and modules this one names: gin `include` and `import`, Python
	// imports and MMEngine `_base_` entries. Composition resolves them; a lone file keeps them
	// for detection.
	Refs []FileRef

	lines *LineIndex
}

// Lines returns the document's line index (built on first use).
func (d *Document) Lines() *LineIndex {
	if d.lines == nil {
		d.lines = NewLineIndex(d.Src)
	}
	return d.lines
}

// Limits bound what a front-end accepts, so that hostile input ends quickly with a finding.
type Limits struct {
	MaxBytes   int // whole file; 0 means the default
	MaxDepth   int // nesting of maps and sequences
	MaxAliases int // YAML alias expansions
	MaxNodes   int // nodes in the tree
}

// DefaultLimits are generous for real configs (the largest in the corpus is far below them) and
// small enough that the worst input ends in well under a second.
var DefaultLimits = Limits{
	MaxBytes:   10 << 20,
	MaxDepth:   1000,
	MaxAliases: 10000,
	MaxNodes:   2_000_000,
}

// withDefaults fills zero fields from DefaultLimits.
func (l Limits) withDefaults() Limits {
	if l.MaxBytes <= 0 {
		l.MaxBytes = DefaultLimits.MaxBytes
	}
	if l.MaxDepth <= 0 {
		l.MaxDepth = DefaultLimits.MaxDepth
	}
	if l.MaxAliases <= 0 {
		l.MaxAliases = DefaultLimits.MaxAliases
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = DefaultLimits.MaxNodes
	}
	return l
}

// FormatFromPath picks a format from a file name's extension; ok is false for other files.
func FormatFromPath(path string) (Format, bool) {
	p := strings.ToLower(path)
	switch {
	case strings.HasSuffix(p, ".yaml"), strings.HasSuffix(p, ".yml"):
		return YAML, true
	case strings.HasSuffix(p, ".json"):
		return JSON, true
	case strings.HasSuffix(p, ".toml"):
		return TOML, true
	case strings.HasSuffix(p, ".gin"):
		return Gin, true
	case strings.HasSuffix(p, ".py"):
		return Python, true
	}
	return "", false
}
