package wrangler

import "fmt"

// stripJSONC turns JSONC (JSON with // and /* */ comments and trailing
// commas, as wrangler.json and wrangler.jsonc allow) into plain JSON.
// Comments and trailing commas become spaces and every newline stays, so
// byte offsets and line numbers in the result are those of the source.
// Strings are copied untouched, comment markers inside them included.
func stripJSONC(src []byte) ([]byte, error) {
	out := make([]byte, len(src))
	copy(out, src)
	if err := blankComments(out); err != nil {
		return nil, err
	}
	blankTrailingCommas(out)
	return out, nil
}

// blankComments replaces every comment outside strings with spaces.
func blankComments(b []byte) error {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch {
		case c == '"':
			inString = true
		case c == '/' && i+1 < len(b) && b[i+1] == '/':
			for ; i < len(b) && b[i] != '\n'; i++ {
				if b[i] != '\r' {
					b[i] = ' '
				}
			}
		case c == '/' && i+1 < len(b) && b[i+1] == '*':
			start := i
			b[i], b[i+1] = ' ', ' '
			i += 2
			for ; i < len(b) && !(b[i] == '*' && i+1 < len(b) && b[i+1] == '/'); i++ {
				if b[i] != '\n' && b[i] != '\r' {
					b[i] = ' '
				}
			}
			if i >= len(b) {
				line, col := lineCol(b, start)
				return fmt.Errorf("line %d, column %d: a /* comment is never closed with */", line, col)
			}
			b[i], b[i+1] = ' ', ' '
			i++
		}
	}
	return nil
}

// blankTrailingCommas replaces each comma outside strings that only
// whitespace separates from a closing ] or }.
func blankTrailingCommas(b []byte) {
	inString := false
	for i := 0; i < len(b); i++ {
		c := b[i]
		if inString {
			switch c {
			case '\\':
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
		case ',':
			j := i + 1
			for j < len(b) && isJSONSpace(b[j]) {
				j++
			}
			if j < len(b) && (b[j] == ']' || b[j] == '}') {
				b[i] = ' '
			}
		}
	}
}

func isJSONSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r'
}

// lineCol turns a byte offset into a 1-based line and column.
func lineCol(b []byte, offset int) (line, col int) {
	line, col = 1, 1
	for i := 0; i < offset && i < len(b); i++ {
		if b[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return line, col
}
