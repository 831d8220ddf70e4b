package doc

// Parse reads src as the given format and returns its Document. It never panics and never
// returns a nil Document: what is wrong with the bytes is in Document.Problems, and a file that
// cannot be parsed at all has a nil Root.
func Parse(path string, src []byte, f Format, lim Limits) (d *Document) {
	lim = lim.withDefaults()
	d = &Document{Path: path, Format: f, Src: src}
	defer func() {
		if r := recover(); r != nil {
			d.Root, d.More = nil, nil
			d.Problems = append(d.Problems, Problem{Rule: "parse-error", Message: "the parser could not read this file", Span: d.Lines().Span(0, 0)})
		}
	}()
	if len(src) > lim.MaxBytes {
		d.Problems = append(d.Problems, Problem{Rule: "input-limit-exceeded",
			Message: "file is " + humanBytes(len(src)) + ", over the limit of " + humanBytes(lim.MaxBytes) + "; it was not analysed",
			Span:    d.Lines().Span(0, 0)})
		return d
	}
	switch f {
	case YAML:
		parseYAML(d, lim)
	case JSON:
		parseJSON(d, lim)
	case TOML:
		parseTOML(d, lim)
	default:
		d.Problems = append(d.Problems, Problem{Rule: "parse-error", Message: "unknown format " + string(f), Span: d.Lines().Span(0, 0)})
	}
	return d
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

func itoa(n int) string {
	if n == 0 {
		return "0"
	}
	var b [20]byte
	i := len(b)
	neg := n < 0
	if neg {
		n = -n
	}
	for n > 0 {
		i--
		b[i] = byte('0' + n%10)
		n /= 10
	}
	if neg {
		i--
		b[i] = '-'
	}
	return string(b[i:])
}
