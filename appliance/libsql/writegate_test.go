package libsql

import (
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// TestWriteTransactionsQueueAtTheGate: a transaction begun with BEGIN
// IMMEDIATE holds its namespace's write gate until it ends, however many
// requests it spans. Other writers wait for it, and fail with SQLITE_BUSY
// after the busy timeout as SQLite's busy handler would; once it commits,
// or its stream closes, the next writer goes ahead, and a transaction run
// whole in one batch leaves the gate free.
func TestWriteTransactionsQueueAtTheGate(t *testing.T) {
	const busy = 300 * time.Millisecond
	s := startServer(t, Config{BusyTimeout: busy})
	run := func(baton *string, reqs ...hrana.StreamRequest) *hrana.PipelineResponse {
		t.Helper()
		code, resp, raw := pipeline(t, s, "/v3/pipeline", hrana.PipelineRequest{Baton: baton, Requests: reqs}, nil)
		if code != 200 {
			t.Fatalf("status %d: %s", code, raw)
		}
		return resp
	}
	failsBusy := func(what string, reqs ...hrana.StreamRequest) {
		t.Helper()
		start := time.Now()
		resp := run(nil, reqs...)
		e := resp.Results[0].Error
		if e == nil || e.Code != "SQLITE_BUSY" {
			t.Errorf("%s while a transaction holds the lock: %+v, want SQLITE_BUSY", what, resp.Results[0])
		} else if !strings.Contains(e.Message, "locked") {
			t.Errorf("%s: message %q does not say the database is locked", what, e.Message)
		}
		if d := time.Since(start); d < busy {
			t.Errorf("%s failed after %v, before the busy timeout of %v", what, d, busy)
		}
	}
	run(nil, exec("CREATE TABLE t (v)"))

	// A transaction spanning requests holds the gate.
	a := run(nil, exec("BEGIN IMMEDIATE"), exec("INSERT INTO t VALUES ('a')"))
	if a.Results[0].Error != nil || a.Baton == nil {
		t.Fatalf("begin: %+v", a.Results[0])
	}
	failsBusy("BEGIN IMMEDIATE", exec("BEGIN IMMEDIATE"))
	failsBusy("an autocommit write", exec("INSERT INTO t VALUES ('b')"))

	// Committed, it lets the next writer in at once.
	done := make(chan *hrana.PipelineResponse, 1)
	go func() {
		done <- run(nil, exec("BEGIN IMMEDIATE"), exec("INSERT INTO t VALUES ('c')"), exec("COMMIT"))
	}()
	time.Sleep(busy / 3)
	if c := run(a.Baton, exec("COMMIT"), hrana.StreamRequest{Type: hrana.TypeClose}); c.Results[0].Error != nil {
		t.Fatalf("commit: %+v", c.Results[0])
	}
	select {
	case r := <-done:
		for i, res := range r.Results {
			if res.Error != nil {
				t.Errorf("waiting transaction, step %d: %+v", i, res.Error)
			}
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the waiting transaction did not go ahead after the commit")
	}

	// A whole transaction in one batch, one that fails, and a stream closed
	// with its transaction open all hand the gate back.
	run(nil, hrana.StreamRequest{Type: hrana.TypeBatch, Batch: &hrana.Batch{Steps: []hrana.BatchStep{
		{Stmt: hrana.NewStmt("BEGIN IMMEDIATE")}, {Stmt: hrana.NewStmt("INSERT INTO t VALUES ('d')")}, {Stmt: hrana.NewStmt("COMMIT")},
	}}})
	run(nil, exec("BEGIN IMMEDIATE"), exec("INSERT INTO nowhere VALUES (1)"), exec("ROLLBACK"))
	open := run(nil, exec("BEGIN IMMEDIATE"))
	run(open.Baton, hrana.StreamRequest{Type: hrana.TypeClose})
	start := time.Now()
	if r := run(nil, exec("INSERT INTO t VALUES ('e')")); r.Results[0].Error != nil {
		t.Fatalf("write after the gate was handed back: %+v", r.Results[0].Error)
	}
	if d := time.Since(start); d > busy/2 {
		t.Errorf("a write with the gate free took %v", d)
	}
	r := run(nil, exec("SELECT group_concat(v, '') FROM (SELECT v FROM t ORDER BY v)"))
	if got := r.Results[0].Response.Execute.Rows[0][0].Text; got != "acde" {
		t.Errorf("rows = %q, want acde", got)
	}
}
