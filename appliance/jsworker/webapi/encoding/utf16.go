package encoding

import (
	"unicode/utf16"
	"unicode/utf8"
)

// utf16Decoder is the WHATWG UTF-16LE/BE decoder: an unpaired surrogate
// is an error. Its state carries an odd byte and a lead surrogate across
// chunks.
type utf16Decoder struct {
	bigEndian bool
	hasByte   bool
	leadByte  byte
	lead      uint16 // a pending lead surrogate, or 0
}

func (d *utf16Decoder) reset() { *d = utf16Decoder{bigEndian: d.bigEndian} }

func (d *utf16Decoder) clean() bool { return !d.hasByte && d.lead == 0 }

func (d *utf16Decoder) decode(out []byte, b []byte, flush, fatal bool) ([]byte, bool) {
	for _, c := range b {
		if !d.hasByte {
			d.hasByte, d.leadByte = true, c
			continue
		}
		d.hasByte = false
		var cu uint16
		if d.bigEndian {
			cu = uint16(d.leadByte)<<8 | uint16(c)
		} else {
			cu = uint16(c)<<8 | uint16(d.leadByte)
		}
		if d.lead != 0 {
			lead := d.lead
			d.lead = 0
			if 0xDC00 <= cu && cu <= 0xDFFF {
				out = utf8.AppendRune(out, utf16.DecodeRune(rune(lead), rune(cu)))
				continue
			}
			if fatal {
				return out, false
			}
			out = utf8.AppendRune(out, utf8.RuneError)
		}
		switch {
		case 0xD800 <= cu && cu <= 0xDBFF:
			d.lead = cu
		case 0xDC00 <= cu && cu <= 0xDFFF:
			if fatal {
				return out, false
			}
			out = utf8.AppendRune(out, utf8.RuneError)
		default:
			out = utf8.AppendRune(out, rune(cu))
		}
	}
	if flush && !d.clean() {
		d.reset()
		if fatal {
			return out, false
		}
		out = utf8.AppendRune(out, utf8.RuneError)
	}
	return out, true
}
