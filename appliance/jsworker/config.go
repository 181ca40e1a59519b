package jsworker

import (
	"log/slog"
	"runtime"
	"time"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// Config describes one JavaScript worker to the adapter.
type Config struct {
	// Name is the worker's name: the name it registers under with
	// worker.RegisterWorker and that dwk.json's workers[].name gives.
	Name string
	// Script is the compiled bundle.
	Script *Script
	// NodeCompat installs the Node.js modules and globals (the
	// nodejs_compat compatibility flag).
	NodeCompat bool
	// ProcessEnv puts the worker's text bindings (vars and secrets) in
	// process.env, as Cloudflare does with nodejs_compat from the
	// compatibility date 2025-04-01 (see PopulatesProcessEnv).
	ProcessEnv bool
	// Bindings are the names env shows, by kind.
	Bindings Bindings
	// Assets are the worker's static assets; nil for none.
	Assets *Assets
	// Classes maps each Durable Object class the bundle exports and
	// registers to its object class name in dwk (its storage namespace,
	// see ClassName).
	Classes map[string]string
	// Isolates is how many isolates run the worker's stateless events
	// (requests, cron, queues, method calls): each runs on one core at a
	// time. Default: GOMAXPROCS.
	Isolates int
	// ObjectIsolates is how many isolates hold the worker's Durable
	// Objects; an object lives in the one its id hashes to. Default:
	// GOMAXPROCS.
	ObjectIsolates int
	// CPULimit bounds the CPU time of one event. Default:
	// jsrt.DefaultCPULimit (30s).
	CPULimit time.Duration
	// MemoryLimit bounds how much one event's JavaScript may grow the
	// heap; past it the isolate restarts. Default:
	// jsrt.DefaultMemoryLimit (128 MiB).
	MemoryLimit int64
	// Logger receives the worker's console output and errors, with the
	// worker's name. Default: slog.Default().
	Logger *slog.Logger
}

// Bindings are the names of a worker's bindings as env shows them. The
// stores behind them come from the host's worker.Env.
type Bindings struct {
	D1       []string
	R2       []string
	KV       []string
	Queues   []string
	Objects  []string
	Services []string
	// Vars are string variables, read with worker.Env.Var.
	Vars []string
	// JSONVars are variables that are not strings (objects, numbers,
	// booleans), as JSON text: env shows them parsed.
	JSONVars map[string]string
	// Secrets are read with worker.Env.Secret.
	Secrets []string
}

func (c Config) withDefaults() Config {
	if c.Isolates <= 0 {
		c.Isolates = runtime.GOMAXPROCS(0)
	}
	if c.ObjectIsolates <= 0 {
		c.ObjectIsolates = runtime.GOMAXPROCS(0)
	}
	if c.CPULimit <= 0 {
		c.CPULimit = jsrt.DefaultCPULimit
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	c.Logger = c.Logger.With("worker", c.Name)
	return c
}

// ClassName is the object class name a worker's class registers under:
// "<worker>.<class>", so that two workers may both export a class of one
// name. A class renamed by a wrangler migration keeps the name it was
// created with, and so its objects' storage.
func ClassName(worker, class string) string { return worker + "." + class }

// PopulatesProcessEnv reports whether Cloudflare fills process.env for a
// worker with these compatibility flags and date: with nodejs_compat, from
// 2025-04-01 or with nodejs_compat_populate_process_env, unless
// nodejs_compat_do_not_populate_process_env.
func PopulatesProcessEnv(nodeCompat bool, date string, flags []string) bool {
	if !nodeCompat {
		return false
	}
	on := date >= "2025-04-01"
	for _, f := range flags {
		switch f {
		case "nodejs_compat_populate_process_env":
			on = true
		case "nodejs_compat_do_not_populate_process_env":
			return false
		}
	}
	return on
}
