package server

import (
	"context"
	"fmt"
	"log/slog"
	"path/filepath"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objlocal"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/worker"
)

// localObjects is the object runtime of local mode and the alarm index it
// owns.
type localObjects struct {
	*objects.Runtime
	index *objlocal.AlarmIndex
}

// start opens the runtime; call it once every Env exists, because alarms may
// fire at once.
func (o *localObjects) start(ctx context.Context) error {
	if err := o.Runtime.Open(ctx); err != nil {
		return fmt.Errorf("start objects: %w", err)
	}
	return nil
}

// Close closes the runtime, then its alarm index.
func (o *localObjects) Close(ctx context.Context) error {
	err := o.Runtime.Close(ctx)
	if cerr := o.index.Close(); err == nil {
		err = cerr
	}
	return err
}

// openLocalObjects makes (but does not start) the object runtime over one SQLite file per
// object. envs is filled in by assemble; an object class gets the Env of the
// first worker (in config order) that binds it.
func openLocalObjects(ctx context.Context, cfg *config.Config, dir *datadir.Dir, secret []byte, envs *liveEnvs, log *slog.Logger) (*localObjects, error) {
	idx, err := objlocal.OpenAlarmIndex(ctx, filepath.Join(dir.Path, objlocal.AlarmIndexFile))
	if err != nil {
		return nil, fmt.Errorf("open alarm index: %w", err)
	}
	rt := objects.New(objects.Config{
		Secret: secret,
		Store:  objlocal.NewStore(dir.Path),
		Alarms: idx,
		Env:    classEnv(cfg, envs),
		Logger: log.With("component", "objects"),

		IdleTimeout: cfg.Objects.IdleTimeout.D(), MaxWebSocketMessage: cfg.Objects.MaxWebSocketMessageBytes,
	})
	return &localObjects{Runtime: rt, index: idx}, nil
}

// classEnv returns the Env lookup the object runtime calls lazily, after
// assemble has built every worker's Env, each time it constructs an
// object: an object gets the Env current then, and keeps it while it
// stays in memory.
func classEnv(cfg *config.Config, envs *liveEnvs) func(class string) *worker.Env {
	owner := map[string]string{}
	for _, w := range cfg.Workers {
		for _, class := range w.Bindings.Objects {
			if _, ok := owner[class]; !ok {
				owner[class] = w.Name
			}
		}
	}
	return func(class string) *worker.Env {
		if e, ok := envs.get(owner[class]); ok {
			return e
		}
		return worker.NewEnv(class, worker.Bindings{})
	}
}
