package hranaclient

import (
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// connected reports whether s holds a connection.
func (s *WSStream) connected() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.conn != nil
}

func (s *WSStream) isOpening() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.opening
}

func TestWSStreamAgainstServer(t *testing.T) {
	srv := libsqlserver.Start(t)
	c := newClient(t, srv.URL, Config{AuthToken: srv.AuthToken})
	ctx := ctxFor(t)
	limit := NewWSLimit(1)
	s := c.WSStream(time.Minute, limit)
	t.Cleanup(func() { s.Close() })

	steps := []hrana.BatchStep{
		{Stmt: hrana.NewStmt("CREATE TABLE IF NOT EXISTS ws_t (k INTEGER PRIMARY KEY, v TEXT)")},
		{Stmt: hrana.NewStmt("INSERT INTO ws_t VALUES (?, ?)", hrana.Integer(1), hrana.Text("a"))},
		{Stmt: hrana.NewStmt("INSERT INTO ws_t VALUES (?, ?)", hrana.Integer(1), hrana.Text("dup"))},
		{Stmt: hrana.NewStmt("SELECT v FROM ws_t WHERE k = 1")},
	}
	// The first batch goes over HTTP (one round trip) while the stream
	// opens in the background (hello and open_stream, one more); the next
	// ones cost one round trip each, over the WebSocket.
	before := c.RoundTrips()
	res, err := s.Batch(ctx, steps)
	if err != nil {
		t.Fatal(err)
	}
	wait.Within(t, 5*time.Second, "the stream to open", s.connected)
	if got := c.RoundTrips() - before; got != 2 {
		t.Errorf("the first batch and the stream's opening counted %d round trips, want 2", got)
	}
	before = c.RoundTrips()
	if _, err := s.Batch(ctx, steps[3:]); err != nil {
		t.Fatal(err)
	}
	if got := c.RoundTrips() - before; got != 1 {
		t.Errorf("a batch on the open stream counted %d round trips, want 1", got)
	}
	if !s.connected() {
		t.Fatal("the batch did not go over the WebSocket")
	}
	if e := StepError(res, 2); e == nil || !strings.HasPrefix(e.Code, "SQLITE_CONSTRAINT") {
		t.Errorf("duplicate insert: step error %v", e)
	}
	if r := res.StepResults[3]; r == nil || len(r.Rows) != 1 || r.Rows[0][0].Text != "a" {
		t.Errorf("select: %+v", r)
	}

	// A second stream finds the limit taken and sends over HTTP, with
	// the same results.
	other := c.WSStream(time.Minute, limit)
	t.Cleanup(func() { other.Close() })
	res2, err := other.Batch(ctx, steps[3:])
	if err == nil {
		_, err = other.Batch(ctx, steps[3:])
	}
	if err != nil || other.connected() || other.isOpening() {
		t.Fatalf("over the limit: %v, connected %v", err, other.connected())
	}
	if r := res2.StepResults[0]; r == nil || r.Rows[0][0].Text != "a" {
		t.Errorf("over HTTP: %+v", r)
	}

	// The server restarts while the stream is idle: the stream notices
	// that its connection closed, and the next batch reconnects instead
	// of failing.
	srv.Restart(0)
	res, err = s.Batch(ctx, steps[3:])
	if err != nil {
		t.Fatalf("the first batch after a server restart: %v", err)
	}
	if r := res.StepResults[0]; r == nil || r.Rows[0][0].Text != "a" {
		t.Errorf("after the restart: %+v", r)
	}
	wait.Within(t, 5*time.Second, "the stream to reconnect", func() bool {
		_, err := s.Batch(ctx, steps[3:])
		return err == nil && s.connected()
	})
}

func TestWSStreamClosesWhenIdle(t *testing.T) {
	srv := libsqlserver.Start(t)
	c := newClient(t, srv.URL, Config{AuthToken: srv.AuthToken})
	limit := NewWSLimit(1)
	s := c.WSStream(100*time.Millisecond, limit)
	t.Cleanup(func() { s.Close() })
	if _, err := s.Batch(ctxFor(t), []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}}); err != nil {
		t.Fatalf("batch: %v", err)
	}
	wait.Within(t, 5*time.Second, "the stream to open", s.connected)
	wait.Within(t, 5*time.Second, "the idle connection to close", func() bool { return !s.connected() })
	if !limit.acquire() {
		t.Fatal("the closed connection kept its slot")
	}
}

func TestWSStreamFallsBackToHTTP(t *testing.T) {
	srv := libsqlserver.Start(t)
	if srv.External {
		t.Skip("needs dwk libsql: it refuses the upgrade for a missing namespace")
	}
	// No such namespace: the upgrade is refused, and the batch gets the
	// error HTTP gives.
	c := newClient(t, srv.URL, Config{AuthToken: srv.AuthToken, Namespace: "no-such-namespace"})
	s := c.WSStream(time.Minute, NewWSLimit(4))
	t.Cleanup(func() { s.Close() })
	_, wsErr := s.Batch(ctxFor(t), []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}})
	_, httpErr := c.Batch(ctxFor(t), []hrana.BatchStep{{Stmt: hrana.NewStmt("SELECT 1")}})
	if wsErr == nil || httpErr == nil || wsErr.Error() != httpErr.Error() {
		t.Fatalf("errors differ: stream %v, HTTP %v", wsErr, httpErr)
	}
	wait.Within(t, 5*time.Second, "the refused opening to end", func() bool { return !s.isOpening() })
	s.mu.Lock()
	connected, httpOnly := s.conn != nil, s.httpOnly
	s.mu.Unlock()
	if connected || !httpOnly {
		t.Fatalf("a missing namespace: connected %v, HTTP only %v", connected, httpOnly)
	}
}
