package benchdocs

import (
	"bytes"
	"regexp"
)

// Strict lists the docs, relative to the repository root, in which every
// measurement must be a marker: a number followed by a unit of time, rate,
// size, ratio or count outside a marker, a code span or a code block is a
// figure typed by hand. Configuration values belong in code spans
// (`lease.ttl = 2s`).
var Strict = []string{"docs/limits.md"}

var (
	fenceRE    = regexp.MustCompile("(?ms)^```.*?^```[^\n]*$")
	codeSpanRE = regexp.MustCompile("`[^`\n]*`")
	commentRE  = regexp.MustCompile(`(?s)<!--.*?-->`)
	// bareRE is a number with a unit. The number may not follow a letter,
	// digit or one of ".,-/" ("kill -9s", "TTL/3" are not figures).
	bareRE = regexp.MustCompile(`(?:^|[^\w.,/-])(\d[\d,]*(?:\.\d+)?)\s?` +
		`(ns|µs|us|ms|s|sec|seconds?|min|minutes?|hours?|` +
		`[a-z]*/s|KiB|MiB|GiB|kB|MB|GB|B|bytes|x|×|%|TTLs?|CPUs?|` +
		`round trips?|requests|faults|failures|failed|increments|messages|duplicates?)(?:$|[^\w/])`)
)

// Bare reports the lines of doc that state a measurement outside a marker,
// with the text found. Markers, code spans, fenced and indented code
// blocks and HTML comments are not read.
func Bare(doc []byte) map[int]string {
	text := markerRE.ReplaceAllFunc(doc, blank)
	text = fenceRE.ReplaceAllFunc(text, blank)
	text = codeSpanRE.ReplaceAllFunc(text, blank)
	text = commentRE.ReplaceAllFunc(text, blank)
	out := map[int]string{}
	code, prevBlank := false, true
	for i, line := range bytes.Split(text, []byte("\n")) {
		// An indented code block: indented four spaces or a tab, after a
		// blank line or more of the block.
		indented := bytes.HasPrefix(line, []byte("    ")) || bytes.HasPrefix(line, []byte("\t"))
		code = indented && (prevBlank || code)
		prevBlank = len(bytes.TrimSpace(line)) == 0
		if code {
			continue
		}
		if m := bareRE.FindSubmatch(line); m != nil {
			out[i+1] = string(bytes.TrimSpace(m[0]))
		}
	}
	return out
}

// blank replaces b with spaces, keeping its newlines so line numbers hold.
func blank(b []byte) []byte {
	out := make([]byte, len(b))
	for i, c := range b {
		if c == '\n' {
			out[i] = '\n'
		} else {
			out[i] = ' '
		}
	}
	return out
}
