package htmlrewriter

import (
	"bytes"
	"errors"
	"io"
	"unicode/utf8"

	"golang.org/x/net/html"
)

// errNeedMore is what the tokenizer's reader returns at the end of a
// chunk that is not the last: the token it was reading may go on in the
// next chunk.
var errNeedMore = errors.New("htmlrewriter: the chunk ended inside a token")

// minWait is the size from which a token that does not end in its window
// waits for the input to double before it is tokenized again.
const minWait = 4096

// errEnded is a feed after the last chunk.
var errEnded = errors.New("htmlrewriter: the document has ended")

// chunkReader gives the tokenizer one window of input, then io.EOF if it
// is the document's last or errNeedMore if not. hitEnd records the
// latter: the tokenizer's Err reports errors with ErrorToken only, but
// the token it was reading when it hit the end may be a text or comment
// token that the next chunk continues.
type chunkReader struct {
	prefix []byte
	b      []byte
	final  bool
	hitEnd bool
}

func (r *chunkReader) Read(p []byte) (int, error) {
	if len(r.prefix) > 0 {
		n := copy(p, r.prefix)
		r.prefix = r.prefix[n:]
		return n, nil
	}
	if len(r.b) == 0 {
		if r.final {
			return 0, io.EOF
		}
		r.hitEnd = true
		return 0, errNeedMore
	}
	n := copy(p, r.b)
	r.b = r.b[n:]
	return n, nil
}

// feed tokenizes chunk, after what the previous chunk left unfinished,
// and returns the entries to handle and how many bytes of the window
// (the leftover and chunk) they cover; the rest waits for the next chunk.
// final says chunk is the document's end: everything is consumed. The
// window stays readable through s.window until the next feed.
//
// golang.org/x/net/html's tokenizer cannot resume a token it stopped in,
// so each feed starts a tokenizer at the first unfinished token. Inside a
// raw text element (script, style, textarea…) the new tokenizer first
// reads a made-up start tag for it, which puts it in the right state. A
// token the chunk cut off waits whole, except text, which is reported up
// to the last point where no tag can start (and no UTF-8 sequence is
// cut), as lol-html reports text as it comes.
func (s *scanner) feed(chunk []byte, final bool) (consumed int, entries []entry, err error) {
	if s.ended {
		return 0, nil, errEnded
	}
	s.out, s.arena, s.attrArena = s.out[:0], s.arena[:0], s.attrArena[:0]
	if !final && len(s.tail)+len(chunk) < s.waitFor {
		// A long token is still coming in: read it again only once the
		// input has doubled, so that a megabyte of attribute costs
		// O(n log n), not O(n²).
		s.tail = append(s.tail, chunk...)
		s.window = s.window[:0]
		return 0, s.out, nil
	}
	window := make([]byte, 0, len(s.tail)+len(chunk))
	window = append(append(window, s.tail...), chunk...)
	s.scanned += len(window)

	r := &chunkReader{b: window, final: final}
	if s.rawTag != "" {
		r.prefix = []byte("<" + s.rawTag + ">")
	}
	z := html.NewTokenizer(r)
	z.AllowCDATA(s.tree.currentNS() != nsHTML)
	if r.prefix != nil {
		z.Next() // the made-up start tag
	}
	off := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		raw := z.Raw()
		if r.hitEnd {
			if tt == html.TextToken {
				if n := s.safeTextLen(raw); n > 0 {
					s.onText(raw[:n], off, off+n)
					off += n
				}
			}
			break
		}
		end := off + len(raw)
		switch tt {
		case html.TextToken:
			s.onText(raw, off, end)
		case html.StartTagToken, html.SelfClosingTagToken:
			s.onStartTag(z, raw, off, end)
		case html.EndTagToken:
			s.onEndTag(z, raw, off, end)
		case html.CommentToken:
			s.onComment(raw, off, end)
		case html.DoctypeToken:
			s.onDoctype(raw, off, end)
		}
		off = end
	}
	if final {
		// What is left is a tag the document ends inside of: it goes out
		// as it is.
		off = len(window)
		s.endText(off)
		s.ended = true
		s.tail = nil
	} else {
		s.tail = append([]byte(nil), window[off:]...)
		s.waitFor = 0
		if off == 0 && len(window) >= minWait {
			s.waitFor = 2 * len(window)
		}
	}
	s.window = window[:off]
	return off, s.out, nil
}

// safeTextLen returns how much of text that a chunk cut off can be
// reported now: up to the last '<' (which may start a tag), all of the
// plaintext element's content, none of a CDATA section, nor of a script
// that entered the escaped states (whose tokenizing depends on what came
// before), and never part of a UTF-8 sequence.
func (s *scanner) safeTextLen(raw []byte) int {
	n := len(raw)
	switch {
	case bytes.HasPrefix(raw, []byte("<![CDATA[")):
		return 0
	case s.rawTag == "plaintext":
	case s.rawTag == "script" && bytes.Contains(raw, []byte("<!--")):
		return 0
	default:
		if i := bytes.LastIndexByte(raw, '<'); i >= 0 {
			n = i
		}
	}
	for i := n - 1; i >= 0 && i >= n-utf8.UTFMax; i-- {
		if c := raw[i]; c < utf8.RuneSelf {
			break
		} else if utf8.RuneStart(c) {
			if !utf8.FullRune(raw[i:n]) {
				n = i
			}
			break
		}
	}
	return n
}
