package d1

import (
	"context"
	"encoding/hex"
	"fmt"
	"io"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/dwk/fleet/appliance/worker"
)

// DumpOptions select what Dump writes, as wrangler d1 export's flags do.
type DumpOptions struct {
	// NoSchema leaves out the CREATE statements, NoData the rows.
	NoSchema, NoData bool
	// Tables limits the dump to these tables (all when empty).
	Tables []string
	// Reserved keeps dwk's _dwk_ tables (a Durable Object's KV storage
	// and alarm live there), which a D1 export leaves out.
	Reserved bool
}

// Batcher runs statements as one transaction: a D1 database, or a
// Durable Object's storage.
type Batcher interface {
	Batch(ctx context.Context, stmts []worker.D1Query) ([]worker.D1Result, error)
}

// The queries of a dump, after SQLite shell's .dump (shell.c.in), which
// wrangler's export follows.
const (
	dumpTablesSQL  = "SELECT name, sql FROM sqlite_master WHERE type = 'table' AND sql NOT NULL ORDER BY tbl_name = 'sqlite_sequence', rowid"
	dumpColumnsSQL = "SELECT m.name, p.name FROM sqlite_master AS m JOIN pragma_table_info(m.name) AS p WHERE m.type = 'table' AND m.sql NOT NULL ORDER BY m.rowid, p.cid"
	dumpRestSQL    = "SELECT name, tbl_name, sql FROM sqlite_master WHERE sql NOT NULL AND type IN ('index', 'trigger', 'view') ORDER BY type COLLATE NOCASE"
)

var (
	quotedCreate = regexp.MustCompile(`CREATE TABLE ['"]`)
	statTable    = regexp.MustCompile(`^sqlite_stat.`)
)

// Dump writes db as SQL statements, one a line, as `wrangler d1
// export` writes them (miniflare's dumpSql, after SQLite's .dump):
//
//	PRAGMA defer_foreign_keys=TRUE;
//	CREATE TABLE ...;                   each table, in creation order
//	INSERT INTO "t" ("a","b") VALUES(...);   its rows
//	DELETE FROM sqlite_sequence;        then AUTOINCREMENT's counters
//	INSERT INTO "sqlite_sequence" ...
//	CREATE INDEX ...;                   indexes, triggers and views
//
// Internal tables (sqlite_*, Cloudflare's _cf_*, dwk's _dwk_*) are left
// out, as is anything on them; a virtual table is refused, as D1 refuses
// it. The schema and the rows are read in one transaction each. With
// tables, the indexes and triggers of those tables are written, and the
// views listed (D1's local export writes only indexes and triggers whose
// own name is listed).
func Dump(ctx context.Context, db Batcher, w io.Writer, o DumpOptions) error {
	schema, err := db.Batch(ctx, []worker.D1Query{{SQL: dumpTablesSQL}, {SQL: dumpColumnsSQL}, {SQL: dumpRestSQL}})
	if err != nil {
		return fmt.Errorf("read the schema: %w", err)
	}
	only := map[string]bool{}
	for _, t := range o.Tables {
		only[t] = true
	}
	columns := map[string][]string{}
	for _, r := range schema[1].Rows {
		t := Text(r[0])
		columns[t] = append(columns[t], Text(r[1]))
	}
	type table struct {
		name   string
		schema string // the statement written for it; "" for none
	}
	var tables []table
	for _, r := range schema[0].Rows {
		name, sql := Text(r[0]), Text(r[1])
		if len(only) > 0 && !only[name] {
			continue
		}
		t := table{name: name}
		switch {
		case name == "sqlite_sequence":
			t.schema = "DELETE FROM sqlite_sequence;"
		case statTable.MatchString(name):
			t.schema = "ANALYZE sqlite_schema;"
		case strings.HasPrefix(sql, "CREATE VIRTUAL TABLE"):
			return fmt.Errorf("table %s is a virtual table (%s): D1 cannot export databases with virtual tables; export the other tables with --table", name, ShortSQL(sql, 60))
		case internalTable(name, o.Reserved):
			continue
		case quotedCreate.MatchString(sql):
			t.schema = "CREATE TABLE IF NOT EXISTS " + sql[len("CREATE TABLE "):] + ";"
		default:
			t.schema = sql + ";"
		}
		tables = append(tables, t)
	}
	var reads []worker.D1Query
	if !o.NoData {
		for _, t := range tables {
			cols := columns[t.name]
			quoted := make([]string, len(cols))
			for i, c := range cols {
				quoted[i] = QuoteIdent(c)
			}
			reads = append(reads, worker.D1Query{SQL: "SELECT " + strings.Join(quoted, ", ") + " FROM " + QuoteIdent(t.name)})
		}
	}
	var data []worker.D1Result
	if len(reads) > 0 {
		if data, err = db.Batch(ctx, reads); err != nil {
			return fmt.Errorf("read the rows: %w", err)
		}
	}
	bw := &errWriter{w: w}
	bw.line("PRAGMA defer_foreign_keys=TRUE;")
	for i, t := range tables {
		if !o.NoSchema {
			bw.line(t.schema)
		}
		if o.NoData {
			continue
		}
		cols := columns[t.name]
		quoted := make([]string, len(cols))
		for j, c := range cols {
			quoted[j] = QuoteIdent(c)
		}
		head := "INSERT INTO " + QuoteIdent(t.name) + " (" + strings.Join(quoted, ",") + ") VALUES("
		for _, r := range data[i].Rows {
			cells := make([]string, len(r))
			for j, v := range r {
				cells[j] = sqlLiteral(v)
			}
			bw.line(head + strings.Join(cells, ",") + ");")
		}
	}
	if !o.NoSchema {
		for _, r := range schema[2].Rows {
			tbl := Text(r[1])
			if internalTable(tbl, o.Reserved) || len(only) > 0 && !only[tbl] {
				continue
			}
			bw.line(Text(r[2]) + ";")
		}
	}
	return bw.err
}

