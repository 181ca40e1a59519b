package worker

import (
	"context"
	"fmt"
	"net/http"
	"sort"
	"sync"
	"time"
)

// Fetcher handles HTTP requests sent to a worker.
type Fetcher interface {
	Fetch(w http.ResponseWriter, r *http.Request, env *Env)
}

// Scheduler handles cron triggers. Each tick of a schedule runs once across
// the fleet; a returned error is logged and counted, and the tick is not
// retried.
type Scheduler interface {
	Scheduled(ctx context.Context, ev ScheduledEvent, env *Env) error
}

// QueueConsumer handles batches of queue messages. Messages the handler
// neither acks nor retries are acked when it returns nil and retried when it
// returns an error.
type QueueConsumer interface {
	Queue(ctx context.Context, batch *MessageBatch, env *Env) error
}

// ScheduledEvent describes one cron tick.
type ScheduledEvent struct {
	// Cron is the schedule expression as configured.
	Cron string
	// ScheduledTime is the tick's nominal time (UTC), not the time it ran.
	ScheduledTime time.Time
}

// ObjectClass constructs an object instance. It is called once each time the
// object is started on a replica, before its first event. It must not block:
// slow initialisation belongs in State.BlockConcurrencyWhile.
type ObjectClass func(state *State, env *Env) Object

var registry = struct {
	sync.RWMutex
	workers map[string]any
	objects map[string]ObjectClass
	options map[string]objectOptions
}{workers: map[string]any{}, objects: map[string]ObjectClass{}, options: map[string]objectOptions{}}

// RegisterWorker makes a worker available under name. w must implement at
// least one of Fetcher, Scheduler and QueueConsumer. It panics on a duplicate
// name or an empty worker, like caddy.RegisterModule, because both are
// programming errors found at start-up.
func RegisterWorker(name string, w any) {
	if name == "" {
		panic("worker: RegisterWorker with empty name")
	}
	_, f := w.(Fetcher)
	_, s := w.(Scheduler)
	_, q := w.(QueueConsumer)
	if !f && !s && !q {
		panic(fmt.Sprintf("worker: %q implements none of Fetcher, Scheduler, QueueConsumer", name))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.workers[name]; dup {
		panic(fmt.Sprintf("worker: worker %q already registered", name))
	}
	registry.workers[name] = w
}

// ProvideWorker makes a worker the host loaded at run time (a Workers
// project in JavaScript, say) available under name. Unlike
// RegisterWorker it replaces a worker already registered under the name:
// a project may be called "chat" in a binary whose reference worker is
// too, and a config names each worker once, so only one of them can be
// configured. It fails for an empty name or a worker with no handler.
func ProvideWorker(name string, w any) error {
	if name == "" {
		return fmt.Errorf("worker: a worker needs a name")
	}
	_, f := w.(Fetcher)
	_, s := w.(Scheduler)
	_, q := w.(QueueConsumer)
	if !f && !s && !q {
		return fmt.Errorf("worker: %q implements none of Fetcher, Scheduler, QueueConsumer", name)
	}
	registry.Lock()
	defer registry.Unlock()
	registry.workers[name] = w
	return nil
}

// ProvideObject is RegisterObject for a class the host loaded at run
// time: it replaces a class registered under the same name, and returns
// an error instead of panicking.
func ProvideObject(class string, newObject ObjectClass, opts ...ObjectOption) error {
	if class == "" || newObject == nil {
		return fmt.Errorf("worker: an object class needs a name and a constructor")
	}
	var o objectOptions
	for _, opt := range opts {
		opt(&o)
	}
	registry.Lock()
	defer registry.Unlock()
	registry.objects[class] = newObject
	registry.options[class] = o
	return nil
}

// RegisterObject makes an object class available under class, with
// options such as WithConcurrency. It panics on a duplicate class name, a
// nil constructor or an unknown concurrency mode.
func RegisterObject(class string, newObject ObjectClass, opts ...ObjectOption) {
	if class == "" || newObject == nil {
		panic("worker: RegisterObject needs a class name and a constructor")
	}
	var o objectOptions
	for _, opt := range opts {
		opt(&o)
	}
	if o.concurrency != Gated && o.concurrency != Strict {
		panic(fmt.Sprintf("worker: object class %q: unknown %v", class, o.concurrency))
	}
	registry.Lock()
	defer registry.Unlock()
	if _, dup := registry.objects[class]; dup {
		panic(fmt.Sprintf("worker: object class %q already registered", class))
	}
	registry.objects[class] = newObject
	registry.options[class] = o
}

// LookupWorker returns the worker registered under name.
func LookupWorker(name string) (any, bool) {
	registry.RLock()
	defer registry.RUnlock()
	w, ok := registry.workers[name]
	return w, ok
}

// LookupObject returns the object class registered under class.
func LookupObject(class string) (ObjectClass, bool) {
	registry.RLock()
	defer registry.RUnlock()
	c, ok := registry.objects[class]
	return c, ok
}

// ObjectConcurrency is the concurrency mode the class was registered with
// (Gated for a class not registered).
func ObjectConcurrency(class string) Concurrency {
	registry.RLock()
	defer registry.RUnlock()
	return registry.options[class].concurrency
}

// Workers lists the registered worker names in order.
func Workers() []string {
	registry.RLock()
	defer registry.RUnlock()
	return sortedKeys(registry.workers)
}

// ObjectClasses lists the registered object class names in order.
func ObjectClasses() []string {
	registry.RLock()
	defer registry.RUnlock()
	return sortedKeys(registry.objects)
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
