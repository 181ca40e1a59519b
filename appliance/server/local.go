package server

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/datadir"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/server/storeset"
	"github.com/dwk/fleet/appliance/server/tail"
)

// localStores are the local-mode stores of a locked data directory, and
// the object runtime over it.
type localStores struct {
	*storeset.Local
	objects ObjectNamespaces
}

var _ stores = (*localStores)(nil)

func (s *localStores) Objects() ObjectNamespaces { return s.objects }

// openLocal locks the data directory and assembles the workers over
// local-mode stores.
func openLocal(ctx context.Context, cfg *config.Config, m *metrics.Metrics, hub *tail.Hub, log *slog.Logger) (a *app, err error) {
	dir, err := datadir.Open(cfg.Storage.DataDir, config.ModeLocal, cfg.Fleet.Name)
	if err != nil {
		return nil, err
	}
	local, err := storeset.OpenLocal(ctx, dir.Path, storeset.LocalOptions{Logger: log})
	if err != nil {
		dir.Close()
		return nil, err
	}
	st := &localStores{Local: local}
	defer func() {
		if err != nil {
			local.Close()
			dir.Close()
		}
	}()
	secret, err := resolveSecret(cfg, dir)
	if err != nil {
		return nil, err
	}
	envs := newLiveEnvs()
	rt, err := openLocalObjects(ctx, cfg, dir, secret, envs, log)
	if err != nil {
		return nil, err
	}
	st.objects = rt
	objectRuntimeMetrics(m, "", rt.Runtime)
	a, err = assemble(cfg, st, envs, m, hub, cron.LocalClaimer{}, log)
	if err == nil {
		err = rt.start(ctx)
	}
	if err != nil {
		rt.Close(context.Background())
		return nil, err
	}
	a.objects = rt
	a.closers = []io.Closer{dir, local}
	return a, nil
}

func resolveSecret(cfg *config.Config, dir *datadir.Dir) ([]byte, error) {
	if cfg.Fleet.Secret != nil {
		v, err := cfg.Fleet.Secret.Resolve()
		if err != nil {
			return nil, fmt.Errorf("fleet.secret: %w", err)
		}
		return []byte(v), nil
	}
	v, err := dir.Secret()
	return []byte(v), err
}
