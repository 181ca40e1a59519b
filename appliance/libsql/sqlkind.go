package libsql

import "strings"

// stmtKind is what the server needs to know about one SQL statement beyond
// what SQLite reports (sqlite3_stmt_readonly).
type stmtKind struct {
	// insert: INSERT or REPLACE; the result carries last_insert_rowid.
	insert bool
	// iud: INSERT, REPLACE, UPDATE or DELETE; the result carries
	// affected_row_count.
	iud bool
	// pragma, attach: the statement changes connection state, so the
	// connection is not reused by another stream.
	pragma bool
	attach bool
	// foreignKeys: PRAGMA foreign_keys; the only session setting the server
	// resets on release instead of dropping the connection, because D1
	// clients send it with every write.
	foreignKeys bool
	// forbidden, when not empty, says why the statement is refused:
	// statements that reach outside the namespace's files.
	forbidden string
	// checkpoint: PRAGMA wal_checkpoint or wal_autocheckpoint, which
	// the server refuses while a backup owns checkpoints.
	checkpoint bool
}

// classify looks at the leading keywords of one statement, as sqld does,
// skipping comments and a leading WITH clause.
func classify(sql string) stmtKind {
	lx := lexer{s: sql}
	first := lx.keyword()
	verb := first
	if first == "WITH" {
		verb = lx.verbAfterWith()
	}
	var k stmtKind
	switch verb {
	case "INSERT", "REPLACE":
		k.insert, k.iud = true, true
	case "UPDATE", "DELETE":
		k.iud = true
	}
	switch first {
	case "PRAGMA":
		k.pragma = true
		name := lx.keyword()
		if lx.peekByte() == '.' {
			lx.pos++
			name = lx.keyword()
		}
		k.foreignKeys = name == "FOREIGN_KEYS"
		k.checkpoint = name == "WAL_CHECKPOINT" || name == "WAL_AUTOCHECKPOINT"
		if name == "JOURNAL_MODE" || name == "LOCKING_MODE" {
			if c := lx.peekByte(); c == '=' || c == '(' {
				k.forbidden = "changing PRAGMA " + strings.ToLower(name) + " is not allowed: the server keeps every database in WAL mode"
			}
		}
	case "ATTACH", "DETACH":
		k.attach = true
		k.forbidden = first + " is not supported: a statement may only use its own namespace"
	case "VACUUM":
		for w := lx.next(); w != ""; w = lx.next() {
			if w == "INTO" {
				k.forbidden = "VACUUM INTO is not supported: a statement may not write files outside its namespace"
				break
			}
		}
	}
	return k
}

// lexer walks SQL tokens just far enough for classify.
type lexer struct {
	s   string
	pos int
}

// skipSpace skips blanks and comments.
func (l *lexer) skipSpace() {
	for l.pos < len(l.s) {
		c := l.s[l.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
			l.pos++
		case c == '-' && strings.HasPrefix(l.s[l.pos:], "--"):
			if i := strings.IndexByte(l.s[l.pos:], '\n'); i >= 0 {
				l.pos += i + 1
			} else {
				l.pos = len(l.s)
			}
		case c == '/' && strings.HasPrefix(l.s[l.pos:], "/*"):
			if i := strings.Index(l.s[l.pos+2:], "*/"); i >= 0 {
				l.pos += i + 4
			} else {
				l.pos = len(l.s)
			}
		default:
			return
		}
	}
}

func (l *lexer) peekByte() byte {
	l.skipSpace()
	if l.pos < len(l.s) {
		return l.s[l.pos]
	}
	return 0
}

// keyword returns the next bare word in upper case, or "" when the next
// token is not a bare word (the token is not consumed then).
func (l *lexer) keyword() string {
	l.skipSpace()
	start := l.pos
	for l.pos < len(l.s) && isWordByte(l.s[l.pos]) {
		l.pos++
	}
	return strings.ToUpper(l.s[start:l.pos])
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c >= 0x80
}

// next consumes one token and returns it: a word (upper case), a quoted
// token, or a single punctuation byte. It returns "" at the end.
func (l *lexer) next() string {
	l.skipSpace()
	if l.pos >= len(l.s) {
		return ""
	}
	c := l.s[l.pos]
	if isWordByte(c) {
		return l.keyword()
	}
	var closer byte
	switch c {
	case '\'', '"', '`':
		closer = c
	case '[':
		closer = ']'
	default:
		l.pos++
		return string(c)
	}
	start := l.pos
	l.pos++
	for l.pos < len(l.s) {
		if l.s[l.pos] == closer {
			l.pos++
			if closer != ']' && l.pos < len(l.s) && l.s[l.pos] == closer {
				l.pos++ // doubled quote
				continue
			}
			break
		}
		l.pos++
	}
	return l.s[start:l.pos]
}

// verbAfterWith skips the common table expressions of a WITH clause and
// returns the main statement's verb: the first of SELECT, VALUES, INSERT,
// REPLACE, UPDATE, DELETE outside parentheses.
func (l *lexer) verbAfterWith() string {
	depth := 0
	for tok := l.next(); tok != ""; tok = l.next() {
		switch tok {
		case "(":
			depth++
		case ")":
			depth--
		case "SELECT", "VALUES", "INSERT", "REPLACE", "UPDATE", "DELETE":
			if depth == 0 {
				return tok
			}
		}
	}
	return ""
}
