package htmlrewriter

import "bytes"

// The raw bytes of complete tokens taken apart. The tokenizer decides
// where tokens begin and end; these read what is inside them without
// decoding character references, since lol-html hands handlers attribute
// values, text and comments as they are in the source.

// span is a half-open byte range [0, 1) inside a token's raw bytes.
type span [2]int

// A rawAttr is one attribute of a start tag: its name, its value without
// quotes, and where the whole attribute (name to closing quote) ends.
type rawAttr struct {
	name, value span
	end         int
	unquoted    bool
}

// A startTag is a start tag's parts, as offsets into its raw bytes.
type startTag struct {
	name        span
	attrs       []rawAttr
	selfClosing bool
}

func isSpace(c byte) bool {
	return c == ' ' || c == '\n' || c == '\r' || c == '\t' || c == '\f'
}

// parseStartTag reads a complete start tag ("<a href=x>"), following the
// tokenizer of golang.org/x/net/html (the WHATWG tag states) so that the
// two agree on every boundary. Attributes with an empty name are
// dropped; attrs is reused for the result.
func parseStartTag(raw []byte, attrs []rawAttr) startTag {
	t := startTag{attrs: attrs[:0]}
	n := len(raw)
	if n > 0 && raw[n-1] == '>' {
		n-- // the scan stops at the closing '>'
	}
	pos := 1
	for pos < n && !isSpace(raw[pos]) && raw[pos] != '/' {
		pos++
	}
	t.name = span{1, pos}
	skip := func() {
		for pos < n && isSpace(raw[pos]) {
			pos++
		}
	}
	skip()
	for pos < n {
		a := rawAttr{}
		// The name: up to whitespace, '/', '>' or a '=' that is not first.
		a.name[0] = pos
		for pos < n {
			c := raw[pos]
			if c == '=' && pos == a.name[0] {
				pos++
				continue
			}
			if isSpace(c) || c == '/' || c == '=' {
				break
			}
			pos++
		}
		a.name[1] = pos
		a.end = pos
		a.value = span{pos, pos}
		// The value, if an '=' follows.
		skip()
		if pos < n && raw[pos] == '/' {
			pos++
		} else if pos < n && raw[pos] == '=' {
			pos++
			skip()
			if pos < n {
				switch q := raw[pos]; q {
				case '"', '\'':
					pos++
					a.value[0] = pos
					for pos < n && raw[pos] != q {
						pos++
					}
					a.value[1] = pos
					if pos < n {
						pos++ // the closing quote
					}
					a.end = pos
				default:
					a.value[0] = pos
					for pos < n && !isSpace(raw[pos]) {
						pos++
					}
					a.value[1] = pos
					a.end = pos
					a.unquoted = true
				}
			} else {
				a.value = span{pos, pos}
			}
		}
		if a.name[1] > a.name[0] {
			t.attrs = append(t.attrs, a)
		}
		skip()
	}
	if len(raw) >= 2 && raw[len(raw)-2] == '/' && len(raw) > 2 {
		last := len(t.attrs) - 1
		t.selfClosing = last < 0 || !(t.attrs[last].unquoted && t.attrs[last].value[1] == n)
	}
	return t
}

// endTagName returns the name in a complete end tag ("</a >").
func endTagName(raw []byte) []byte {
	end := 2
	for end < len(raw) && !isSpace(raw[end]) && raw[end] != '/' && raw[end] != '>' {
		end++
	}
	return raw[2:end]
}

// commentText returns the text of a comment: what is between "<!--" and
// "-->" (or "--!>"), or the inside of a bogus comment ("<!x>", "<?x>",
// "</ x>"), keeping the '?' of a processing instruction as the HTML
// tokenizer does.
func commentText(raw []byte) []byte {
	switch {
	case bytes.HasPrefix(raw, []byte("<!--")):
		body := raw[4:]
		switch {
		case bytes.HasSuffix(body, []byte("--!>")) && len(body) >= 4:
			return body[:len(body)-4]
		case bytes.HasSuffix(body, []byte("-->")) && len(body) >= 3:
			return body[:len(body)-3]
		case bytes.Equal(body, []byte(">")) || bytes.Equal(body, []byte("->")):
			return nil
		}
		return bytes.TrimRight(body, "-") // unterminated at the end of the input
	case bytes.HasPrefix(raw, []byte("<?")):
		return bytes.TrimSuffix(raw[1:], []byte(">"))
	case len(raw) >= 2:
		return bytes.TrimSuffix(raw[2:], []byte(">"))
	}
	return nil
}

// doctype is a DOCTYPE's name, public and system identifiers; nil for
// those it lacks.
type doctype struct {
	name, publicID, systemID []byte
}

// parseDoctype reads "<!DOCTYPE html PUBLIC "…" "…">" as the HTML
// tokenizer's DOCTYPE states do: the name in lower case, identifiers
// after a PUBLIC or SYSTEM keyword, in either kind of quotes.
func parseDoctype(raw []byte) doctype {
	var d doctype
	s := bytes.TrimSuffix(raw, []byte(">"))
	if len(s) < len("<!DOCTYPE") {
		return d
	}
	s = s[len("<!DOCTYPE"):]
	s = bytes.TrimLeft(s, " \n\r\t\f")
	end := 0
	for end < len(s) && !isSpace(s[end]) {
		end++
	}
	if end == 0 {
		return d
	}
	d.name = bytes.ToLower(s[:end])
	s = bytes.TrimLeft(s[end:], " \n\r\t\f")
	if len(s) < 6 {
		return d
	}
	keyword := string(bytes.ToUpper(s[:6]))
	s = s[6:]
	quoted := func() ([]byte, bool) {
		s = bytes.TrimLeft(s, " \n\r\t\f")
		if len(s) == 0 || s[0] != '"' && s[0] != '\'' {
			return nil, false
		}
		q := s[0]
		end := bytes.IndexByte(s[1:], q)
		if end < 0 {
			v := s[1:]
			s = nil
			return v, true
		}
		v := s[1 : 1+end]
		s = s[end+2:]
		return v, true
	}
	switch keyword {
	case "PUBLIC":
		if v, ok := quoted(); ok {
			d.publicID = append([]byte{}, v...)
			if v, ok := quoted(); ok {
				d.systemID = append([]byte{}, v...)
			}
		}
	case "SYSTEM":
		if v, ok := quoted(); ok {
			d.systemID = append([]byte{}, v...)
		}
	}
	return d
}
