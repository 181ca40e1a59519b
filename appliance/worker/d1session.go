package worker

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"
	"time"
)

// D1 sessions (Cloudflare's withSession): a sequence of queries that each
// see at least what the one before saw, wherever they run, and a bookmark
// that carries that guarantee to another session, request or replica.
//
// A bookmark is a commit position of one database: the number of write
// batches (and Exec scripts) committed since the database was created,
// with the database's epoch, a random number it took at its first write
// (so a bookmark of another database, or of one deleted and created again,
// is recognised), and a checksum. Its text form is
//
//	<commit, 16 hex digits>-<epoch, 16 hex digits>-<checksum, 8 hex digits>
//
// so two bookmarks of one database sort as their positions do. Backends
// keep the position in the database itself, in the table D1BookmarkTable,
// advanced inside the transaction of every write.

// Session constraints, as Cloudflare names them: where the first query of
// a new session may run. Later queries run at or after the bookmark of the
// one before. Every dwk D1 database has one copy that every replica
// queries (the SQLite file in local mode, the libSQL primary in central
// mode), so both constraints behave alike: a query always sees every write
// acknowledged before it.
const (
	// D1FirstPrimary: the first query sees the latest committed state.
	D1FirstPrimary = "first-primary"
	// D1FirstUnconstrained: the first query may see any committed state.
	D1FirstUnconstrained = "first-unconstrained"
)

// D1BookmarkTable is the table in which a D1 database keeps its commit
// position (one row: epoch and position). Backends create it; applications
// must not write to it. It shows up in sqlite_schema, as Cloudflare's
// _cf_KV does.
const D1BookmarkTable = "_dwk_bookmark"

// D1BookmarkWait bounds how long a session waits for a database to reach
// a bookmark ahead of it before the query fails with ErrD1BookmarkAhead.
// With one copy per database a bookmark is never legitimately ahead, so
// the wait only gives a concurrent writer's commit time to land.
const D1BookmarkWait = 2 * time.Second

// Bookmark errors. A query of a session started from such a bookmark fails
// with a *D1Error wrapping one of them, and runs nothing.
var (
	// ErrD1Bookmark: the text is not a bookmark (malformed or damaged).
	ErrD1Bookmark = errors.New("d1: malformed bookmark")
	// ErrD1BookmarkOtherDatabase: the bookmark is of another database, or
	// of an earlier database of the same name (deleted and created again).
	ErrD1BookmarkOtherDatabase = errors.New("d1: the bookmark belongs to another database")
	// ErrD1BookmarkAhead: the database had not reached the bookmark's
	// position within D1BookmarkWait (restored from an earlier backup, or
	// the bookmark is of another database that had not written yet).
	ErrD1BookmarkAhead = errors.New("d1: the bookmark is ahead of the database")
)

// D1Position is a commit position of one database: what a bookmark holds.
// The zero value is the position of a database that never wrote, which
// every database has reached.
type D1Position struct {
	// Epoch identifies the database: a random non-zero number it took at
	// its first write; 0 before that.
	Epoch uint64
	// Commit counts the write batches and Exec scripts the database has
	// committed.
	Commit uint64
}

// Bookmark is p's text form.
func (p D1Position) Bookmark() string {
	var b [16 + 1 + 16 + 1 + 8]byte
	putHex(b[0:16], p.Commit)
	b[16] = '-'
	putHex(b[17:33], p.Epoch)
	b[33] = '-'
	putHex(b[34:42], uint64(p.checksum()))
	return string(b[:])
}

// putHex writes v's low len(dst)*4 bits into dst as lowercase hex digits.
func putHex(dst []byte, v uint64) {
	const digits = "0123456789abcdef"
	for i := len(dst) - 1; i >= 0; i-- {
		dst[i] = digits[v&0xf]
		v >>= 4
	}
}

func (p D1Position) checksum() uint32 {
	const domain = "dwk d1 bookmark\x00"
	var b [len(domain) + 16]byte
	copy(b[:], domain)
	binary.BigEndian.PutUint64(b[len(domain):], p.Commit)
	binary.BigEndian.PutUint64(b[len(domain)+8:], p.Epoch)
	sum := sha256.Sum256(b[:])
	return binary.BigEndian.Uint32(sum[:4])
}

// Reached reports whether a database at p has reached want: want is of
// the same database (or of none) and not ahead. It fails with
// ErrD1BookmarkOtherDatabase or ErrD1BookmarkAhead, saying what to do.
func (p D1Position) Reached(want D1Position) error {
	switch {
	case want.Epoch != 0 && p.Epoch != 0 && want.Epoch != p.Epoch:
		return fmt.Errorf("%w (bookmark %s, database epoch %016x): start the session with %q instead",
			ErrD1BookmarkOtherDatabase, want.Bookmark(), p.Epoch, D1FirstPrimary)
	case want.Commit > p.Commit:
		return fmt.Errorf("%w (bookmark at commit %d, database at commit %d): if the database was restored from a backup or created again, start the session with %q instead",
			ErrD1BookmarkAhead, want.Commit, p.Commit, D1FirstPrimary)
	}
	return nil
}

