package chat

import (
	"context"
	"sync"

	"github.com/dwk/fleet/appliance/worker"
)

const schema = `
CREATE TABLE IF NOT EXISTS messages (
  id INTEGER PRIMARY KEY AUTOINCREMENT,
  room TEXT NOT NULL,
  user TEXT NOT NULL,
  text TEXT NOT NULL,
  attachment TEXT,
  created_at INTEGER NOT NULL
);
CREATE INDEX IF NOT EXISTS messages_room ON messages (room, id);
CREATE TABLE IF NOT EXISTS notifications (
  message_id INTEGER PRIMARY KEY,
  room TEXT NOT NULL,
  delivered_at INTEGER NOT NULL,
  deliveries INTEGER NOT NULL DEFAULT 1
);`

// schemaOnce creates the D1 tables once per Env (per configured database).
type schemaOnce struct {
	mu   sync.Mutex
	done map[*worker.Env]bool
}

func (s *schemaOnce) ensure(ctx context.Context, env *worker.Env) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.done[env] {
		return nil
	}
	if _, err := env.D1(BindingDB).Exec(ctx, schema); err != nil {
		return err
	}
	if s.done == nil {
		s.done = map[*worker.Env]bool{}
	}
	s.done[env] = true
	return nil
}
