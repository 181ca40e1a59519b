package queue

import (
	"context"
	"time"
)

// Stored is one message of a backlog as a migration moves it (package
// migrate): attempts and receipts are not moved, as at-least-once
// delivery allows.
type Stored struct {
	ID          string
	Body        []byte
	ContentType string
	// Delay is how long from now the message stays invisible.
	Delay time.Duration
}

// Imported is a message Mover.Import stored: its id, the SHA-256 of its
// body and its content type.
type Imported struct {
	ID          string
	BodySHA256  []byte
	ContentType string
}

// Mover is a broker whose backlog a migration moves. Both brokers are.
type Mover interface {
	// Backlog returns q's messages not yet acknowledged, claimed ones
	// included, oldest first.
	Backlog(ctx context.Context, q string) ([]Stored, error)
	// Import stores msgs on q with their ids, in one transaction, and
	// remembers each id: an id imported before is skipped, even when its
	// message has been delivered since, so a repeated import sends
	// nothing twice.
	Import(ctx context.Context, q string, msgs []Stored) error
	// Imported lists what Import stored on q.
	Imported(ctx context.Context, q string) ([]Imported, error)
}

// ImportsSchema is the table both brokers remember imported ids in.
const ImportsSchema = `CREATE TABLE IF NOT EXISTS queue_imports (
	id           TEXT PRIMARY KEY,
	queue        TEXT NOT NULL,
	body_sha256  BLOB NOT NULL,
	content_type TEXT NOT NULL
)`
