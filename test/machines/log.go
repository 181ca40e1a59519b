package machines

import (
	"os"
	"regexp"
	"strings"
)

// escapes matches terminal control sequences in console output.
var escapes = regexp.MustCompile(`\x1b(\[[0-9;?]*[A-Za-z]|\][^\x07]*\x07|[()][A-Za-z0-9])`)

// tail returns the last n lines of the file at path, without terminal
// control sequences and carriage returns.
func tail(path string, n int) string {
	b, err := os.ReadFile(path)
	if err != nil {
		return "(" + err.Error() + ")"
	}
	s := escapes.ReplaceAllString(string(b), "")
	s = strings.ReplaceAll(s, "\r", "")
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
