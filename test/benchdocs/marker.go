package benchdocs

import (
	"bytes"
	"fmt"
	"regexp"
)

// markerRE matches one marker and the figure text it wraps, on one line:
// <!-- fig SOURCE:KEY -->TEXT<!-- /fig -->.
var markerRE = regexp.MustCompile(`<!-- fig ([a-z0-9][a-z0-9.-]*):([A-Za-z0-9_.+-]+) -->([^<\n]*)<!-- /fig -->`)

// markerOpen is how every marker starts; one that markerRE does not match
// is malformed.
var markerOpen = []byte("<!-- fig ")

// Ref is one marker in a doc.
type Ref struct {
	// Source names the result file: bench/<Source>.json.
	Source string
	// Key is the figure's key in that file's "figures".
	Key string
	// Text is the figure text the doc holds now.
	Text string
	// Line is the marker's line, from 1.
	Line int
}

// Refs lists the markers of doc in order. It fails on a marker that is
// not well formed (no closing marker on the same line, a bad source or
// key).
func Refs(doc []byte) ([]Ref, error) {
	var refs []Ref
	ms := markerRE.FindAllSubmatchIndex(doc, -1)
	for _, m := range ms {
		refs = append(refs, Ref{
			Source: string(doc[m[2]:m[3]]), Key: string(doc[m[4]:m[5]]), Text: string(doc[m[6]:m[7]]),
			Line: 1 + bytes.Count(doc[:m[0]], []byte("\n")),
		})
	}
	if n := bytes.Count(doc, markerOpen); n != len(ms) {
		for i, off := 0, 0; i < n; i++ {
			at := off + bytes.Index(doc[off:], markerOpen)
			if !startsMarker(ms, at) {
				return nil, fmt.Errorf("line %d: malformed figure marker (want <!-- fig SOURCE:KEY -->TEXT<!-- /fig --> on one line)", 1+bytes.Count(doc[:at], []byte("\n")))
			}
			off = at + len(markerOpen)
		}
	}
	return refs, nil
}

func startsMarker(ms [][]int, at int) bool {
	for _, m := range ms {
		if m[0] == at {
			return true
		}
	}
	return false
}

// Lookup returns the figure a marker names.
type Lookup func(source, key string) (Figure, error)

// Fill returns doc with the text of every marker replaced by the figure it
// names. Everything outside the markers is kept byte for byte.
func Fill(doc []byte, lookup Lookup) ([]byte, error) {
	if _, err := Refs(doc); err != nil {
		return nil, err
	}
	var firstErr error
	out := markerRE.ReplaceAllFunc(doc, func(m []byte) []byte {
		sub := markerRE.FindSubmatch(m)
		f, err := lookup(string(sub[1]), string(sub[2]))
		if err != nil {
			if firstErr == nil {
				firstErr = fmt.Errorf("line %d: %w", 1+bytes.Count(doc[:bytes.Index(doc, m)], []byte("\n")), err)
			}
			return m
		}
		return fmt.Appendf(nil, "<!-- fig %s:%s -->%s<!-- /fig -->", sub[1], sub[2], f.Text)
	})
	if firstErr != nil {
		return nil, firstErr
	}
	return out, nil
}