// ParseD1Bookmark parses a bookmark's text form.
func ParseD1Bookmark(s string) (D1Position, error) {
	bad := func(why string) (D1Position, error) {
		return D1Position{}, fmt.Errorf("%w %q: %s; pass a bookmark from D1Session.Bookmark or D1Meta.Bookmark unchanged, or %q or %q",
			ErrD1Bookmark, s, why, D1FirstPrimary, D1FirstUnconstrained)
	}
	parts := strings.Split(s, "-")
	if len(parts) != 3 || len(parts[0]) != 16 || len(parts[1]) != 16 || len(parts[2]) != 8 {
		return bad("want <16 hex digits>-<16 hex digits>-<8 hex digits>")
	}
	var v [3]uint64
	for i, part := range parts {
		n, err := strconv.ParseUint(part, 16, 64)
		if err != nil || strings.ToLower(part) != part {
			return bad("not lowercase hexadecimal")
		}
		v[i] = n
	}
	p := D1Position{Commit: v[0], Epoch: v[1]}
	if uint64(p.checksum()) != v[2] || (p.Epoch == 0) != (p.Commit == 0) {
		return bad("its checksum does not match (the text was changed)")
	}
	return p, nil
}

// D1Session is a D1 session: queries made through it (Prepare, Batch)
// each see at least what the one before saw, and Bookmark says how far
// they got. It is safe for concurrent use; concurrent queries are
// ordered only as their bookmarks are.
type D1Session struct {
	db  *D1
	err error // a malformed constraint or bookmark, returned by every query

	mu  sync.Mutex
	pos D1Position
	set bool // pos is a bookmark (given, or from a query)
}

// WithSession starts a session: constraintOrBookmark is D1FirstPrimary,
// D1FirstUnconstrained, "" (the same as D1FirstUnconstrained, as
// Cloudflare's default), or a bookmark from an earlier session, whose
// writes the session's queries then see. A malformed one fails every query
// of the session with ErrD1Bookmark.
func (db *D1) WithSession(constraintOrBookmark string) *D1Session {
	s := &D1Session{db: db}
	switch constraintOrBookmark {
	case "", D1FirstPrimary, D1FirstUnconstrained:
	default:
		s.pos, s.err = ParseD1Bookmark(constraintOrBookmark)
		s.set = s.err == nil
	}
	return s
}

// Prepare returns a statement whose queries run in the session.
func (s *D1Session) Prepare(sql string) D1Statement {
	st := s.db.Prepare(sql)
	st.sess = s
	return st
}

// Batch runs stmts as one transaction in the session, wherever they were
// prepared.
func (s *D1Session) Batch(ctx context.Context, stmts ...D1Statement) ([]D1Result, error) {
	qs, err := queries(stmts)
	if err != nil {
		return nil, err
	}
	return s.run(ctx, qs)
}

// Bookmark is the bookmark of the latest position the session's queries
// saw, or the bookmark it started from; "" before its first query when it
// started from a constraint (Cloudflare's getBookmark returns null then).
func (s *D1Session) Bookmark() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.set {
		return ""
	}
	return s.pos.Bookmark()
}

// run runs qs at or after the session's position, waiting up to
// D1BookmarkWait while the database is behind it, and advances the
// position to the results'.
func (s *D1Session) run(ctx context.Context, qs []D1Query) ([]D1Result, error) {
	if len(qs) == 0 {
		return []D1Result{}, nil
	}
	if s.err != nil {
		return nil, &D1Error{SQL: qs[0].SQL, Err: s.err}
	}
	s.mu.Lock()
	after := s.pos
	s.mu.Unlock()
	deadline := time.Now().Add(D1BookmarkWait)
	backoff := 10 * time.Millisecond
	var ahead error // the last ErrD1BookmarkAhead
	for {
		rs, err := s.db.backend.BatchAfter(ctx, after, qs)
		switch {
		case err == nil:
			s.advance(rs)
			return rs, nil
		case errors.Is(err, ErrD1BookmarkAhead):
			ahead = err
		case ahead != nil && ctx.Err() != nil:
			return nil, &D1Error{SQL: qs[0].SQL, Err: fmt.Errorf("%w: %w", ctx.Err(), ahead)}
		default:
			return nil, err
		}
		if time.Now().Add(backoff).After(deadline) {
			return nil, err
		}
		t := time.NewTimer(backoff)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, &D1Error{SQL: qs[0].SQL, Err: fmt.Errorf("%w: %w", ctx.Err(), ahead)}
		case <-t.C:
		}
		backoff = min(2*backoff, 200*time.Millisecond)
	}
}

// advance moves the session's position to the results' bookmark if it is
// later (concurrent queries may finish out of order).
func (s *D1Session) advance(rs []D1Result) {
	if len(rs) == 0 {
		return
	}
	p, err := ParseD1Bookmark(rs[0].Meta.Bookmark)
	if err != nil {
		return // a backend's bookmark always parses; an empty batch has none
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if !s.set || p.Commit > s.pos.Commit || s.pos.Epoch != p.Epoch {
		s.pos, s.set = p, true
	}
}
