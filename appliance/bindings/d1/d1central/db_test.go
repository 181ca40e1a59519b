package d1central

import (
	"errors"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func TestClosed(t *testing.T) {
	db, err := Open(Config{URL: "http://127.0.0.1:1", Namespace: "test-d1-closed"})
	if err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Errorf("second Close: %v", err)
	}
	ctx := t.Context()
	if _, err := db.Batch(ctx, []worker.D1Query{{SQL: "SELECT 1"}}); !errors.Is(err, ErrClosed) {
		t.Errorf("Batch after Close: %v, want ErrClosed", err)
	}
	if _, err := db.Exec(ctx, "SELECT 1"); !errors.Is(err, ErrClosed) {
		t.Errorf("Exec after Close: %v, want ErrClosed", err)
	}
	if db.RoundTrips() != 0 {
		t.Errorf("RoundTrips = %d, want 0", db.RoundTrips())
	}
}

// TestParameterStyles binds every parameter style SQLite knows, as
// d1local does: positional by SQLite's index, whatever the names.
func TestParameterStyles(t *testing.T) {
	d := worker.NewD1(startEnv(t).open(t))
	tests := []struct {
		sql  string
		args []any
		want []any
	}{
		{"SELECT ?, ?", []any{1, 2}, []any{int64(1), int64(2)}},
		{"SELECT ?2, ?1", []any{1, 2}, []any{int64(2), int64(1)}},
		{"SELECT :a, @b, $c, :a", []any{1, 2, 3}, []any{int64(1), int64(2), int64(3), int64(1)}},
		{"SELECT ?3, ?1", []any{1, nil, 3}, []any{int64(3), int64(1)}},
	}
	for _, tt := range tests {
		rows, err := d.Prepare(tt.sql).Bind(tt.args...).Raw(t.Context())
		if err != nil {
			t.Errorf("%s: %v", tt.sql, err)
			continue
		}
		if len(rows) != 1 || len(rows[0]) != len(tt.want) {
			t.Errorf("%s = %v, want %v", tt.sql, rows, tt.want)
			continue
		}
		for i, w := range tt.want {
			if rows[0][i] != w {
				t.Errorf("%s = %v, want %v", tt.sql, rows[0], tt.want)
				break
			}
		}
	}
}
