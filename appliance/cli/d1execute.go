package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/bindings/d1"
	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/worker"
)

func runD1Execute(args []string, stdout, stderr io.Writer) int {
	const name = "d1 execute"
	fs := newFlagSet(name, "DB (--command SQL | --file FILE) [--json] [--local [--data-dir DIR]] [--config FILE]",
		"Runs SQL on the D1 database DB (its binding or its database name) as one transaction: all statements take effect or none.\n"+
			"On a terminal the rows print as tables; otherwise, or with --json, the results print as JSON, as wrangler prints them.", stderr)
	var sf storeFlags
	sf.register(fs)
	command := fs.String("command", "", "the SQL to run (one statement or several)")
	file := fs.String("file", "", "a .sql file to run")
	asJSON := fs.Bool("json", false, "print the results as JSON")
	fs.Bool("yes", false, "accepted for wrangler's scripts; dwk d1 execute never asks")
	fs.Bool("y", false, "short for --yes")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	if (*command == "") == (*file == "") {
		fmt.Fprintf(stderr, "dwk %s: pass --command SQL or --file FILE, one of them\n", name)
		return 2
	}
	failJSON := func(err error) int {
		if *asJSON {
			b, _ := json.MarshalIndent(map[string]any{"error": map[string]string{"text": err.Error()}}, "", "  ")
			fmt.Fprintf(stdout, "%s\n", b)
			return 1
		}
		return fail(stderr, name, err)
	}
	sql := *command
	if *file != "" {
		var err error
		if sql, err = readSQLFile(*file); err != nil {
			return failJSON(err)
		}
	}
	stmts, err := d1migrations.Statements(sql)
	if err != nil {
		return failJSON(err)
	}
	if len(stmts) == 0 {
		return failJSON(errors.New("no SQL statement to run: the SQL holds only comments or whitespace"))
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, ref, db, err := sf.openD1(ctx, pos[0], stderr)
	if err != nil {
		return failJSON(err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "🌀 Executing on %s, database %s:\n", t.where, ref.label)
	qs := make([]worker.D1Query, len(stmts))
	for i, s := range stmts {
		qs[i] = worker.D1Query{SQL: s}
	}
	results, err := db.Batch(ctx, qs)
	if err != nil {
		return failJSON(batchError(err, len(qs)))
	}
	if !*asJSON && isTerminal(stdout) {
		fmt.Fprintf(stderr, "🚣 %d command%s executed successfully.\n", len(results), plural(len(results)))
		for i, r := range results {
			if len(r.Rows) == 0 {
				continue
			}
			fmt.Fprintln(stdout, d1.ShortSQL(stmts[i], 48))
			writeTable(stdout, r.Columns, cellStrings(r.Rows))
		}
		return 0
	}
	b, err := json.MarshalIndent(execJSON(results), "", "  ")
	if err != nil {
		return failJSON(err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

// batchError says which statement of a batch failed, and that none took
// effect.
func batchError(err error, n int) error {
	var de *worker.D1Error
	if errors.As(err, &de) && n > 1 {
		return fmt.Errorf("statement %d of %d (%s) failed: %v; none of the %d statements took effect%s", de.Index+1, n, d1.ShortSQL(de.SQL, 80), de.Err, n, d1Hint(err))
	}
	if errors.As(err, &de) {
		return fmt.Errorf("%v%s", de.Err, d1Hint(err))
	}
	return err
}

// execResult is one statement's result as `wrangler d1 execute --json`
// prints it.
type execResult struct {
	Results []row    `json:"results"`
	Success bool     `json:"success"`
	Meta    execMeta `json:"meta"`
}

// execMeta is D1's meta object: duration in milliseconds, counts, size.
type execMeta struct {
	Duration    float64 `json:"duration"`
	Changes     int64   `json:"changes"`
	LastRowID   int64   `json:"last_row_id"`
	RowsRead    int64   `json:"rows_read"`
	RowsWritten int64   `json:"rows_written"`
	SizeAfter   int64   `json:"size_after"`
}

func execJSON(results []worker.D1Result) []execResult {
	out := make([]execResult, len(results))
	for i, r := range results {
		rows := make([]row, len(r.Rows))
		for j, values := range r.Rows {
			rows[j] = row{cols: r.Columns, values: values}
		}
		out[i] = execResult{Results: rows, Success: true, Meta: execMeta{
			Duration: float64(r.Meta.Duration) / float64(time.Millisecond), Changes: r.Meta.Changes, LastRowID: r.Meta.LastRowID,
			RowsRead: r.Meta.RowsRead, RowsWritten: r.Meta.RowsWritten, SizeAfter: r.Meta.SizeAfter,
		}}
	}
	return out
}

// row is one result row as a JSON object whose keys keep the columns'
// order; of columns with the same name the last value wins, as in
// JavaScript. A blob is an array of byte values, as D1 returns it.
type row struct {
	cols   []string
	values []any
}

func (r row) MarshalJSON() ([]byte, error) {
	last := map[string]int{}
	for i, c := range r.cols {
		last[c] = i
	}
	var b bytes.Buffer
	b.WriteByte('{')
	written := map[string]bool{}
	for _, c := range r.cols {
		if written[c] {
			continue
		}
		written[c] = true
		if b.Len() > 1 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(c)
		b.Write(k)
		b.WriteByte(':')
		v := r.values[last[c]]
		if blob, ok := v.([]byte); ok {
			nums := make([]int, len(blob))
			for i, x := range blob {
				nums[i] = int(x)
			}
			v = nums
		}
		e, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		b.Write(e)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// cellStrings renders rows for a table: NULL as "null", a blob as its
// byte values, as wrangler shows them.
func cellStrings(rows [][]any) [][]string {
	out := make([][]string, len(rows))
	for i, r := range rows {
		out[i] = make([]string, len(r))
		for j, v := range r {
			switch v := v.(type) {
			case nil:
				out[i][j] = "null"
			case []byte:
				nums := make([]string, len(v))
				for k, x := range v {
					nums[k] = fmt.Sprint(x)
				}
				out[i][j] = "[" + strings.Join(nums, ", ") + "]"
			default:
				out[i][j] = fmt.Sprint(v)
			}
		}
	}
	return out
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
