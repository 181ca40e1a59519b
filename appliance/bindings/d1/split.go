package d1

import "strings"

// Token classes and states of SQLite's sqlite3_complete (complete.c).
const (
	tkSemi = iota
	tkWS
	tkOther
	tkExplain
	tkCreate
	tkTemp
	tkTrigger
	tkEnd
)

// Split states: 1 (start) is "between statements"; 5 to 7 track the body of
// a CREATE TRIGGER, whose inner semicolons do not end the statement.
const stateStart = 1

// trans is complete.c's transition table, indexed by state and token class.
var trans = [8][8]uint8{
	/* 0 INVALID */ {1, 0, 2, 3, 4, 2, 2, 2},
	/* 1   START */ {1, 1, 2, 3, 4, 2, 2, 2},
	/* 2  NORMAL */ {1, 2, 2, 2, 2, 2, 2, 2},
	/* 3 EXPLAIN */ {1, 3, 3, 2, 4, 2, 2, 2},
	/* 4  CREATE */ {1, 4, 2, 2, 2, 4, 5, 2},
	/* 5 TRIGGER */ {6, 5, 5, 5, 5, 5, 5, 5},
	/* 6    SEMI */ {6, 6, 5, 5, 5, 5, 5, 7},
	/* 7     END */ {1, 7, 5, 5, 5, 5, 5, 5},
}

// Split cuts a script into its statements the way SQLite's sqlite3_complete
// sees them: semicolons inside strings, quoted identifiers, comments and
// CREATE TRIGGER bodies do not end a statement. Each statement keeps its
// terminating semicolon and loses the whitespace and comments before it;
// empty statements (";;") are dropped. A last statement without a semicolon
// is returned as is, and so is one left open by an unterminated string or
// trigger body (the engine reports the error when it runs it).
func Split(script string) []string {
	var out []string
	state := uint8(0)
	start := 0       // start of the current statement's text
	content := false // the current statement has a token other than space
	for i := 0; i < len(script); {
		tok, next := token(script, i)
		if tok != tkWS && tok != tkSemi {
			content = true
		}
		state = trans[state][tok]
		i = next
		if tok == tkSemi && state == stateStart {
			if content {
				out = append(out, SkipSpace(script[start:i]))
			}
			start, content = i, false
		}
	}
	if content {
		out = append(out, SkipSpace(script[start:]))
	}
	return out
}

// token classifies the token of s starting at i and returns the index just
// past it. An unterminated comment, string or identifier runs to the end.
func token(s string, i int) (class int, next int) {
	c := s[i]
	switch {
	case c == ';':
		return tkSemi, i + 1
	case isSpace(c):
		return tkWS, i + 1
	case c == '/' && i+1 < len(s) && s[i+1] == '*':
		if end := strings.Index(s[i+2:], "*/"); end >= 0 {
			return tkWS, i + 2 + end + 2
		}
		return tkWS, len(s)
	case c == '-' && i+1 < len(s) && s[i+1] == '-':
		if nl := strings.IndexByte(s[i:], '\n'); nl >= 0 {
			return tkWS, i + nl + 1
		}
		return tkWS, len(s)
	case c == '[':
		return tkOther, closing(s, i+1, ']')
	case c == '`' || c == '"' || c == '\'':
		// A doubled quote inside a string ends this token and starts the
		// next one, which is harmless: both are "other".
		return tkOther, closing(s, i+1, c)
	case isIDChar(c):
		n := i + 1
		for n < len(s) && isIDChar(s[n]) {
			n++
		}
		return keyword(s[i:n]), n
	default:
		return tkOther, i + 1
	}
}

// closing returns the index just past the first q at or after i, or len(s).
func closing(s string, i int, q byte) int {
	if j := strings.IndexByte(s[i:], q); j >= 0 {
		return i + j + 1
	}
	return len(s)
}

// keyword classifies an identifier-like word.
func keyword(w string) int {
	switch {
	case strings.EqualFold(w, "CREATE"):
		return tkCreate
	case strings.EqualFold(w, "TRIGGER"):
		return tkTrigger
	case strings.EqualFold(w, "TEMP"), strings.EqualFold(w, "TEMPORARY"):
		return tkTemp
	case strings.EqualFold(w, "END"):
		return tkEnd
	case strings.EqualFold(w, "EXPLAIN"):
		return tkExplain
	}
	return tkOther
}
