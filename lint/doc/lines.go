package doc

import (
	"bytes"
	"encoding/binary"
	"unicode/utf8"
)

// LineIndex converts between byte offsets and positions.
//
// A UTF-8 byte order mark is not part of line 1's text: editors do not show it and do not count
// it, so line 1 column 1 is the first character after it, while offsets still index the bytes as
// read (the first character after a BOM has offset 3).
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the start of each line's text (line 1 starts after a BOM)
	ascii  bool  // every byte < 0x80: columns are byte distances
	// For a text that is not ASCII and has a line longer than 2*runeStep bytes: the code points
	// before each line start (lineRunes) and before markPos[c], the first character boundary
	// at or after byte c*runeStep (markRunes), so a column costs at most about runeStep bytes
	// of counting. Without them every column counted from its line's start: a one-line
	// tokenizer vocab.json of 2.7 MB (151,643 keys) took minutes, quadratic in the line.
	lineRunes, markPos, markRunes []int
}

// runeStep is the distance between the column checkpoints of a long non-ASCII line.
const runeStep = 256

// withRunes returns x, with the column checkpoints built when its text needs them.
func (x *LineIndex) withRunes() *LineIndex {
	if x.ascii {
		return x
	}
	long := false
	for i := 1; i < len(x.starts) && !long; i++ {
		long = x.starts[i]-x.starts[i-1] > 2*runeStep
	}
	if !long && len(x.src)-x.starts[len(x.starts)-1] <= 2*runeStep {
		return x
	}
	src := x.src
	x.lineRunes = make([]int, len(x.starts))
	x.markPos = make([]int, 0, len(src)/runeStep+2)
	x.markRunes = make([]int, 0, len(src)/runeStep+2)
	// Every line start is a character boundary (it follows a line break or a BOM), so one
	// decoding from the start of src meets each of them, counting as utf8.RuneCount does.
	li, runes := 0, 0
	for i := 0; ; runes++ {
		for li < len(x.starts) && x.starts[li] == i {
			x.lineRunes[li] = runes
			li++
		}
		for len(x.markPos)*runeStep <= i {
			x.markPos = append(x.markPos, i)
			x.markRunes = append(x.markRunes, runes)
		}
		if i >= len(src) {
			break
		}
		if src[i] < utf8.RuneSelf {
			i++
		} else {
			_, w := utf8.DecodeRune(src[i:])
			i += w
		}
	}
	return x
}

// NewLineIndex indexes src's line starts (\n, \r\n and lone \r all end a line).
func NewLineIndex(src []byte) *LineIndex { return newLineIndex(src, false) }

// newLineIndex is NewLineIndex; allASCII true says every byte of src is below 0x80 (known to
// Parse), false that it is not known.
func newLineIndex(src []byte, allASCII bool) *LineIndex {
	first := 0
	if HasBOM(src) {
		first = 3
	}
	cr := bytes.IndexByte(src[first:], '\r') >= 0
	// The exact size (a lone \r also ends a line): counting is vectorised, and a size guessed
	// from the length (32 bytes a line) grew the list of many YAML files and over-reserved for
	// others: 413 → 233 KB allocated per pass over the corpus's YAML, 17.5 → 14.5 KB over its gin.
	n := bytes.Count(src[first:], []byte{'\n'}) + 1
	if cr {
		n += bytes.Count(src[first:], []byte{'\r'})
	}
	starts := make([]int, 1, n)
	starts[0] = first
	if !cr {
		// The common case, \n only: jump from line break to line break (IndexByte is
		// vectorised) instead of a switch on every byte; this runs once per parsed file.
		for i := first; ; {
			j := bytes.IndexByte(src[i:], '\n')
			if j < 0 {
				break
			}
			i += j + 1
			starts = append(starts, i)
		}
		return (&LineIndex{src: src, starts: starts, ascii: allASCII || isASCII(src[first:])}).withRunes()
	}
	for i := first; i < len(src); i++ {
		switch src[i] {
		case '\n':
			starts = append(starts, i+1)
		case '\r':
			if i+1 < len(src) && src[i+1] == '\n' {
				continue
			}
			starts = append(starts, i+1)
		}
	}
	return (&LineIndex{src: src, starts: starts, ascii: allASCII || isASCII(src[first:])}).withRunes()
}

// newLineIndexStarts is NewLineIndex for line starts already found (by the Python lexer, which
// passes every line break): the same index, with the starts copied at their exact size.
func newLineIndexStarts(src []byte, starts []int, allASCII bool) *LineIndex {
	first := 0
	if HasBOM(src) {
		first = 3
	}
	st := make([]int, len(starts))
	copy(st, starts)
	return (&LineIndex{src: src, starts: st, ascii: allASCII || isASCII(src[first:])}).withRunes()
}

