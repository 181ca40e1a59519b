package blob

import (
	"crypto/rand"
	"strings"
)

// newBoundary is a multipart boundary of the kind browsers make: fixed
// dashes and text, then 16 random letters and digits.
func newBoundary() string {
	const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789"
	b := []byte("----DwkFormBoundary0000000000000000")
	tail := b[len(b)-16:]
	rand.Read(tail) // crypto/rand.Read does not fail
	for i, c := range tail {
		tail[i] = alphabet[int(c)%len(alphabet)]
	}
	return string(b)
}

// serializeForm is the HTML standard's multipart/form-data encoding of
// entries: line breaks in names and string values become CRLF, and
// names and filenames escape CR, LF and '"' as %0D, %0A and %22.
func serializeForm(entries []formEntry, boundary string) []byte {
	size := len(boundary) + 8
	for _, e := range entries {
		size += len(boundary) + len(e.name) + len(e.value) + len(e.data) + len(e.filename) + len(e.ctype) + 128
	}
	out := make([]byte, 0, size)
	for _, e := range entries {
		out = append(out, "--"...)
		out = append(out, boundary...)
		out = append(out, "\r\nContent-Disposition: form-data; name=\""...)
		out = append(out, escapeName(normalizeNewlines(e.name))...)
		if !e.isFile {
			out = append(out, "\"\r\n\r\n"...)
			out = append(out, normalizeNewlines(e.value)...)
		} else {
			out = append(out, "\"; filename=\""...)
			out = append(out, escapeName(e.filename)...)
			out = append(out, "\"\r\nContent-Type: "...)
			if e.ctype == "" {
				out = append(out, "application/octet-stream"...)
			} else {
				out = append(out, e.ctype...)
			}
			out = append(out, "\r\n\r\n"...)
			out = append(out, e.data...)
		}
		out = append(out, "\r\n"...)
	}
	out = append(out, "--"...)
	out = append(out, boundary...)
	out = append(out, "--\r\n"...)
	return out
}

var nameEscaper = strings.NewReplacer("\n", "%0A", "\r", "%0D", `"`, "%22")

func escapeName(s string) string { return nameEscaper.Replace(s) }

// normalizeNewlines turns every CR not followed by LF and every LF not
// preceded by CR into CRLF.
func normalizeNewlines(s string) string {
	if !strings.ContainsAny(s, "\r\n") {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 8)
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\r':
			b.WriteString("\r\n")
			if i+1 < len(s) && s[i+1] == '\n' {
				i++
			}
		case c == '\n':
			b.WriteString("\r\n")
		default:
			b.WriteByte(c)
		}
	}
	return b.String()
}
