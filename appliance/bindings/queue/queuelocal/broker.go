// Package queuelocal is the local-mode queue broker: every queue of a data
// directory lives in one SQLite file (data_dir/queues.db is the appliance's
// layout), one row per stored message.
//
// A claim is a transaction that moves the claimed rows' visible_at forward by
// the visibility timeout, counts the attempt and stamps a fresh receipt;
// settling requires that receipt, so a late settlement from a consumer whose
// claim timed out and was claimed again changes nothing. Dead-lettering moves
// the row to the other queue in the same statement. Times are Unix
// milliseconds of the injected clock.
package queuelocal

import (
	"context"
	"crypto/rand"
	"database/sql"
	"fmt"
	"io"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/process/sqlitedb"
)

// Options tune a Broker. The zero value is the default.
type Options struct {
	// Now is the clock delays and visibility timeouts are judged by.
	// Default: time.Now.
	Now func() time.Time
	// Rand is the source of message IDs and receipts. Default: crypto/rand.
	Rand io.Reader
}

// Broker is the SQLite queue broker. It is safe for concurrent use, and
// several Brokers (even in several processes) may open the same file.
type Broker struct {
	db   *sql.DB
	path string
	now  func() time.Time
	rand io.Reader
	once sync.Once
	err  error
}

var _ queue.Broker = (*Broker)(nil)

const schema = `
CREATE TABLE IF NOT EXISTS messages (
	seq          INTEGER PRIMARY KEY AUTOINCREMENT,
	queue        TEXT    NOT NULL,
	id           TEXT    NOT NULL UNIQUE,
	body         BLOB    NOT NULL,
	content_type TEXT    NOT NULL,
	sent_at      INTEGER NOT NULL,
	visible_at   INTEGER NOT NULL,
	attempts     INTEGER NOT NULL DEFAULT 0,
	receipt      TEXT
);
CREATE INDEX IF NOT EXISTS messages_visible ON messages(queue, visible_at, seq);
CREATE INDEX IF NOT EXISTS messages_sent ON messages(queue, sent_at);
`

// Open opens (creating if needed) the queue file at path. The caller must
// Close the Broker.
func Open(ctx context.Context, path string, o Options) (*Broker, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	if o.Rand == nil {
		o.Rand = rand.Reader
	}
	db, err := sqlitedb.Open(ctx, path, sqlitedb.Options{})
	if err != nil {
		return nil, fmt.Errorf("open queue broker: %w", err)
	}
	if _, err := db.ExecContext(ctx, schema); err != nil {
		db.Close()
		return nil, fmt.Errorf("create queue schema in %s: %w", path, err)
	}
	return &Broker{db: db, path: path, now: o.Now, rand: o.Rand}, nil
}

// Close closes the file. It is safe to call more than once; later calls
// return the first call's result.
func (b *Broker) Close() error {
	b.once.Do(func() {
		if err := b.db.Close(); err != nil {
			b.err = fmt.Errorf("close queue broker %s: %w", b.path, err)
		}
	})
	return b.err
}

// Depth counts the messages stored on q: visible, delayed and claimed.
func (b *Broker) Depth(ctx context.Context, q string) (int, error) {
	if err := queue.ValidateName(q); err != nil {
		return 0, err
	}
	var n int
	if err := b.db.QueryRowContext(ctx, `SELECT count(*) FROM messages WHERE queue = ?`, q).Scan(&n); err != nil {
		return 0, fmt.Errorf("depth of queue %q: %w", q, err)
	}
	return n, nil
}

// token returns 16 random bytes in hex, for message IDs and receipts.
func (b *Broker) token() (string, error) {
	var buf [16]byte
	if _, err := io.ReadFull(b.rand, buf[:]); err != nil {
		return "", fmt.Errorf("random token: %w", err)
	}
	return fmt.Sprintf("%x", buf), nil
}

// inTx runs fn in an immediate transaction, committing if it returns nil.
func (b *Broker) inTx(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := b.db.BeginTx(ctx, nil)
	if err != nil {
		return err
	}
	if err := fn(tx); err != nil {
		tx.Rollback()
		return err
	}
	return tx.Commit()
}
