package encoding

import (
	"fmt"
	"strings"

	"golang.org/x/text/encoding"
	"golang.org/x/text/encoding/htmlindex"
)

// byteDecoder turns bytes of one encoding into UTF-8, chunk by chunk.
type byteDecoder interface {
	// decode appends the decoding of b to out; with flush, the input ends
	// with b. It reports false on the first error when fatal (out is then
	// partial); otherwise errors become U+FFFD.
	decode(out []byte, b []byte, flush, fatal bool) ([]byte, bool)
	// reset forgets any unfinished input.
	reset()
	// clean reports whether no input is pending.
	clean() bool
}

var (
	_ byteDecoder = (*utf8Decoder)(nil)
	_ byteDecoder = (*utf16Decoder)(nil)
	_ byteDecoder = windows1252Decoder{}
	_ byteDecoder = (*textDecoder)(nil)
)

// decoder is the state of one TextDecoder.
type decoder struct {
	name      string // the encoding's WHATWG name
	fatal     bool
	ignoreBOM bool
	bomDone   bool // output has begun: a U+FEFF now is content
	bd        byteDecoder
	out       []byte // reused output buffer
}

// lookupEncoding resolves a WHATWG label (case-insensitive, surrounded by
// ASCII whitespace or not) to its encoding's name.
func lookupEncoding(label string) (string, encoding.Encoding, error) {
	l := strings.ToLower(strings.Trim(label, "\t\n\f\r "))
	enc, err := htmlindex.Get(l)
	if err != nil {
		return "", nil, fmt.Errorf("%q is not a valid encoding", label)
	}
	name, err := htmlindex.Name(enc)
	if err != nil || name == "replacement" {
		return "", nil, fmt.Errorf("%q is not a valid encoding", label)
	}
	return name, enc, nil
}

// newDecoder makes the state of a TextDecoder for label.
func newDecoder(label string, fatal, ignoreBOM bool) (*decoder, error) {
	name, enc, err := lookupEncoding(label)
	if err != nil {
		return nil, err
	}
	d := &decoder{name: name, fatal: fatal, ignoreBOM: ignoreBOM}
	switch name {
	case "utf-8":
		d.bd = &utf8Decoder{}
	case "utf-16le":
		d.bd = &utf16Decoder{}
	case "utf-16be":
		d.bd = &utf16Decoder{bigEndian: true}
	case "windows-1252":
		d.bd = windows1252Decoder{}
	default:
		d.bd = newTextDecoder(enc)
		d.ignoreBOM = true // only the Unicode encodings have a BOM
	}
	return d, nil
}

// decode decodes one chunk as TextDecoder.decode does. It reports false
// for malformed input in fatal mode; the decoder then starts over.
func (d *decoder) decode(b []byte, stream bool) (string, bool) {
	out, ok := d.bd.decode(d.out[:0], b, !stream, d.fatal)
	if !ok {
		d.bd.reset()
		d.bomDone = false
		return "", false
	}
	if !d.bomDone && len(out) > 0 {
		d.bomDone = true
		if !d.ignoreBOM && len(out) >= 3 && out[0] == 0xEF && out[1] == 0xBB && out[2] == 0xBF {
			out = out[3:]
		}
	}
	s := string(out)
	if cap(out) <= 64<<10 {
		d.out = out[:0]
	}
	if !stream {
		d.bomDone = false
	}
	return s, true
}
