package d1local

import (
	"reflect"

	"modernc.org/libc"
	lib "modernc.org/sqlite/lib"
	"zombiezen.com/go/sqlite"
)

// columnNames reads result column names straight from SQLite.
//
// zombiezen's Stmt.ColumnName looks names up in a name → index map, so of
// duplicate names (SELECT a.id, b.id ...) it knows only the last and returns
// "" for the others, while D1 reports every column by name. The statement's
// sqlite3_stmt pointer is in an unexported field; reflection may read it
// (never write it). Should a zombiezen release rename that field, the names
// fall back to ColumnName, and the conformance suite's duplicate-column case
// fails and points here.
type columnNames struct {
	tls   *libc.TLS // for the direct calls; a conn is used by one goroutine at a time
	field []int     // index path of Stmt's sqlite3_stmt field, nil if not found
}

func newColumnNames() columnNames {
	cn := columnNames{tls: libc.NewTLS()}
	if f, ok := reflect.TypeFor[sqlite.Stmt]().FieldByName("stmt"); ok && f.Type.Kind() == reflect.Uintptr {
		cn.field = f.Index
	}
	return cn
}

// of returns the names of st's result columns; SQLite knows them before the
// first step, so a statement without rows still has them.
func (cn columnNames) of(st *sqlite.Stmt) []string {
	cols := make([]string, st.ColumnCount())
	var p uintptr
	if cn.field != nil {
		p = uintptr(reflect.ValueOf(st).Elem().FieldByIndex(cn.field).Uint())
	}
	for i := range cols {
		if p == 0 {
			cols[i] = st.ColumnName(i)
			continue
		}
		cols[i] = libc.GoString(lib.Xsqlite3_column_name(cn.tls, p, int32(i)))
	}
	return cols
}

func (cn columnNames) close() { cn.tls.Close() }
