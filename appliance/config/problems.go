package config

import (
	"fmt"
	"strings"
)

// Problem is one thing wrong with a config, at a JSON path such as
// "storage.libsql.url" or "workers[1].routes[0]".
type Problem struct {
	Path    string
	Message string
}

func (p Problem) String() string {
	if p.Path == "" {
		return p.Message
	}
	return p.Path + ": " + p.Message
}

// Problems is every problem found; it is an error when non-empty.
type Problems []Problem

func (ps Problems) Error() string {
	lines := make([]string, len(ps))
	for i, p := range ps {
		lines[i] = p.String()
	}
	return fmt.Sprintf("%d problem(s):\n  %s", len(ps), strings.Join(lines, "\n  "))
}

func (ps *Problems) add(path, format string, args ...any) {
	*ps = append(*ps, Problem{Path: path, Message: fmt.Sprintf(format, args...)})
}
