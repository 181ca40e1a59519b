package worker

import (
	"errors"
	"fmt"
	"log/slog"
	"sort"
)

// ErrUnbound is returned by every call on a binding name that the worker's
// configuration does not define.
var ErrUnbound = errors.New("binding not configured")

// Bindings is what the host puts into an Env. Every map is keyed by binding
// name as written in the worker's configuration.
type Bindings struct {
	D1      map[string]D1Backend
	R2      map[string]R2Bucket
	KV      map[string]KVNamespace
	Queues  map[string]Queue
	Objects map[string]ObjectNamespace
	Vars    map[string]string
	// Secrets are string variables whose values must not show: see Secret.
	Secrets map[string]Secret
	// Services are other workers of the fleet: see Service.
	Services map[string]Service
}

// Env is a worker's view of its bindings. It is safe for concurrent use.
type Env struct {
	worker string
	b      Bindings
	d1     map[string]*D1
}

// NewEnv builds the Env of the named worker from its bindings.
func NewEnv(workerName string, b Bindings) *Env {
	e := &Env{worker: workerName, b: b, d1: make(map[string]*D1, len(b.D1))}
	for name, backend := range b.D1 {
		e.d1[name] = NewD1(backend)
	}
	return e
}

// Worker is the name of the worker this Env belongs to.
func (e *Env) Worker() string { return e.worker }

// D1 returns the D1 database bound as name. An unbound name yields a database
// whose every call fails with ErrUnbound.
func (e *Env) D1(name string) *D1 {
	if db, ok := e.d1[name]; ok {
		return db
	}
	return NewD1(unboundD1{e.unbound("d1", name)})
}

// R2 returns the R2 bucket bound as name, or one that fails with ErrUnbound.
func (e *Env) R2(name string) R2Bucket {
	if b, ok := e.b.R2[name]; ok {
		return b
	}
	return unboundR2{e.unbound("r2", name)}
}

// KV returns the KV namespace bound as name, or one that fails with ErrUnbound.
func (e *Env) KV(name string) KVNamespace {
	if kv, ok := e.b.KV[name]; ok {
		return kv
	}
	return unboundKV{e.unbound("kv", name)}
}

// Queue returns the queue producer bound as name, or one that fails with
// ErrUnbound.
func (e *Env) Queue(name string) Queue {
	if q, ok := e.b.Queues[name]; ok {
		return q
	}
	return unboundQueue{e.unbound("queue", name)}
}

// Object returns the object namespace bound as name, or one that fails with
// ErrUnbound.
func (e *Env) Object(name string) ObjectNamespace {
	if ns, ok := e.b.Objects[name]; ok {
		return ns
	}
	return unboundObjects{e.unbound("object namespace", name)}
}

// Var returns the plain variable bound as name and whether it is set.
func (e *Env) Var(name string) (string, bool) {
	v, ok := e.b.Vars[name]
	return v, ok
}

// Secret returns the secret bound as name and whether it is set. Its
// value comes from Reveal; printing or logging the Secret shows
// "[secret]".
func (e *Env) Secret(name string) (Secret, bool) {
	v, ok := e.b.Secrets[name]
	return v, ok
}

// SecretNames returns the names of the secrets bound in the Env, sorted.
func (e *Env) SecretNames() []string {
	names := make([]string, 0, len(e.b.Secrets))
	for name := range e.b.Secrets {
		names = append(names, name)
	}
	sort.Strings(names)
	return names
}

// WithSecrets returns a copy of the Env whose secrets are secrets and
// whose other bindings are e's, shared. The host swaps it in when a
// worker's secrets change while it runs; e itself does not change.
func (e *Env) WithSecrets(secrets map[string]Secret) *Env {
	c := *e
	c.b.Secrets = secrets
	return &c
}

// String names the Env's worker; it does not print bindings, so that an
// Env logged by mistake shows no secret.
func (e *Env) String() string { return "worker.Env(" + e.worker + ")" }

// GoString is String, for %#v.
func (e *Env) GoString() string { return e.String() }

// LogValue makes slog log the worker's name only.
func (e *Env) LogValue() slog.Value { return slog.StringValue(e.String()) }

func (e *Env) unbound(kind, name string) error {
	return fmt.Errorf("worker %q: %s %q: %w", e.worker, kind, name, ErrUnbound)
}
