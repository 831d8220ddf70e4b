package lsp

import (
	"sort"
	"unicode/utf16"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// encoding is the unit of Position.Character the client and server agreed on (LSP 3.17
// positionEncoding): UTF-16 code units unless the client offers UTF-8 or UTF-32.
type encoding uint8

const (
	utf16Units encoding = iota
	utf8Bytes
	utf32Runes
)

// text is one document's bytes with the offsets where its lines start. Lines end at "\n" or
// "\r\n" (a lone "\r" is left inside its line: the engine's parsers do the same).
type text struct {
	src    []byte
	starts []int
}

func newText(src []byte) *text {
	starts := []int{0}
	for i, b := range src {
		if b == '\n' {
			starts = append(starts, i+1)
		}
	}
	return &text{src: src, starts: starts}
}

// line returns the bytes of line i (0-based) without its line ending ("\n" or "\r\n").
func (t *text) line(i int) []byte {
	if i < 0 || i >= len(t.starts) {
		return nil
	}
	end := len(t.src)
	if i+1 < len(t.starts) {
		end = t.starts[i+1] - 1
		if end > t.starts[i] && t.src[end-1] == '\r' {
			end--
		}
	}
	return t.src[t.starts[i]:end]
}

// position converts a byte offset into an LSP position. Offsets past the end clamp to the end;
// an offset inside a multi-byte character counts from that character's start.
func (t *text) position(off int, enc encoding) protocol.Position {
	off = max(0, min(off, len(t.src)))
	ln := sort.SearchInts(t.starts, off+1) - 1
	return protocol.Position{Line: uint32(ln), Character: uint32(units(t.src[t.starts[ln]:off], enc))}
}

// offset converts an LSP position into a byte offset. A character past the end of its line
// clamps to the line's end (the protocol says so); a line past the end clamps to the text's end.
func (t *text) offset(p protocol.Position, enc encoding) int {
	ln := int(p.Line)
	if ln >= len(t.starts) {
		return len(t.src)
	}
	start := t.starts[ln]
	line := t.line(ln)
	want := int(p.Character)
	n, i := 0, 0
	for i < len(line) && n < want {
		r, size := utf8.DecodeRune(line[i:])
		switch enc {
		case utf8Bytes:
			n += size
		case utf32Runes:
			n++
		default:
			n += max(utf16.RuneLen(r), 1) // an invalid byte counts as one unit, like U+FFFD
		}
		if n > want { // inside a surrogate pair or a multi-byte character: stay before it
			break
		}
		i += size
	}
	return start + i
}

// posFromLineCol converts a 1-based line and 1-based column in code points (the engine's
// positions) into an LSP position.
func (t *text) posFromLineCol(line, col int, enc encoding) protocol.Position {
	ln := line - 1
	if ln < 0 {
		return protocol.Position{}
	}
	if ln >= len(t.starts) {
		return t.position(len(t.src), enc)
	}
	l := t.line(ln)
	i := 0
	for c := 1; c < col && i < len(l); c++ {
		_, size := utf8.DecodeRune(l[i:])
		i += size
	}
	return t.position(t.starts[ln]+i, enc)
}

func (t *text) rangeOf(start, end int, enc encoding) protocol.Range {
	return protocol.Range{Start: t.position(start, enc), End: t.position(end, enc)}
}

// units counts b in the encoding's units.
func units(b []byte, enc encoding) int {
	switch enc {
	case utf8Bytes:
		return len(b)
	case utf32Runes:
		return utf8.RuneCount(b)
	}
	n := 0
	for len(b) > 0 {
		r, size := utf8.DecodeRune(b)
		n += max(utf16.RuneLen(r), 1)
		b = b[size:]
	}
	return n
}

// pastQuote is off, or just past the quote q at off: the closing quote an editor adds when a
// key's opening quote is typed, which a completion after it replaces too.
func (t *text) pastQuote(off int, q byte) int {
	if off < len(t.src) && t.src[off] == q {
		return off + 1
	}
	return off
}
