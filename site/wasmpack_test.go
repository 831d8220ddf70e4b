package site

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"
)

// memImage applies a module's active data segments to zeroed memory, as instantiation does.
func memImage(t *testing.T, mod []byte) (mem []byte, segments int) {
	t.Helper()
	p := 8
	for p < len(mod) {
		id := mod[p]
		size, n := binary.Uvarint(mod[p+1:])
		body := mod[p+1+n : p+1+n+int(size)]
		p += 1 + n + int(size)
		if id != 11 {
			continue
		}
		count, n := binary.Uvarint(body)
		q := n
		for i := uint64(0); i < count; i++ {
			q += 2
			off, n := sleb32(body[q:])
			q += n + 1
			l, n := binary.Uvarint(body[q:])
			q += n
			if need := int(off) + int(l); need > len(mem) {
				mem = append(mem, make([]byte, need-len(mem))...)
			}
			copy(mem[off:], body[q:q+int(l)])
			q += int(l)
			segments++
		}
	}
	return mem, segments
}

func wasmModule(sections ...[]byte) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	for _, s := range sections {
		m = append(m, s...)
	}
	return m
}

func section(id byte, body []byte) []byte {
	return append(binary.AppendUvarint([]byte{id}, uint64(len(body))), body...)
}

func dataSection(segs map[int32]string, order []int32) []byte {
	b := binary.AppendUvarint(nil, uint64(len(order)))
	for _, off := range order {
		b = append(b, 0, 0x41)
		b = appendSleb32(b, off)
		b = append(b, 0x0b)
		b = binary.AppendUvarint(b, uint64(len(segs[off])))
		b = append(b, segs[off]...)
	}
	return section(11, b)
}

// TestPackWASMData: the packed module starts with the same memory from one segment, keeps every
// other section as it was, and modules of another shape are refused rather than changed.
func TestPackWASMData(t *testing.T) {
	custom := section(0, append([]byte{4}, "name"...))
	code := section(10, []byte{0})
	// Offsets chosen so their LEB128 encodings need the sign-bit padding byte (0x40 set).
	segs := map[int32]string{0x40: "ab", 0x1000: "hello", 0x2040: strings.Repeat("x", 300), 70: "z"}
	mod := wasmModule(custom, code, dataSection(segs, []int32{0x1000, 0x40, 0x2040, 70}))
	packed, err := PackWASMData(mod)
	if err != nil {
		t.Fatal(err)
	}
	want, n := memImage(t, mod)
	got, m := memImage(t, packed)
	if n != 4 || m != 1 {
		t.Errorf("segments before %d after %d, want 4 and 1", n, m)
	}
	if !bytes.Equal(got, want) {
		t.Error("the packed module's initial memory differs")
	}
	if !bytes.Contains(packed, custom) || !bytes.Contains(packed, code) {
		t.Error("other sections were not kept")
	}

	for name, bad := range map[string][]byte{
		"not wasm":        []byte("\x7fELF...."),
		"no data section": wasmModule(code),
		"data count":      wasmModule(section(12, []byte{1}), dataSection(segs, []int32{70})),
		"passive segment": wasmModule(section(11, []byte{1, 1, 1, 'x'})),
		"truncated":       wasmModule(section(11, []byte{2, 0, 0x41, 0, 0x0b, 1, 'x'})),
	} {
		if _, err := PackWASMData(bad); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
