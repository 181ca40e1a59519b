package bundle

import (
	"fmt"
	"strings"

	"github.com/evanw/esbuild/pkg/api"
)

// Message is one diagnostic from bundling, positioned in a project file.
type Message struct {
	// File is the path of the file the message is about, relative to
	// Options.Dir and slash-separated; a virtual module reads
	// "namespace:specifier". Empty when the message has no position.
	File string
	// Line is 1-based; Column is 1-based and counts bytes. Both are 0 when
	// the message has no position.
	Line, Column int
	// Text is the message itself.
	Text string
	// Notes are esbuild's follow-up remarks, each already formatted like a
	// message ("path:line:col: text" or just "text").
	Notes []string
}

// String formats m as "path:line:col: text", or "text" without a position.
func (m Message) String() string {
	if m.File == "" {
		return m.Text
	}
	return fmt.Sprintf("%s:%d:%d: %s", m.File, m.Line, m.Column, m.Text)
}

// BuildError is what Build returns when esbuild reports an error. It
// carries every error and warning of the build, not only the first.
type BuildError struct {
	Errors   []Message
	Warnings []Message
}

// Error lists every error, then every warning, one per line, each as
// "path:line:col: text" with its notes indented below it.
func (e *BuildError) Error() string {
	var b strings.Builder
	noun := "errors"
	if len(e.Errors) == 1 {
		noun = "error"
	}
	fmt.Fprintf(&b, "bundle: %d %s", len(e.Errors), noun)
	write := func(prefix string, m Message) {
		b.WriteString("\n")
		if prefix != "" && m.File != "" {
			fmt.Fprintf(&b, "%s:%d:%d: %s%s", m.File, m.Line, m.Column, prefix, m.Text)
		} else {
			b.WriteString(prefix + m.String())
		}
		for _, n := range m.Notes {
			b.WriteString("\n    " + strings.ReplaceAll(n, "\n", "\n    "))
		}
	}
	for _, m := range e.Errors {
		write("", m)
	}
	for _, m := range e.Warnings {
		write("warning: ", m)
	}
	return b.String()
}

// Texts of esbuild messages that dwk rewords.
const (
	// tlaText starts esbuild's error for top-level await in a format that
	// cannot express it (IIFE here).
	tlaText = "Top-level await is currently not supported"
	// externalNote is in esbuild's note on an unresolved import, which
	// suggests marking it external: a dwk bundle has no externals.
	externalNote = "as external to exclude it from the bundle"
	// aliasNote replaces it, as wrangler replaces it.
	aliasNote = `To fix this, install the package or add an entry to "alias" in your wrangler configuration.`
)

// convertMessages turns esbuild's messages into Messages, rewriting the ones
// dwk has a better explanation for.
func convertMessages(msgs []api.Message) []Message {
	out := make([]Message, 0, len(msgs))
	for _, m := range msgs {
		text := m.Text
		if strings.HasPrefix(text, tlaText) {
			text = "top-level await: dwk cannot run it yet (a Worker runs as one classic script, " +
				"which cannot wait at the top level); move the await into a handler or initialise lazily"
		}
		msg := Message{Text: text}
		msg.File, msg.Line, msg.Column = position(m.Location)
		for _, n := range m.Notes {
			if strings.Contains(n.Text, externalNote) {
				n = api.Note{Text: aliasNote}
			}
			if n.Text == "" {
				continue
			}
			note := Message{Text: n.Text}
			note.File, note.Line, note.Column = position(n.Location)
			msg.Notes = append(msg.Notes, note.String())
		}
		out = append(out, msg)
	}
	return out
}

// position returns a location's file, 1-based line and 1-based column.
func position(l *api.Location) (file string, line, column int) {
	if l == nil || l.File == "" {
		return "", 0, 0
	}
	// esbuild already writes a virtual module's file as "namespace:path".
	return l.File, l.Line, l.Column + 1
}
