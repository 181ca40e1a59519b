package d1central

import (
	"strconv"
	"strings"
)

// maxVariableNumber is SQLite's SQLITE_MAX_VARIABLE_NUMBER default: the
// largest N of a ?N parameter.
const maxVariableNumber = 32766

// params describes the parameters of one SQL statement as SQLite numbers
// them, so that the backend can check arguments before the statement
// leaves the process: a remote engine binds missing arguments as NULL
// where d1local's sqlite3_bind_parameter_count check refuses them.
type params struct {
	// count is sqlite3_bind_parameter_count: the largest parameter index.
	count int
	// names holds the name of each index ("" for "?" and for indexes no
	// parameter uses); names[i] is parameter i+1.
	names []string
	// unknown: a ?N is out of range, so the count is not SQLite's; the
	// engine reports the error.
	unknown bool
}

// named reports whether every parameter has a name (":a", "@a", "$a"),
// so that arguments can travel as Hrana named arguments. sqld binds
// positional arguments to SQLite's indexes whatever the names, but some
// servers (dwk libsql) bind named parameters only from named arguments.
func (p params) named() bool {
	if p.count == 0 {
		return false
	}
	for _, n := range p.names {
		if n == "" || n[0] == '?' {
			return false
		}
	}
	return true
}

// scanParams finds the parameters of sql with SQLite's tokenizer rules
// (tokenize.c): "?", "?NNN", and ":name", "@name", "$name" (with the Tcl
// "::" and "(...)" suffixes), skipping comments, strings and quoted
// identifiers. Repeated names share one index, as in SQLite.
func scanParams(sql string) params {
	var p params
	index := map[string]int{}
	for i := 0; i < len(sql); {
		c := sql[i]
		switch {
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			i = skipTo(sql, i+2, "\n")
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			i = skipTo(sql, i+2, "*/")
		case c == '\'' || c == '"' || c == '`':
			i = skipTo(sql, i+1, string(c))
		case c == '[':
			i = skipTo(sql, i+1, "]")
		case c == '?':
			j := i + 1
			for j < len(sql) && sql[j] >= '0' && sql[j] <= '9' {
				j++
			}
			if j == i+1 {
				p.add("")
			} else if n, err := strconv.Atoi(sql[i+1 : j]); err != nil || n < 1 || n > maxVariableNumber {
				p.unknown = true
			} else {
				p.addNumbered(n, sql[i:j])
			}
			i = j
		case c == ':' || c == '@' || c == '$' || c == '#':
			j := varEnd(sql, i)
			switch {
			case j < 0:
				// An illegal token: the engine reports it.
				p.unknown = true
				j = len(sql)
			case j > i+1 && !(c == '#' && isDigit(sql[i+1])):
				name := sql[i:j]
				if _, seen := index[name]; !seen {
					index[name] = p.add(name)
				}
			}
			i = max(j, i+1)
		case isIDChar(c):
			for i < len(sql) && isIDChar(sql[i]) {
				i++
			}
		default:
			i++
		}
	}
	return p
}

// add appends a parameter with the next index and returns the index.
func (p *params) add(name string) int {
	p.count++
	p.names = append(p.names, name)
	return p.count
}

// addNumbered records ?N, which may raise the count past unused indexes.
func (p *params) addNumbered(n int, name string) {
	for p.count < n {
		p.add("")
	}
	if p.names[n-1] == "" {
		p.names[n-1] = name
	}
}

// varEnd returns the end of the named variable starting at i: identifier
// characters, with "::" allowed inside and a "(...)" suffix, as SQLite's
// tokenizer reads Tcl-style variables; -1 for an unterminated suffix,
// which SQLite's tokenizer calls illegal.
func varEnd(sql string, i int) int {
	n := 0
	j := i + 1
	for j < len(sql) {
		c := sql[j]
		switch {
		case isIDChar(c):
			n++
			j++
		case c == '(' && n > 0:
			end := strings.IndexAny(sql[j:], ") \t\n\f\r")
			if end < 0 || sql[j+end] != ')' {
				return -1
			}
			return j + end + 1
		case c == ':' && j+1 < len(sql) && sql[j+1] == ':':
			j += 2
		default:
			return j
		}
	}
	return j
}

// skipTo returns the index just past the first end at or after i, or
// len(sql) when there is none (SQLite runs an unterminated token to the end).
func skipTo(sql string, i int, end string) int {
	if k := strings.Index(sql[i:], end); k >= 0 {
		return i + k + len(end)
	}
	return len(sql)
}

// isIDChar reports the bytes SQLite allows inside an unquoted identifier
// (complete.c IdChar), as package d1's lexer does.
func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || isDigit(c) || c == '_' || c == '$' || c >= 0x80
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }
