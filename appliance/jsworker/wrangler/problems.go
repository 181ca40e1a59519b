package wrangler

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
)

// Problem is one thing wrong with (or worth knowing about) a wrangler
// configuration: the file's base name, the key path in it (such as
// "env.staging.d1_databases[1].database_name"; empty for the file as a
// whole) and what to do about it.
type Problem struct {
	// File is the base name of the file the problem is in, such as
	// "wrangler.toml" or ".dev.vars"; empty for a problem with a process
	// environment setting.
	File string
	// Path is the key path, such as "env.staging.vars.API_URL".
	Path string
	// Message says what is wrong and what to do.
	Message string
}

// String renders the problem as "file: path: message".
func (p Problem) String() string {
	var b strings.Builder
	if p.File != "" {
		b.WriteString(p.File)
		b.WriteString(": ")
	}
	if p.Path != "" {
		b.WriteString(p.Path)
		b.WriteString(": ")
	}
	b.WriteString(p.Message)
	return b.String()
}

// Problems is every error Load found; it is an error when non-empty, one
// problem per line.
type Problems []Problem

// Error lists every problem, one per line.
func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// report collects errors and warnings while a file is read. The same
// problem found twice (a top-level value checked once for the top level
// and once more because an environment inherits it) is kept once.
type report struct {
	file     string
	errors   []Problem
	warnings []Problem
	seen     map[Problem]bool
}

func newReport(file string) *report {
	return &report{file: file, seen: map[Problem]bool{}}
}

func (r *report) errorf(path, format string, args ...any) {
	r.add(&r.errors, path, fmt.Sprintf(format, args...))
}

func (r *report) warnf(path, format string, args ...any) {
	r.add(&r.warnings, path, fmt.Sprintf(format, args...))
}

func (r *report) add(list *[]Problem, path, msg string) {
	p := Problem{File: r.file, Path: path, Message: msg}
	if r.seen[p] {
		return
	}
	r.seen[p] = true
	*list = append(*list, p)
}

// failed reports whether any error has been found.
func (r *report) failed() bool { return len(r.errors) > 0 }

// join appends key to a path: "a.b" for plain keys, `a["x.y"]` for keys
// that would be ambiguous after a dot.
func join(path, key string) string {
	if !plainKey(key) {
		return path + "[" + strconv.Quote(key) + "]"
	}
	if path == "" {
		return key
	}
	return path + "." + key
}

func index(path string, i int) string {
	return path + "[" + strconv.Itoa(i) + "]"
}

func plainKey(k string) bool {
	if k == "" {
		return false
	}
	for _, c := range k {
		ok := c == '_' || c == '-' || c == '$' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		if !ok {
			return false
		}
	}
	return true
}

// sortedKeys returns m's keys in order, so problems come out the same way
// every time.
func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
