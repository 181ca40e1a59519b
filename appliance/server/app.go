package server

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/peermux"
	"github.com/dwk/fleet/appliance/process/background"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/server/tail"
	"github.com/dwk/fleet/appliance/worker"
)

// app is an assembled set of workers over one storage mode's stores.
type app struct {
	handler http.Handler
	// internal serves other replicas and the front door (central mode):
	// the workers plus the internal object endpoints. Nil in local mode.
	internal http.Handler
	// link is the peer link the internal listener is served with (TLS,
	// request MACs). Nil in local mode.
	link *peerlink.Link
	// streams accepts the streams peers' front doors open to the
	// internal listener (their WebSocket tunnels), nil in local mode.
	streams   *peermux.Listener
	fleet     fleetSide
	cron      *cron.Scheduler
	consumers []*queue.Consumer
	// broker is the stores' queue broker, for the fleet page's backlogs.
	broker  queue.Broker
	objects objectRuntime
	// background keeps the work handlers started with worker.WaitUntil.
	background *background.Tracker
	closers    []io.Closer // closed last, in reverse order
	log        *slog.Logger

	releaseOnce sync.Once
	releaseErr  error
}

// fleetSide is the central-mode part of a replica's lifecycle.
type fleetSide interface {
	// ready announces the replica as ready to the fleet.
	ready(ctx context.Context) error
	// draining announces the drain and stops taking leases.
	draining(ctx context.Context)
	// handBack releases every lease.
	handBack(ctx context.Context) error
	// deposed reports whether the replica's peers deposed it (it cannot
	// be reached), so that it reports not ready.
	deposed() bool
	// close leaves the fleet and closes the central stores.
	close(ctx context.Context) error
}

// objectRuntime is what the server needs of the object runtime.
type objectRuntime interface {
	Drain(ctx context.Context) error
	Close(ctx context.Context) error
}

// stores opens the stores of one storage mode, by store name. Calls with the
// same name return the same store.
type stores interface {
	D1(name string) (worker.D1Backend, error)
	R2(name string) (worker.R2Bucket, error)
	KV(name string) (worker.KVNamespace, error)
	Broker() queue.Broker
	Objects() ObjectNamespaces
}

// ObjectNamespaces hands out object namespace bindings.
type ObjectNamespaces interface {
	Namespace(bindingName, className string) (worker.ObjectNamespace, error)
}

// assemble builds every worker's Env from st and wires routes, cron and
// queue consumers. envs receives each worker's Env by name, so the object
// runtime can construct a class with the Env of the worker that binds it;
// handlers, cron and consumers take the worker's Env from envs at each
// event, so a new Env (its secrets changed) reaches the next event.
func assemble(cfg *config.Config, st stores, envs *liveEnvs, m *metrics.Metrics, hub *tail.Hub, claimer cron.TickClaimer, log *slog.Logger) (*app, error) {
	a := &app{log: log, broker: st.Broker(), background: background.New(log)}
	var routes []route
	var entries []cron.Entry
	svc := newServices()
	for i, wc := range cfg.Workers {
		w, ok := worker.LookupWorker(wc.Name)
		if !ok {
			return nil, fmt.Errorf("workers[%d]: no worker %q in this binary", i, wc.Name)
		}
		b, err := bindings(wc, st, svc)
		if err != nil {
			return nil, fmt.Errorf("worker %q: %w", wc.Name, err)
		}
		env := envs.add(worker.NewEnv(wc.Name, b), b.Secrets)
		if f, ok := w.(worker.Fetcher); ok {
			h := instrument(m, wc.Name, fetchHandler(f, env, a.background, wc.Name))
			svc.add(wc.Name, rpcHandler(w, env, wc.Name, h))
			for _, p := range wc.Routes {
				routes = append(routes, route{prefix: p, name: wc.Name, handler: h})
			}
		}
		if len(wc.Crons) > 0 {
			if _, ok := w.(worker.Scheduler); !ok {
				return nil, fmt.Errorf("worker %q has crons but no Scheduled handler", wc.Name)
			}
			for _, expr := range wc.Crons {
				s, err := cron.Parse(expr)
				if err != nil {
					return nil, fmt.Errorf("worker %q: %w", wc.Name, err)
				}
				entries = append(entries, cron.Entry{Worker: wc.Name, Schedule: s})
			}
		}
		for _, qc := range wc.Consumers {
			h, ok := w.(worker.QueueConsumer)
			if !ok {
				return nil, fmt.Errorf("worker %q consumes %q but has no Queue handler", wc.Name, qc.Queue)
			}
			h = queueWithBackground{h: liveQueue{h: h, env: env}, bg: a.background.For(wc.Name, "queue "+qc.Queue)}
			c, err := queue.NewConsumer(st.Broker(), h, env.get(), consumerConfig(qc), log.With("queue", qc.Queue))
			if err != nil {
				return nil, fmt.Errorf("worker %q consumer %q: %w", wc.Name, qc.Queue, err)
			}
			a.consumers = append(a.consumers, c)
		}
	}
	if err := svc.check(); err != nil {
		return nil, err
	}
	a.handler = newRouter(routes, hub, cfg.Fleet.Member)
	if m != nil {
		queueMetrics(m, cfg, st.Broker())
	}
	if len(entries) > 0 {
		s, err := cron.NewScheduler(cron.SchedulerConfig{
			Entries: entries,
			Claimer: claimer,
			Logger:  log,
			Run: func(ctx context.Context, name string, ev worker.ScheduledEvent) error {
				w, _ := worker.LookupWorker(name)
				ctx = worker.WithBackground(ctx, a.background.For(name, "cron "+ev.Cron))
				env, _ := envs.get(name)
				return w.(worker.Scheduler).Scheduled(ctx, ev, env)
			},
		})
		if err != nil {
			return nil, err
		}
		a.cron = s
		if m != nil {
			cronMetrics(m, cfg.Fleet.Member, s)
		}
	}
	return a, nil
}

