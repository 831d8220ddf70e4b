package report

import (
	"strconv"
	"strings"
	"unicode/utf8"
)

// Terminal and log injection. File names, keys and values come from the files being linted,
// which a hostile repository writes: an ESC sequence in a file name would drive the terminal
// (retitle it, hide lines, fake output), a newline in a value would start a new line of output
// (in a GitHub Actions log, a line of its own that reads "::error ..." is a workflow command),
// and bidirectional controls reorder what is shown (Trojan Source). So everything the text and
// github formats show of user data goes through EscapeLine or EscapeText, which spell such
// characters the way Go escapes them (\x1b, \n, \u202e) and leave everything else as it is.

// EscapeLine escapes the control characters of s (C0 including tab and newline, DEL, C1), the
// bidirectional controls, the Unicode line and paragraph separators, and invalid UTF-8, so that
// s prints as one inert line.
func EscapeLine(s string) string { return escape(s, "") }

// EscapeText is EscapeLine that keeps newlines: for text of several lines.
func EscapeText(s string) string { return escape(s, "\n") }

// escape escapes s but for the (ASCII) characters in keep.
func escape(s string, keep string) string {
	clean := true
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 && strings.IndexByte(keep, c) < 0 || c >= 0x7f {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r < utf8.RuneSelf && strings.IndexByte(keep, byte(r)) >= 0:
			b.WriteByte(byte(r))
		case r == utf8.RuneError && size == 1:
			b.WriteString(`\x` + hex2(s[i]))
		case unsafeRune(r):
			q := strconv.QuoteRuneToASCII(r) // '\x1b', '\n', '\u202e'
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// unsafeRune reports the characters that escape spells out.
func unsafeRune(r rune) bool {
	return r < 0x20 || r >= 0x7f && r < 0xa0 || isBidi(r) || r == 0x2028 || r == 0x2029
}

// isBidi reports the Unicode bidirectional formatting characters (the marks and the embedding,
// override and isolate controls).
func isBidi(r rune) bool {
	return r == 0x061c || r == 0x200e || r == 0x200f || r >= 0x202a && r <= 0x202e || r >= 0x2066 && r <= 0x2069
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}
