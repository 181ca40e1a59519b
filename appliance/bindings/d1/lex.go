package d1

import "strings"

// isSpace reports SQLite's whitespace characters (tokenize.c CC_SPACE).
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\f' || c == '\r'
}

// isIDChar reports the bytes SQLite allows inside an unquoted identifier:
// ASCII letters and digits, '_', '$', and every byte of a multi-byte UTF-8
// character (complete.c IdChar).
func isIDChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' ||
		c == '_' || c == '$' || c >= 0x80
}

// SkipSpace returns sql without its leading whitespace, comments and
// semicolons: the prefix SQLite's prepare skips before the first statement.
// An unterminated block comment runs to the end, as in SQLite. SkipSpace
// returns "" exactly when sql holds no statement.
func SkipSpace(sql string) string {
	for i := 0; i < len(sql); {
		switch c := sql[i]; {
		case isSpace(c) || c == ';':
			i++
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			nl := strings.IndexByte(sql[i:], '\n')
			if nl < 0 {
				return ""
			}
			i += nl + 1
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			end := strings.Index(sql[i+2:], "*/")
			if end < 0 {
				return ""
			}
			i += 2 + end + 2
		default:
			return sql[i:]
		}
	}
	return ""
}

// FirstKeyword returns the first word of the first statement in sql, upper
// case, or "" if the statement does not start with a word.
func FirstKeyword(sql string) string {
	s := SkipSpace(sql)
	n := 0
	for n < len(s) && isIDChar(s[n]) && s[n] < 0x80 {
		n++
	}
	return strings.ToUpper(s[:n])
}

// ReadOnly reports whether the statement sql certainly cannot write: it
// starts with SELECT or VALUES. A false answer means "may write" (WITH, for
// one, can lead to an INSERT). Backends use it to send reads to a reader
// connection; it is never needed for correctness.
func ReadOnly(sql string) bool {
	switch FirstKeyword(sql) {
	case "SELECT", "VALUES":
		return true
	}
	return false
}

// TransactionControl reports whether the statement sql begins, ends or nests
// a transaction (BEGIN, COMMIT, END, ROLLBACK, SAVEPOINT, RELEASE). D1 does
// not allow them in prepared statements: a batch already runs as one
// transaction, and a COMMIT inside it would break the batch's atomicity.
func TransactionControl(sql string) bool {
	switch FirstKeyword(sql) {
	case "BEGIN", "COMMIT", "END", "ROLLBACK", "SAVEPOINT", "RELEASE":
		return true
	}
	return false
}

// OutsideTransaction reports whether the statement sql must run outside
// a transaction: SQLite refuses VACUUM, ATTACH and DETACH inside one, and
// ignores or refuses some PRAGMAs there (foreign_keys, journal_mode). A
// backend that would wrap a lone statement in a transaction runs these in
// SQLite's implicit one instead.
func OutsideTransaction(sql string) bool {
	switch FirstKeyword(sql) {
	case "VACUUM", "ATTACH", "DETACH", "PRAGMA":
		return true
	}
	return false
}

// ShortSQL is a statement on one line, cut to about n bytes, for messages.
func ShortSQL(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n] + "..."
}