func bindings(wc config.Worker, st stores, svc *services) (worker.Bindings, error) {
	b := worker.Bindings{
		D1: map[string]worker.D1Backend{}, R2: map[string]worker.R2Bucket{}, KV: map[string]worker.KVNamespace{},
		Queues: map[string]worker.Queue{}, Objects: map[string]worker.ObjectNamespace{}, Vars: wc.Bindings.Vars,
	}
	var err error
	if b.Secrets, err = secretBindings(wc.Bindings.Secrets); err != nil {
		return b, err
	}
	b.Services = make(map[string]worker.Service, len(wc.Bindings.Services))
	for name, target := range wc.Bindings.Services {
		b.Services[name] = svc.binding(wc.Name, name, target)
	}
	for name, db := range wc.Bindings.D1 {
		if b.D1[name], err = st.D1(db); err != nil {
			return b, fmt.Errorf("d1 %s (%s): %w", name, db, err)
		}
	}
	for name, bucket := range wc.Bindings.R2 {
		if b.R2[name], err = st.R2(bucket); err != nil {
			return b, fmt.Errorf("r2 %s (%s): %w", name, bucket, err)
		}
	}
	for name, ns := range wc.Bindings.KV {
		if b.KV[name], err = st.KV(ns); err != nil {
			return b, fmt.Errorf("kv %s (%s): %w", name, ns, err)
		}
	}
	for name, q := range wc.Bindings.Queues {
		p, err := queue.NewProducer(st.Broker(), q)
		if err != nil {
			return b, fmt.Errorf("queue %s (%s): %w", name, q, err)
		}
		b.Queues[name] = p
	}
	for name, class := range wc.Bindings.Objects {
		if b.Objects[name], err = st.Objects().Namespace(name, class); err != nil {
			return b, fmt.Errorf("objects %s (%s): %w", name, class, err)
		}
	}
	return b, nil
}

func consumerConfig(qc config.Consumer) queue.ConsumerConfig {
	c := queue.DefaultConsumerConfig(qc.Queue)
	c.MaxBatchSize = qc.MaxBatchSize
	c.MaxBatchTimeout = qc.MaxBatchTimeout.D()
	if qc.MaxRetries != nil {
		c.MaxRetries = *qc.MaxRetries
	}
	c.DeadLetterQueue = qc.DeadLetterQueue
	c.RetryDelay = qc.RetryDelay.D()
	c.VisibilityTimeout = qc.VisibilityTimeout.D()
	c.MaxConcurrency = qc.MaxConcurrency
	return c
}

// start begins background work: cron and queue consumers. (The object
// runtime's alarm scheduler starts when the runtime opens.)
func (a *app) start() error {
	if a.cron != nil {
		if err := a.cron.Start(); err != nil {
			return fmt.Errorf("start cron: %w", err)
		}
	}
	for _, c := range a.consumers {
		if err := c.Start(); err != nil {
			return fmt.Errorf("start queue consumer: %w", err)
		}
	}
	return nil
}

// stopAdmission stops taking cron ticks and queue batches; work in flight
// goes on.
func (a *app) stopAdmission(context.Context) {
	if a.cron != nil {
		a.cron.Drain()
	}
	for _, c := range a.consumers {
		c.Drain()
	}
}

// release waits for background work, hands leases back and drains objects
// (closing WebSockets with 1012).
func (a *app) release(ctx context.Context) error {
	a.releaseOnce.Do(func() { a.releaseErr = a.doRelease(ctx) })
	return a.releaseErr
}

func (a *app) doRelease(ctx context.Context) error {
	var errs []error
	if a.cron != nil {
		if err := a.cron.Stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stop cron: %w", err))
		}
	}
	for _, c := range a.consumers {
		if err := c.Stop(ctx); err != nil {
			errs = append(errs, fmt.Errorf("stop queue consumer: %w", err))
		}
	}
	// Background work next (handlers are done, so no more starts but
	// from tasks themselves), within its share of the drain budget.
	bctx, cancel := backgroundBudget(ctx)
	if err := a.background.Drain(bctx); err != nil {
		errs = append(errs, fmt.Errorf("background work: %w", err))
	}
	cancel()
	// Objects first: the runtime refuses new events (they are replayed
	// elsewhere), waits for running ones, closes WebSockets with 1012 and
	// releases each object's lease; then any lease left is handed back.
	if a.objects != nil {
		if err := a.objects.Drain(ctx); err != nil {
			errs = append(errs, fmt.Errorf("drain objects: %w", err))
		}
	}
	if a.fleet != nil {
		if err := a.fleet.handBack(ctx); err != nil {
			errs = append(errs, fmt.Errorf("hand back leases: %w", err))
		}
	}
	return errors.Join(errs...)
}

// close releases (if not done yet) and closes every store. A release that
// already ran reported its error then; it is not repeated.
func (a *app) close(ctx context.Context) error {
	var errs []error
	a.releaseOnce.Do(func() {
		a.releaseErr = a.doRelease(ctx)
		errs = append(errs, a.releaseErr)
	})
	if a.objects != nil {
		if err := a.objects.Close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("close objects: %w", err))
		}
	}
	for i := len(a.closers) - 1; i >= 0; i-- {
		if err := a.closers[i].Close(); err != nil {
			errs = append(errs, err)
		}
	}
	if a.fleet != nil {
		if err := a.fleet.close(ctx); err != nil {
			errs = append(errs, fmt.Errorf("leave fleet: %w", err))
		}
	}
	return errors.Join(errs...)
}
