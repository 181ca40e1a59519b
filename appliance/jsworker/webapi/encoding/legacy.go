package encoding

import (
	"bytes"
	"errors"
	"unicode/utf8"

	"golang.org/x/text/encoding"
	"golang.org/x/text/transform"
)

// windows1252High maps the bytes 0x80–0x9F of windows-1252 (the encoding
// of the labels latin1, ascii and iso-8859-1) to code points; the other
// bytes are their own code points.
var windows1252High = [32]rune{
	0x20AC, 0x0081, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021,
	0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0x008D, 0x017D, 0x008F,
	0x0090, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014,
	0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0x009D, 0x017E, 0x0178,
}

// windows1252Decoder never fails and keeps no state.
type windows1252Decoder struct{}

func (windows1252Decoder) reset()      {}
func (windows1252Decoder) clean() bool { return true }

func (windows1252Decoder) decode(out []byte, b []byte, _, _ bool) ([]byte, bool) {
	for _, c := range b {
		switch {
		case c < 0x80:
			out = append(out, c)
		case c < 0xA0:
			out = utf8.AppendRune(out, windows1252High[c-0x80])
		default:
			out = utf8.AppendRune(out, rune(c))
		}
	}
	return out, true
}

// textDecoder decodes the other WHATWG encodings (the CJK ones, the other
// single-byte ones) with golang.org/x/text, which replaces errors with
// U+FFFD itself: in fatal mode any U+FFFD in the output is taken as an
// error, which is exact for every encoding but gb18030 (which can encode
// U+FFFD).
type textDecoder struct {
	enc     encoding.Encoding
	t       transform.Transformer
	pending []byte // input the transformer has not consumed yet
}

func newTextDecoder(enc encoding.Encoding) *textDecoder {
	return &textDecoder{enc: enc, t: enc.NewDecoder()}
}

func (d *textDecoder) reset() {
	d.t = d.enc.NewDecoder()
	d.pending = d.pending[:0]
}

func (d *textDecoder) clean() bool { return len(d.pending) == 0 }

func (d *textDecoder) decode(out []byte, b []byte, flush, fatal bool) ([]byte, bool) {
	src := b
	if len(d.pending) > 0 {
		src = append(d.pending, b...)
	}
	start := len(out)
	buf := make([]byte, 4096)
	for {
		nDst, nSrc, err := d.t.Transform(buf, src, flush)
		out = append(out, buf[:nDst]...)
		src = src[nSrc:]
		if err == nil {
			break
		}
		if errors.Is(err, transform.ErrShortDst) {
			continue
		}
		if errors.Is(err, transform.ErrShortSrc) && !flush {
			break
		}
		// An error the decoder did not replace (a short source at the
		// end of the input): one replacement character, as WHATWG does.
		if fatal {
			d.reset()
			return out, false
		}
		out = utf8.AppendRune(out, utf8.RuneError)
		src = nil
		break
	}
	d.pending = append(d.pending[:0], src...)
	if flush {
		d.reset()
	}
	if fatal && bytes.ContainsRune(out[start:], utf8.RuneError) {
		d.reset()
		return out, false
	}
	return out, true
}
