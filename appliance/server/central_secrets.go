package server

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/fleet/workersecrets"
)

// storedSecrets reads the secrets put with `dwk secret put` and applies
// them to envs, before the replica serves: a replica never answers with
// a value a put has replaced.
func (f *centralFleet) storedSecrets(ctx context.Context, secret []byte, fleet string, envs *liveEnvs, log *slog.Logger) (*workersecrets.Store, workersecrets.Snapshot, error) {
	ws, err := workersecrets.New(f.coord, secret, fleet)
	if err != nil {
		return nil, workersecrets.Snapshot{}, err
	}
	snap, err := ws.Load(ctx)
	if err != nil {
		return nil, workersecrets.Snapshot{}, fmt.Errorf("%w (the secrets put with dwk secret put)", err)
	}
	applySecrets(snap, envs, log)
	return ws, snap, nil
}

// followSecrets applies every change of the stored secrets while the
// replica runs (workersecrets.Follow), until the fleet side closes.
func (f *centralFleet) followSecrets(ws *workersecrets.Store, from workersecrets.Snapshot, envs *liveEnvs, log *slog.Logger) {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		ws.Follow(ctx, from, workersecrets.FollowOptions{Logger: log}, func(s workersecrets.Snapshot) { applySecrets(s, envs, log) })
	}()
	f.closers = append(f.closers, func() error {
		cancel()
		select {
		case <-done:
			return nil
		case <-time.After(followStopTimeout):
			return errors.New("stop following the stored secrets: a poll did not end")
		}
	})
}

// followStopTimeout bounds the wait for a poll cancelled by close.
const followStopTimeout = 10 * time.Second

// applySecrets makes snap's secrets the workers' stored ones, reporting
// those that did not open (by name: a value is never logged).
func applySecrets(snap workersecrets.Snapshot, envs *liveEnvs, log *slog.Logger) {
	for _, u := range snap.Unreadable {
		log.Warn("a stored secret does not open and is ignored: the worker gets dwk.json's value of that name, if any; put it again with dwk secret put",
			"worker", u.Worker, "secret", u.Name, "err", u.Err)
	}
	envs.setStored(snap.Workers, log)
}
