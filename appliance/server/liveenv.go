package server

import (
	"context"
	"log/slog"
	"maps"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/dwk/fleet/appliance/worker"
)

// liveEnvs holds each worker's current Env. assemble adds every worker's
// before anything reads them, and the set of workers is fixed from then
// on; setStored swaps a worker's Env for one with new secrets, so every
// event that starts afterwards (a request, an RPC, a cron tick, a queue
// batch, an object's construction) gets the new values, while events
// already running keep the Env they started with.
type liveEnvs struct {
	m map[string]*liveEnv
	// mu serialises setStored.
	mu sync.Mutex
}

// liveEnv is one worker's current Env.
type liveEnv struct {
	cur atomic.Pointer[worker.Env]
	// config are the worker's secrets from dwk.json (and its project's
	// wrangler file), which stored secrets of the same name override.
	config map[string]worker.Secret
}

func newLiveEnvs() *liveEnvs { return &liveEnvs{m: map[string]*liveEnv{}} }

// add makes env the Env of its worker; call it while assembling only.
func (l *liveEnvs) add(env *worker.Env, config map[string]worker.Secret) *liveEnv {
	e := &liveEnv{config: config}
	e.cur.Store(env)
	l.m[env.Worker()] = e
	return e
}

// get returns the current Env of the worker name.
func (l *liveEnvs) get(name string) (*worker.Env, bool) {
	if e, ok := l.m[name]; ok {
		return e.get(), true
	}
	return nil, false
}

// get returns the worker's current Env.
func (e *liveEnv) get() *worker.Env { return e.cur.Load() }

// setStored makes each worker's secrets its configured ones with
// stored[worker] over them (a stored secret overrides the configured
// one of the same name), swapping in a new Env for each worker whose
// secrets change. It logs the names of the secrets that changed, never
// a value. Stored secrets of a worker this replica does not run are
// ignored.
func (l *liveEnvs) setStored(stored map[string]map[string]worker.Secret, log *slog.Logger) {
	l.mu.Lock()
	defer l.mu.Unlock()
	for _, name := range slices.Sorted(maps.Keys(l.m)) {
		e := l.m[name]
		next := maps.Clone(e.config)
		if next == nil {
			next = map[string]worker.Secret{}
		}
		maps.Copy(next, stored[name])
		cur := e.get()
		changed, removed := diffSecrets(cur, next)
		if len(changed) == 0 && len(removed) == 0 {
			continue
		}
		e.cur.Store(cur.WithSecrets(next))
		log.LogAttrs(context.Background(), slog.LevelInfo, "secrets changed: new events see them",
			slog.String("worker", name), slog.Any("set", changed), slog.Any("removed", removed))
	}
}

// diffSecrets names the secrets next sets to a value env lacks or holds
// otherwise, and those env holds that next does not.
func diffSecrets(env *worker.Env, next map[string]worker.Secret) (changed, removed []string) {
	for _, name := range slices.Sorted(maps.Keys(next)) {
		if v, ok := env.Secret(name); !ok || v != next[name] {
			changed = append(changed, name)
		}
	}
	for _, name := range env.SecretNames() {
		if _, ok := next[name]; !ok {
			removed = append(removed, name)
		}
	}
	return changed, removed
}

// liveQueue hands a queue handler the worker's current Env, not the one
// its consumer was made with.
type liveQueue struct {
	h   worker.QueueConsumer
	env *liveEnv
}

var _ worker.QueueConsumer = liveQueue{}

func (q liveQueue) Queue(ctx context.Context, b *worker.MessageBatch, _ *worker.Env) error {
	return q.h.Queue(ctx, b, q.env.get())
}