// internalTable reports whether a table is the engine's, Cloudflare's or
// (unless reserved) dwk's, which a dump leaves out.
func internalTable(name string, reserved bool) bool {
	return strings.HasPrefix(name, "sqlite_") || strings.HasPrefix(name, "_cf_") || !reserved && strings.HasPrefix(name, "_dwk_")
}

// sqlLiteral writes a value as SQLite's .dump does: NULL, integers as
// they are, reals so that they read back as reals, text quoted (newlines
// and carriage returns through replace(), so that every statement is one
// line), blobs as X'hex'.
func sqlLiteral(v any) string {
	switch v := v.(type) {
	case nil:
		return "NULL"
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		switch {
		case math.IsInf(v, 1):
			return "1e999"
		case math.IsInf(v, -1):
			return "-1e999"
		case math.IsNaN(v):
			return "NULL"
		}
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	case []byte:
		return "X'" + hex.EncodeToString(v) + "'"
	case string:
		return quoteText(v)
	}
	return quoteText(fmt.Sprint(v))
}

// quoteText is SQLite shell's output_quoted_escaped_string, as wrangler
// ports it.
func quoteText(s string) string {
	nl, cr := strings.Contains(s, "\n"), strings.Contains(s, "\r")
	if !nl && !cr {
		return "'" + strings.ReplaceAll(s, "'", "''") + "'"
	}
	nlMark, crMark := unusedMark(s, `\n`, `\012`), unusedMark(s, `\r`, `\015`)
	out := strings.ReplaceAll(s, "'", "''")
	out = strings.ReplaceAll(out, "\n", nlMark)
	out = strings.ReplaceAll(out, "\r", crMark)
	out = "'" + out + "'"
	if cr {
		out = "replace(" + out + ",'" + crMark + "',char(13))"
	}
	if nl {
		out = "replace(" + out + ",'" + nlMark + "',char(10))"
	}
	return out
}

// unusedMark returns a string that s does not contain: primary,
// secondary, or "(<primary>N)" for the first N that works.
func unusedMark(s, primary, secondary string) string {
	if !strings.Contains(s, primary) {
		return primary
	}
	if !strings.Contains(s, secondary) {
		return secondary
	}
	for n := 0; ; n++ {
		if c := "(" + primary + strconv.Itoa(n) + ")"; !strings.Contains(s, c) {
			return c
		}
	}
}

// QuoteIdent quotes a SQLite identifier in double quotes.
func QuoteIdent(id string) string {
	return `"` + strings.ReplaceAll(id, `"`, `""`) + `"`
}

// Text renders a column value (nil, text, blob or number) as text.
func Text(v any) string {
	switch v := v.(type) {
	case nil:
		return ""
	case string:
		return v
	case []byte:
		return string(v)
	}
	return fmt.Sprint(v)
}

// errWriter writes lines until the first error, which it keeps.
type errWriter struct {
	w   io.Writer
	err error
}

func (e *errWriter) line(s string) {
	if e.err == nil {
		_, e.err = io.WriteString(e.w, s+"\n")
	}
}