// isASCII reports whether every byte is below 0x80, 32 and then eight bytes at a time.
func isASCII(b []byte) bool {
	for len(b) >= 32 {
		w := binary.LittleEndian.Uint64(b) | binary.LittleEndian.Uint64(b[8:]) |
			binary.LittleEndian.Uint64(b[16:]) | binary.LittleEndian.Uint64(b[24:])
		if w&0x8080808080808080 != 0 {
			return false
		}
		b = b[32:]
	}
	for len(b) >= 8 {
		if binary.LittleEndian.Uint64(b)&0x8080808080808080 != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// HasBOM reports whether src starts with a UTF-8 byte order mark.
func HasBOM(src []byte) bool {
	return len(src) >= 3 && src[0] == 0xEF && src[1] == 0xBB && src[2] == 0xBF
}

// Shorten returns s cut to at most n bytes, at a character boundary, with "…" when it was cut:
// for quoting a user's text in a message without splitting a UTF-8 character.
func Shorten(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "…"
}

// NumLines is the number of lines (a final newline does not start an extra counted line of text,
// but its empty line still has an index).
func (x *LineIndex) NumLines() int { return len(x.starts) }

// Pos converts a byte offset (clamped to the source) into a position. Columns count code points;
// an invalid UTF-8 byte counts as one. An offset inside a BOM is line 1 column 1.
func (x *LineIndex) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(x.src) {
		offset = len(x.src)
	}
	// The first line starting after offset (sort.Search's answer, without its closure call per
	// step), less one.
	lo, hi := 0, len(x.starts)
	for lo < hi {
		m := int(uint(lo+hi) >> 1)
		if x.starts[m] > offset {
			hi = m
		} else {
			lo = m + 1
		}
	}
	line := lo - 1
	if line < 0 {
		return Pos{Line: 1, Col: 1, Offset: offset}
	}
	return Pos{Line: line + 1, Col: x.col(line, offset), Offset: offset}
}

// col is the 1-based column of offset on the line of 0-based index line.
func (x *LineIndex) col(line, offset int) int {
	start := x.starts[line]
	if x.ascii {
		return offset - start + 1
	}
	if x.markPos == nil || offset-start <= 2*runeStep {
		return utf8.RuneCount(x.src[start:offset]) + 1
	}
	c := min(offset/runeStep, len(x.markPos)-1)
	for c > 0 && x.markPos[c] > offset {
		c--
	}
	if x.markPos[c] < start {
		return utf8.RuneCount(x.src[start:offset]) + 1
	}
	return x.markRunes[c] - x.lineRunes[line] + utf8.RuneCount(x.src[x.markPos[c]:offset]) + 1
}

// posOnLine is Pos for an offset already known to lie on the 1-based line (no search).
func (x *LineIndex) posOnLine(line, offset int) Pos {
	return Pos{Line: line, Col: x.col(line-1, offset), Offset: offset}
}

// Offset converts a 1-based line and code-point column back into a byte offset (clamped).
func (x *LineIndex) Offset(line, col int) int {
	off, _ := x.offset(line, col)
	return off
}

// OffsetOK is Offset that also reports whether (line, col) exists (the column may be one past
// the line's last character: an exclusive end); false when it was clamped.
func (x *LineIndex) OffsetOK(line, col int) (int, bool) { return x.offset(line, col) }

// offset is Offset that also reports whether (line, col) exists: false when it was clamped.
func (x *LineIndex) offset(line, col int) (int, bool) {
	if line < 1 {
		return 0, false
	}
	if line > len(x.starts) {
		return len(x.src), false
	}
	off := x.starts[line-1]
	end := x.LineEnd(line)
	if col < 1 {
		return off, false
	}
	if x.ascii {
		if off+col-1 <= end {
			return off + col - 1, true
		}
		return end, false
	}
	c := 1
	for ; c < col && off < end; c++ {
		if x.src[off] < utf8.RuneSelf {
			off++
			continue
		}
		_, size := utf8.DecodeRune(x.src[off:end])
		off += size
	}
	return off, c == col
}

// LineStart returns the byte offset where a 1-based line's text starts.
func (x *LineIndex) LineStart(line int) int {
	if line < 1 {
		return 0
	}
	if line > len(x.starts) {
		return len(x.src)
	}
	return x.starts[line-1]
}

// LineEnd returns the byte offset of the end of a line's text (before its \r\n or \n).
func (x *LineIndex) LineEnd(line int) int {
	if line < 1 {
		line = 1
	}
	if line >= len(x.starts) {
		return len(x.src)
	}
	end := x.starts[line] // start of next line
	if end > 0 && x.src[end-1] == '\n' {
		end--
	}
	if end > 0 && x.src[end-1] == '\r' {
		end--
	}
	return end
}

// Line returns the text of a 1-based line without its line ending.
func (x *LineIndex) Line(line int) []byte {
	return x.src[x.LineStart(line):x.LineEnd(line)]
}

// Span builds a span from two byte offsets.
func (x *LineIndex) Span(start, end int) Span {
	return Span{Start: x.Pos(start), End: x.Pos(end)}
}
