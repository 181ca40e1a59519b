package hrana

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// Stmt is a SQL statement with its arguments. Exactly one of SQL and SQLID
// names the text; SQLID refers to a text stored with store_sql.
type Stmt struct {
	SQL       *string    `json:"sql,omitempty"`
	SQLID     *int32     `json:"sql_id,omitempty"`
	Args      []Value    `json:"args,omitempty"`
	NamedArgs []NamedArg `json:"named_args,omitempty"`
	// WantRows false asks the server to send no rows. Default: true.
	WantRows *bool `json:"want_rows,omitempty"`
	// ReplicationIndex is accepted for compatibility and ignored: a single
	// node is always up to date.
	ReplicationIndex json.RawMessage `json:"replication_index,omitempty"`
}

// NamedArg binds Value to the parameter called Name. Name may omit the
// prefix (":", "@" or "$"); servers then try the name with the prefix.
type NamedArg struct {
	Name  string `json:"name"`
	Value Value  `json:"value"`
}

// NewStmt returns a statement for sql with positional args, wanting rows.
func NewStmt(sql string, args ...Value) Stmt {
	return Stmt{SQL: &sql, Args: args}
}

// RowsWanted reports whether the client wants rows (the default).
func (s *Stmt) RowsWanted() bool { return s.WantRows == nil || *s.WantRows }

// Validate checks the parts of s a correct client always gets right.
func (s *Stmt) Validate(v Version) error {
	if err := validateSQLRef(s.SQL, s.SQLID, v); err != nil {
		return err
	}
	for i := range s.Args {
		if s.Args[i].Kind == KindNone {
			return Protocolf("argument %d has no value type", i)
		}
	}
	for i := range s.NamedArgs {
		if s.NamedArgs[i].Value.Kind == KindNone {
			return Protocolf("named argument %q has no value", s.NamedArgs[i].Name)
		}
	}
	return nil
}

// validateSQLRef checks that exactly one of sql and sqlID is given.
func validateSQLRef(sql *string, sqlID *int32, v Version) error {
	if sqlID != nil {
		if err := v.require(V2, "`sql_id`"); err != nil {
			return err
		}
	}
	switch {
	case sql != nil && sqlID != nil:
		return Protocolf("Either `sql` or `sql_id` are required, but not both")
	case sql == nil && sqlID == nil:
		return Protocolf("Either `sql` or `sql_id` are required")
	}
	return nil
}

// ResolveSQL returns the SQL text that sql or sqlID designate, looking
// stored texts up in stored. An unknown sqlID is a protocol error.
func ResolveSQL(sql *string, sqlID *int32, stored map[int32]string) (string, error) {
	if sql != nil {
		return *sql, nil
	}
	if sqlID == nil {
		return "", Protocolf("Either `sql` or `sql_id` are required")
	}
	text, ok := stored[*sqlID]
	if !ok {
		return "", Protocolf("SQL text %d not found", *sqlID)
	}
	return text, nil
}

// Col describes a result column: its name and declared type, either of
// which may be null.
type Col struct {
	Name     *string `json:"name"`
	Decltype *string `json:"decltype"`
}

// RowID is an optional 64-bit integer that travels as a decimal string or
// null, like last_insert_rowid.
type RowID struct {
	Valid bool
	Value int64
}

// SomeRowID returns a valid RowID holding v.
func SomeRowID(v int64) RowID { return RowID{Valid: true, Value: v} }

// MarshalJSON encodes r as "123" or null.
func (r RowID) MarshalJSON() ([]byte, error) {
	if !r.Valid {
		return []byte("null"), nil
	}
	b := make([]byte, 0, 22)
	b = append(b, '"')
	b = strconv.AppendInt(b, r.Value, 10)
	return append(b, '"'), nil
}

// UnmarshalJSON accepts a decimal string, a JSON integer or null.
func (r *RowID) UnmarshalJSON(data []byte) error {
	var x any
	if err := json.Unmarshal(data, &x); err != nil {
		return err
	}
	switch t := x.(type) {
	case nil:
		*r = RowID{}
	case string:
		v, err := strconv.ParseInt(t, 10, 64)
		if err != nil {
			return fmt.Errorf("rowid %q: %w", t, err)
		}
		*r = SomeRowID(v)
	case float64:
		*r = SomeRowID(int64(t))
	default:
		return fmt.Errorf("rowid must be a string or null, got %T", x)
	}
	return nil
}

// StmtResult is the result of one statement.
type StmtResult struct {
	Cols []Col     `json:"cols"`
	Rows [][]Value `json:"rows"`
	// AffectedRowCount counts rows changed by an INSERT, UPDATE or DELETE
	// (0 for other statements).
	AffectedRowCount uint64 `json:"affected_row_count"`
	// LastInsertRowID is set for INSERT statements only, as in sqld.
	LastInsertRowID RowID `json:"last_insert_rowid"`
	// RowsRead and RowsWritten are the statement's row counters. dwk libsql
	// reports rows returned and rows changed; sqld reports rows scanned.
	RowsRead    uint64 `json:"rows_read"`
	RowsWritten uint64 `json:"rows_written"`
	// QueryDurationMS is the execution time in milliseconds.
	QueryDurationMS float64 `json:"query_duration_ms"`
}

// MarshalJSON encodes r with empty arrays (never null) for cols and rows.
func (r StmtResult) MarshalJSON() ([]byte, error) { return json.Marshal(stmtOut(&r)) }

// DescribeResult is the result of a describe request.
type DescribeResult struct {
	Params     []DescribeParam `json:"params"`
	Cols       []DescribeCol   `json:"cols"`
	IsExplain  bool            `json:"is_explain"`
	IsReadonly bool            `json:"is_readonly"`
}

// MarshalJSON encodes r with empty arrays (never null).
func (r DescribeResult) MarshalJSON() ([]byte, error) {
	type plain DescribeResult
	p := plain(r)
	if p.Params == nil {
		p.Params = []DescribeParam{}
	}
	if p.Cols == nil {
		p.Cols = []DescribeCol{}
	}
	return json.Marshal(p)
}

// DescribeParam is a statement parameter; Name includes its prefix
// (":a", "?2") and is null for anonymous "?" parameters.
type DescribeParam struct {
	Name *string `json:"name"`
}

// DescribeCol is a result column of a described statement.
type DescribeCol struct {
	Name     string  `json:"name"`
	Decltype *string `json:"decltype"`
}
