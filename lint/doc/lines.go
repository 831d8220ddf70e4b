package doc

import (
	"sort"
	"unicode/utf8"
)

// LineIndex converts byte offsets to positions.
type LineIndex struct {
	src    []byte
	starts []int // byte offset of the start of each line
}

// NewLineIndex indexes src's line starts (\n, \r\n and lone \r all end a line).
func NewLineIndex(src []byte) *LineIndex {
	starts := []int{0}
	for i := 0; i < len(src); i++ {
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
	return &LineIndex{src: src, starts: starts}
}

// NumLines is the number of lines (a final newline does not start an extra counted line of text,
// but its empty line still has an index).
func (x *LineIndex) NumLines() int { return len(x.starts) }

// Pos converts a byte offset (clamped to the source) into a position. Columns count code points;
// an invalid UTF-8 byte counts as one.
func (x *LineIndex) Pos(offset int) Pos {
	if offset < 0 {
		offset = 0
	}
	if offset > len(x.src) {
		offset = len(x.src)
	}
	line := sort.Search(len(x.starts), func(i int) bool { return x.starts[i] > offset }) - 1
	start := x.starts[line]
	return Pos{Line: line + 1, Col: utf8.RuneCount(x.src[start:offset]) + 1, Offset: offset}
}

// Offset converts a 1-based line and code-point column back into a byte offset (clamped).
func (x *LineIndex) Offset(line, col int) int {
	if line < 1 {
		return 0
	}
	if line > len(x.starts) {
		return len(x.src)
	}
	off := x.starts[line-1]
	end := x.LineEnd(line)
	for c := 1; c < col && off < end; c++ {
		_, size := utf8.DecodeRune(x.src[off:end])
		off += size
	}
	return off
}

// LineStart returns the byte offset where a 1-based line starts.
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
