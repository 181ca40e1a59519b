package cli

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/dwk/fleet/appliance/bindings/d1"
)

func runD1Export(args []string, stdout, stderr io.Writer) int {
	const name = "d1 export"
	fs := newFlagSet(name, "DB [--output FILE] [--no-schema | --no-data] [--table T]... [--local [--data-dir DIR]] [--config FILE]",
		"Writes the D1 database DB (its binding or its database name) as SQL, the way `wrangler d1 export` writes it: the schema\n"+
			"(CREATE TABLE, then indexes, triggers and views) and one INSERT per row, readable by `dwk d1 execute --file`\n"+
			"and by wrangler. Without --output the SQL goes to stdout.", stderr)
	var sf storeFlags
	sf.register(fs)
	output := fs.String("output", "", "the .sql file to write (default: stdout)")
	noSchema := fs.Bool("no-schema", false, "only the rows, not the schema")
	noData := fs.Bool("no-data", false, "only the schema, not the rows")
	var tables []string
	fs.Func("table", "export only this table (repeatable)", func(s string) error { tables = append(tables, s); return nil })
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	if *noSchema && *noData {
		fmt.Fprintf(stderr, "dwk %s: --no-schema and --no-data together leave nothing to export: pass one of them\n", name)
		return 2
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, ref, db, err := sf.openD1(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "🌀 Exporting database %s from %s\n", ref.label, t.where)
	var out io.Writer = stdout
	var file *os.File
	if *output != "" {
		if err := os.MkdirAll(filepath.Dir(*output), 0o755); err != nil {
			return fail(stderr, name, err)
		}
		tmp := *output + ".tmp"
		if file, err = os.Create(tmp); err != nil {
			return fail(stderr, name, err)
		}
		defer os.Remove(tmp)
		defer file.Close()
		out = file
	}
	w := bufio.NewWriter(out)
	if err := d1.Dump(ctx, db, w, d1.DumpOptions{NoSchema: *noSchema, NoData: *noData, Tables: tables}); err != nil {
		return fail(stderr, name, err)
	}
	if err := w.Flush(); err != nil {
		return fail(stderr, name, err)
	}
	if file != nil {
		if err := file.Close(); err != nil {
			return fail(stderr, name, err)
		}
		if err := os.Rename(file.Name(), *output); err != nil {
			return fail(stderr, name, err)
		}
		fmt.Fprintf(stderr, "🌀 Exported to %s\n", *output)
	}
	return 0
}
