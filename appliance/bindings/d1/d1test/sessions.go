package d1test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// position parses a result's bookmark and fails the test if it does not.
func position(t *testing.T, what, bookmark string) worker.D1Position {
	t.Helper()
	p, err := worker.ParseD1Bookmark(bookmark)
	if err != nil {
		t.Fatalf("%s: bookmark %q: %v", what, bookmark, err)
	}
	return p
}

// testSessions checks the Sessions API: every result of a session carries
// the bookmark after it, bookmarks grow with each write (Exec and writes
// outside sessions included), and a session started from a bookmark sees
// the writes before it.
func testSessions(t *testing.T, f *fixture) {
	tbl := f.table(t, "sessions", "id INTEGER PRIMARY KEY, v TEXT")
	ctx := t.Context()
	for _, c := range []string{worker.D1FirstPrimary, worker.D1FirstUnconstrained, ""} {
		if got := f.db.WithSession(c).Bookmark(); got != "" {
			t.Errorf("WithSession(%q).Bookmark() before any query = %q, want \"\"", c, got)
		}
	}
	s := f.db.WithSession(worker.D1FirstPrimary)
	ins := s.Prepare("INSERT INTO " + tbl + " (v) VALUES (?)")
	m1, err := ins.Bind("one").Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p1 := position(t, "session write", m1.Bookmark)
	if got := s.Bookmark(); got != m1.Bookmark {
		t.Errorf("session Bookmark() = %q after a write whose result says %q", got, m1.Bookmark)
	}
	// A write outside any session advances the position too.
	m2, err := f.db.Prepare("INSERT INTO " + tbl + " (v) VALUES ('two')").Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	p2 := position(t, "write outside a session", m2.Bookmark)
	if p2.Epoch != p1.Epoch || p2.Commit <= p1.Commit {
		t.Errorf("bookmark after a later write = %+v, want the same epoch and a later commit than %+v", p2, p1)
	}
	if m2.Bookmark <= m1.Bookmark {
		t.Errorf("bookmarks do not sort as their positions: %q after %q", m2.Bookmark, m1.Bookmark)
	}
	// The session's next read sees it and moves past it.
	r, err := s.Prepare("SELECT count(*) FROM " + tbl).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if n := r.Rows[0][0]; n != int64(2) {
		t.Errorf("session read count = %v, want 2", n)
	}
	if p := position(t, "session read", r.Meta.Bookmark); p.Commit < p2.Commit {
		t.Errorf("session read's bookmark %+v is before the write it saw (%+v)", p, p2)
	}
	// A session from a bookmark sees the writes before it, in a batch of
	// statements prepared outside it too.
	s2 := f.db.WithSession(m2.Bookmark)
	if got := s2.Bookmark(); got != m2.Bookmark {
		t.Errorf("WithSession(bookmark).Bookmark() = %q, want the bookmark %q", got, m2.Bookmark)
	}
	rs, err := s2.Batch(ctx, f.db.Prepare("SELECT v FROM "+tbl+" ORDER BY id"), s2.Prepare("INSERT INTO "+tbl+" (v) VALUES ('three')"))
	if err != nil {
		t.Fatal(err)
	}
	if !equalRows(rs[0].Rows, [][]any{{"one"}, {"two"}}) {
		t.Errorf("session from a bookmark read %v, want one and two", rs[0].Rows)
	}
	if rs[0].Meta.Bookmark != rs[1].Meta.Bookmark {
		t.Errorf("results of one batch carry bookmarks %q and %q, want one", rs[0].Meta.Bookmark, rs[1].Meta.Bookmark)
	}
	p3 := position(t, "session batch", rs[1].Meta.Bookmark)
	if p3.Commit <= p2.Commit || s2.Bookmark() != rs[1].Meta.Bookmark {
		t.Errorf("after a writing batch the session is at %q (batch %+v), want past %+v", s2.Bookmark(), p3, p2)
	}
	// Exec counts as a commit.
	if _, err := f.db.Exec(ctx, "UPDATE "+tbl+" SET v = v || '!'; DELETE FROM "+tbl+" WHERE v = 'three!'"); err != nil {
		t.Fatal(err)
	}
	r, err = f.db.WithSession(rs[1].Meta.Bookmark).Prepare("SELECT count(*) FROM " + tbl).All(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if p := position(t, "read after Exec", r.Meta.Bookmark); p.Commit <= p3.Commit {
		t.Errorf("bookmark after an Exec = %+v, want past %+v", p, p3)
	}
}

// testSessionBadBookmarks checks that a session started from a bad
// bookmark runs nothing and fails with an error that says what to do: a
// malformed or altered one at once, one of another database at once, one
// ahead of the database when the wait for it ends.
func testSessionBadBookmarks(t *testing.T, f *fixture) {
	tbl := f.table(t, "badbookmark", "id INTEGER PRIMARY KEY, v TEXT")
	ctx := t.Context()
	m, err := f.db.Prepare("INSERT INTO " + tbl + " (v) VALUES ('x')").Run(ctx)
	if err != nil {
		t.Fatal(err)
	}
	good := position(t, "write", m.Bookmark)
	altered := []byte(m.Bookmark)
	altered[15] = map[bool]byte{true: '1', false: '0'}[altered[15] == '0'] // the commit's last digit
	ins := "INSERT INTO " + tbl + " (v) VALUES ('must not land')"
	tests := []struct {
		name     string
		bookmark string
		timeout  time.Duration
		want     error
		says     string
	}{
		{"malformed", "not-a-bookmark", 0, worker.ErrD1Bookmark, worker.D1FirstPrimary},
		{"altered", string(altered), 0, worker.ErrD1Bookmark, "checksum"},
		{"another database", worker.D1Position{Epoch: good.Epoch ^ 0x5a5a, Commit: good.Commit}.Bookmark(), 0,
			worker.ErrD1BookmarkOtherDatabase, worker.D1FirstPrimary},
		{"ahead, context deadline", worker.D1Position{Epoch: good.Epoch, Commit: good.Commit + 1000}.Bookmark(), 300 * time.Millisecond,
			worker.ErrD1BookmarkAhead, "restored from a backup"},
		{"ahead, bookmark wait", worker.D1Position{Epoch: good.Epoch, Commit: good.Commit + 1000}.Bookmark(), 0,
			worker.ErrD1BookmarkAhead, "restored from a backup"},
	}
	for _, tt := range tests {
		cctx, cancel := ctx, context.CancelFunc(func() {})
		if tt.timeout > 0 {
			cctx, cancel = context.WithTimeout(ctx, tt.timeout)
		}
		start := time.Now()
		_, err := f.db.WithSession(tt.bookmark).Prepare(ins).Run(cctx)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, tt.want) || !strings.Contains(err.Error(), tt.says) {
			t.Errorf("%s: error = %v, want %v saying %q", tt.name, err, tt.want, tt.says)
		}
		wantD1Error(t, err, 0)
		switch {
		case tt.timeout > 0 && !errors.Is(err, context.DeadlineExceeded):
			t.Errorf("%s: error = %v, want it to match the context's deadline", tt.name, err)
		case tt.want == worker.ErrD1BookmarkAhead && tt.timeout == 0 && took < worker.D1BookmarkWait/2:
			t.Errorf("%s: failed after %v, want a wait of about D1BookmarkWait (%v)", tt.name, took, worker.D1BookmarkWait)
		}
	}
	if n := f.count(t, tbl); n != 1 {
		t.Errorf("%s holds %d rows, want 1: a session with a bad bookmark wrote", tbl, n)
	}
	// The database is still reachable through the good bookmark.
	if _, err := f.db.WithSession(m.Bookmark).Prepare(ins).Run(ctx); err != nil {
		t.Errorf("session from a good bookmark: %v", err)
	}
}
