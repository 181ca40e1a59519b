package blob

import (
	"bytes"
	"io"
	"mime"
	"mime/multipart"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/webapi/encoding"
)

// formEntry is one entry of a parsed form: a string value, or a file
// (isFile) with its bytes, name and type.
type formEntry struct {
	name     string
	value    string
	isFile   bool
	data     []byte
	filename string
	ctype    string
}

// parseForm parses a body of Content-Type contentType:
// multipart/form-data or application/x-www-form-urlencoded. Its errors
// are TypeErrors that say what is wrong with the body.
func parseForm(body []byte, contentType string) ([]formEntry, error) {
	mediatype, params, err := mime.ParseMediaType(contentType)
	switch {
	case err == nil && mediatype == "multipart/form-data":
		boundary := params["boundary"]
		if boundary == "" {
			return nil, jsrt.Errorf("TypeError", "No boundary string in Content-Type header. The multipart/form-data MIME type requires a boundary parameter, e.g. 'Content-Type: multipart/form-data; boundary=\"abcd\"'. See RFC 7578, section 4.")
		}
		return parseMultipart(body, boundary)
	case err == nil && mediatype == "application/x-www-form-urlencoded":
		if cs, ok := params["charset"]; ok && !isUTF8Label(cs) {
			return nil, jsrt.Errorf("TypeError", "Non-utf-8 application/x-www-form-urlencoded body (charset %q).", cs)
		}
		return parseURLEncoded(body), nil
	}
	return nil, jsrt.Errorf("TypeError", "Unrecognized Content-Type header value %q. FormData can only parse the following MIME types: multipart/form-data, application/x-www-form-urlencoded", contentType)
}

func isUTF8Label(s string) bool {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "utf-8", "utf8", "unicode-1-1-utf-8":
		return true
	}
	return false
}

// parseMultipart reads every part of a multipart/form-data body: a part
// with a filename is a file, any other a string (UTF-8).
func parseMultipart(body []byte, boundary string) ([]formEntry, error) {
	if !bytes.Contains(body, []byte("--"+boundary)) {
		return nil, jsrt.Errorf("TypeError", "No initial boundary string (or you have a truncated message).")
	}
	r := multipart.NewReader(bytes.NewReader(body), boundary)
	var out []formEntry
	for {
		p, err := r.NextRawPart()
		if err == io.EOF { // a wrapped EOF is a truncated body
			return out, nil
		}
		if err != nil {
			return nil, jsrt.Errorf("TypeError", "The multipart/form-data body is malformed after %d parts: %v", len(out), err)
		}
		e, err := partEntry(p)
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
}

func partEntry(p *multipart.Part) (formEntry, error) {
	cd := p.Header.Get("Content-Disposition")
	if cd == "" {
		return formEntry{}, jsrt.Errorf("TypeError", "No valid Content-Disposition header found in FormData part.")
	}
	disposition, params, err := mime.ParseMediaType(cd)
	if err != nil {
		return formEntry{}, jsrt.Errorf("TypeError", "Invalid Content-Disposition header found in FormData part: %q.", cd)
	}
	if disposition != "form-data" {
		return formEntry{}, jsrt.Errorf("TypeError", "Content-Disposition header for FormData part must have the value \"form-data\", possibly followed by parameters. Got: %q", disposition)
	}
	name, ok := params["name"]
	if !ok {
		return formEntry{}, jsrt.Errorf("TypeError", "Content-Disposition header in FormData part is missing a name.")
	}
	data, err := io.ReadAll(p)
	if err != nil {
		return formEntry{}, jsrt.Errorf("TypeError", "The multipart/form-data body is truncated in the part %q: %v", name, err)
	}
	filename, isFile := params["filename"]
	if !isFile {
		return formEntry{name: name, value: encoding.DecodeUTF8(data)}, nil
	}
	return formEntry{name: name, isFile: true, data: data, filename: filename, ctype: p.Header.Get("Content-Type")}, nil
}

// parseURLEncoded is the application/x-www-form-urlencoded parser:
// sequences split at '&', name and value at the first '=', '+' as a
// space, percent-decoding (a malformed escape stays as it is), UTF-8.
func parseURLEncoded(body []byte) []formEntry {
	var out []formEntry
	for _, seq := range bytes.Split(body, []byte("&")) {
		if len(seq) == 0 {
			continue
		}
		name, value, _ := bytes.Cut(seq, []byte("="))
		out = append(out, formEntry{name: percentDecode(name), value: percentDecode(value)})
	}
	return out
}

func percentDecode(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case c == '+':
			out = append(out, ' ')
		case c == '%' && i+2 < len(b) && isHex(b[i+1]) && isHex(b[i+2]):
			out = append(out, unhex(b[i+1])<<4|unhex(b[i+2]))
			i += 2
		default:
			out = append(out, c)
		}
	}
	return encoding.DecodeUTF8(out)
}

func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c <= 'F':
		return c - 'A' + 10
	}
	return c - 'a' + 10
}
