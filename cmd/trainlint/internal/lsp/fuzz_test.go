package lsp

import (
	"testing"
	"unicode/utf8"

	"go.lsp.dev/protocol"
)

// FuzzPositions checks the conversions between byte offsets and LSP positions on any text (invalid
// UTF-8, CR LF, surrogate pairs): offset never leaves the text, and every character boundary
// survives the round trip in each encoding.
func FuzzPositions(f *testing.F) {
	f.Add([]byte("a: 1\nb: \"é😀\"\r\nc: 3"), uint32(1), uint32(5))
	f.Add([]byte("\xff\xfe\n\n😀"), uint32(2), uint32(1))
	f.Add([]byte(""), uint32(0), uint32(0))
	f.Fuzz(fuzzBody)
}

func fuzzBody(t *testing.T, src []byte, line, char uint32) {
	{
		if len(src) > 512 { // the round trip below is quadratic in a line's length
			src = src[:512]
		}
		tx := newText(src)
		for _, enc := range []encoding{utf16Units, utf8Bytes, utf32Runes} {
			off := tx.offset(protocol.Position{Line: line, Character: char}, enc)
			if off < 0 || off > len(src) {
				t.Fatalf("enc %d: offset %d outside [0,%d]", enc, off, len(src))
			}
			for i := 0; i <= len(src); i++ {
				if i < len(src) && !utf8.RuneStart(src[i]) {
					continue
				}
				p := tx.position(i, enc)
				if back := tx.offset(p, enc); back != i && !(i > 0 && src[i-1] == '\r' && i < len(src) && src[i] == '\n') {
					t.Fatalf("enc %d: offset %d -> %+v -> %d", enc, i, p, back)
				}
			}
		}
	}
}
