package d1test

import (
	"fmt"
	"math"
	"testing"
	"time"
)

// valueTests are the Go values a statement can bind, what comes back, and
// SQLite's typeof() of the stored value.
var valueTests = []struct {
	name string
	arg  any
	want any
	typ  string
}{
	{"nil", nil, nil, "null"},
	{"zero", 0, int64(0), "integer"},
	{"int", -42, int64(-42), "integer"},
	{"int8 min", int8(math.MinInt8), int64(math.MinInt8), "integer"},
	{"uint32 max", uint32(math.MaxUint32), int64(math.MaxUint32), "integer"},
	{"int64 max", int64(math.MaxInt64), int64(math.MaxInt64), "integer"},
	{"int64 min", int64(math.MinInt64), int64(math.MinInt64), "integer"},
	{"uint64 max that fits", uint64(math.MaxInt64), int64(math.MaxInt64), "integer"},
	{"float", 3.25, 3.25, "real"},
	{"float integral", 2.0, 2.0, "real"},
	{"float negative", -1.5e300, -1.5e300, "real"},
	{"float max", math.MaxFloat64, math.MaxFloat64, "real"},
	{"float smallest", math.SmallestNonzeroFloat64, math.SmallestNonzeroFloat64, "real"},
	{"float32", float32(0.5), 0.5, "real"},
	{"text empty", "", "", "text"},
	{"text unicode", "héllo, 世界 🌍", "héllo, 世界 🌍", "text"},
	{"text with NUL", "a\x00b", "a\x00b", "text"},
	{"text SQL-like", "'); DROP TABLE x; --", "'); DROP TABLE x; --", "text"},
	{"text long", string(make([]byte, 100_000)), string(make([]byte, 100_000)), "text"},
	{"blob", []byte{0, 1, 2, 0xfe, 0xff}, []byte{0, 1, 2, 0xfe, 0xff}, "blob"},
	{"blob empty", []byte{}, []byte{}, "blob"},
	{"bool true", true, int64(1), "integer"},
	{"bool false", false, int64(0), "integer"},
	{"time", time.Date(2024, 2, 29, 13, 4, 5, 123456789, time.FixedZone("CET", 3600)),
		"2024-02-29T12:04:05.123456789Z", "text"},
}

// testValues binds every value type and reads it straight back.
func testValues(t *testing.T, f *fixture) {
	for _, tt := range valueTests {
		t.Run(tt.name, func(t *testing.T) {
			row, err := f.db.Prepare("SELECT ? AS v, typeof(?) AS t").Bind(tt.arg, tt.arg).First(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if !equalValue(row["v"], tt.want) {
				t.Errorf("v = %#v (%T), want %#v (%T)", row["v"], row["v"], tt.want, tt.want)
			}
			if row["t"] != tt.typ {
				t.Errorf("typeof = %v, want %s", row["t"], tt.typ)
			}
		})
	}
}

// testStoredValues stores every value type in a column without type
// affinity and reads it back from the table.
func testStoredValues(t *testing.T, f *fixture) {
	tbl := f.table(t, "vals", "id INTEGER PRIMARY KEY, v")
	for i, tt := range valueTests {
		if _, err := f.db.Prepare("INSERT INTO "+tbl+" (id, v) VALUES (?, ?)").Bind(i, tt.arg).Run(t.Context()); err != nil {
			t.Fatalf("insert %s: %v", tt.name, err)
		}
	}
	r := f.all(t, "SELECT id, v, typeof(v) FROM "+tbl+" ORDER BY id")
	if len(r.Rows) != len(valueTests) {
		t.Fatalf("%d rows, want %d", len(r.Rows), len(valueTests))
	}
	for i, tt := range valueTests {
		if got := r.Rows[i]; !equalValue(got[1], tt.want) || got[2] != tt.typ {
			t.Errorf("%s: stored %#v (typeof %v), want %#v (%s)", tt.name, got[1], got[2], tt.want, tt.typ)
		}
	}
}

// testDeclaredTypes checks that text in DATE, DATETIME and TIMESTAMP
// columns, and numbers in BOOLEAN ones, come back exactly as stored, as D1
// returns them: no driver-side time or bool conversion.
func testDeclaredTypes(t *testing.T, f *fixture) {
	tbl := f.table(t, "decl", "id INTEGER PRIMARY KEY, d DATE, dt DATETIME, ts TIMESTAMP, b BOOLEAN")
	tests := []struct {
		name    string
		d, dt   string
		ts      any
		b, want any
	}{
		{"sqlite format", "2024-01-02", "2024-01-02 10:00:00", "2024-01-02 10:00:00.500", int64(1), int64(1)},
		{"javascript ISO", "2024-01-02", "2024-01-02T10:00:00.000Z", "2024-01-02T10:00:00+02:00", int64(0), int64(0)},
		{"not a time", "tomorrow", "soon", int64(1704189600), "yes", "yes"},
	}
	for i, tt := range tests {
		if _, err := f.db.Prepare("INSERT INTO "+tbl+" VALUES (?, ?, ?, ?, ?)").Bind(i, tt.d, tt.dt, tt.ts, tt.b).Run(t.Context()); err != nil {
			t.Fatalf("insert %s: %v", tt.name, err)
		}
	}
	r := f.all(t, "SELECT d, dt, ts, b FROM "+tbl+" ORDER BY id")
	for i, tt := range tests {
		want := []any{tt.d, tt.dt, tt.ts, tt.want}
		if i >= len(r.Rows) || !equalRows([][]any{r.Rows[i]}, [][]any{want}) {
			t.Errorf("%s: got %v, want %v", tt.name, rowAt(r.Rows, i), want)
		}
	}
	dflt := f.table(t, "now", "id INTEGER PRIMARY KEY, at DATETIME DEFAULT CURRENT_TIMESTAMP")
	f.exec(t, "INSERT INTO "+dflt+" (id) VALUES (1)")
	row, err := f.db.Prepare("SELECT at, at = datetime(at) AS canonical FROM " + dflt).First(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if s, ok := row["at"].(string); !ok || len(s) != len("2006-01-02 15:04:05") || row["canonical"] != int64(1) {
		t.Errorf("CURRENT_TIMESTAMP came back as %#v (%T), want SQLite's YYYY-MM-DD HH:MM:SS text", row["at"], row["at"])
	}
}

func rowAt(rows [][]any, i int) string {
	if i >= len(rows) {
		return "(missing)"
	}
	return fmt.Sprint(rows[i])
}
