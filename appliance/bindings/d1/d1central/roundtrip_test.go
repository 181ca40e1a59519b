package d1central

import (
	"fmt"
	"sync/atomic"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

// TestRoundTrips counts the HTTP requests each kind of call costs: one
// for any Batch and any single statement, whatever the outcome; one per
// statement for Exec. OnRoundTrip sees the same count.
func TestRoundTrips(t *testing.T) {
	e := startEnv(t)
	var hooked atomic.Uint64
	db := e.open(t, func(c *Config) { c.OnRoundTrip = func() { hooked.Add(1) } })
	d := worker.NewD1(db)
	ctx := t.Context()
	if _, err := d.Exec(ctx, "CREATE TABLE t (id INTEGER PRIMARY KEY, v TEXT NOT NULL)"); err != nil {
		t.Fatal(err)
	}
	ins := d.Prepare("INSERT INTO t (v) VALUES (?)")
	ten := make([]worker.D1Statement, 0, 10)
	for i := range 8 {
		ten = append(ten, ins.Bind(fmt.Sprint("batched ", i)))
	}
	ten = append(ten, d.Prepare("UPDATE t SET v = ? WHERE id = ?").Bind("updated", 1), d.Prepare("SELECT count(*) FROM t"))

	tests := []struct {
		name    string
		call    func() error
		wantErr bool
		want    uint64
	}{
		{"10-statement batch", func() error { _, err := d.Batch(ctx, ten...); return err }, false, 1},
		{"Run", func() error { _, err := ins.Bind("one").Run(ctx); return err }, false, 1},
		{"First", func() error { _, err := d.Prepare("SELECT v FROM t WHERE id = ?").Bind(1).First(ctx); return err }, false, 1},
		{"All", func() error { _, err := d.Prepare("SELECT * FROM t").All(ctx); return err }, false, 1},
		{"Raw", func() error { _, err := d.Prepare("SELECT * FROM t").Raw(ctx); return err }, false, 1},
		{"read-only batch", func() error {
			_, err := d.Batch(ctx, d.Prepare("SELECT 1"), d.Prepare("SELECT count(*) FROM t"))
			return err
		}, false, 1},
		{"failing batch", func() error { _, err := d.Batch(ctx, ins.Bind("x"), ins.Bind(nil)); return err }, true, 1},
		{"failing statement", func() error { _, err := d.Prepare("SELEC 1").All(ctx); return err }, true, 1},
		{"refused before sending", func() error { _, err := d.Prepare("SELECT ?").All(ctx); return err }, true, 0},
		{"Exec of 3 statements", func() error {
			_, err := d.Exec(ctx, "INSERT INTO t (v) VALUES ('a'); INSERT INTO t (v) VALUES ('b'); SELECT 1;")
			return err
		}, false, 4}, // three statements and advancing the bookmark
		{"Exec stopping at its second statement", func() error {
			_, err := d.Exec(ctx, "INSERT INTO t (v) VALUES ('a'); INSERT INTO nope VALUES (1); SELECT 1")
			return err
		}, true, 4}, // two statements, the close of the stream and advancing the bookmark
		{"empty Exec", func() error { _, err := d.Exec(ctx, "-- nothing"); return err }, false, 0},
	}
	for _, tt := range tests {
		before := db.RoundTrips()
		err := tt.call()
		if (err != nil) != tt.wantErr {
			t.Errorf("%s: error %v, want error %v", tt.name, err, tt.wantErr)
		}
		if got := db.RoundTrips() - before; got != tt.want {
			t.Errorf("%s: %d round trips, want %d", tt.name, got, tt.want)
		}
	}
	if got, want := hooked.Load(), db.RoundTrips(); got != want {
		t.Errorf("OnRoundTrip called %d times, RoundTrips = %d", got, want)
	}
	if got := db.RoundTrips(); got == 0 {
		t.Errorf("RoundTrips = 0")
	}
}
