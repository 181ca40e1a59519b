package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"strings"
	"unicode"

	"golang.org/x/term"
	"golang.org/x/text/width"
)

// isTerminal reports whether w is a terminal: commands print tables for
// people there, and JSON for programs elsewhere, as wrangler does.
func isTerminal(w any) bool {
	f, ok := w.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}

// writeTable writes rows under header in a box, as wrangler's tables look.
func writeTable(w io.Writer, header []string, rows [][]string) {
	width := make([]int, len(header))
	for i, h := range header {
		width[i] = displayWidth(h)
	}
	for _, r := range rows {
		for i, c := range r {
			if n := displayWidth(c); i < len(width) && n > width[i] {
				width[i] = n
			}
		}
	}
	rule := func(left, mid, right string) string {
		parts := make([]string, len(width))
		for i, n := range width {
			parts[i] = strings.Repeat("─", n+2)
		}
		return left + strings.Join(parts, mid) + right + "\n"
	}
	line := func(cells []string) string {
		parts := make([]string, len(width))
		for i, n := range width {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			parts[i] = " " + c + strings.Repeat(" ", n-displayWidth(c)) + " "
		}
		return "│" + strings.Join(parts, "│") + "│\n"
	}
	var b strings.Builder
	b.WriteString(rule("┌", "┬", "┐"))
	b.WriteString(line(header))
	b.WriteString(rule("├", "┼", "┤"))
	for _, r := range rows {
		b.WriteString(line(r))
	}
	b.WriteString(rule("└", "┴", "┘"))
	io.WriteString(w, b.String())
}

// confirm asks a yes/no question on the terminal and reports a yes. When
// stdin is not a terminal (a script, CI) nobody can answer, and it
// reports yes without asking, as wrangler does.
func confirm(stderr io.Writer, question string) bool {
	if !isTerminal(os.Stdin) {
		return true
	}
	fmt.Fprintf(stderr, "%s (y/N) ", question)
	answer, _ := bufio.NewReader(os.Stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(answer)) {
	case "y", "yes":
		return true
	}
	return false
}

// displayWidth is how many terminal columns s takes: two for a wide
// character (CJK, emoji such as ✅), none for a combining mark.
func displayWidth(s string) int {
	n := 0
	for _, r := range s {
		switch k := width.LookupRune(r).Kind(); {
		case unicode.Is(unicode.Mn, r):
		case k == width.EastAsianWide || k == width.EastAsianFullwidth:
			n += 2
		default:
			n++
		}
	}
	return n
}
