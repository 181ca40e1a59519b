package encoding

// DecodeUTF8 is the Encoding Standard's "UTF-8 decode without BOM": each
// maximal malformed subpart of b becomes one U+FFFD. Other packages use
// it where the standards decode bytes this way (URL query strings).
func DecodeUTF8(b []byte) string {
	var d utf8Decoder
	out, _ := d.decode(make([]byte, 0, len(b)), b, true, false)
	return string(out)
}
