package project

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"sort"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/jsworker/artifact"
	"github.com/dwk/fleet/appliance/jsworker/assets"
	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// Options tune Load.
type Options struct {
	// Env is the wrangler environment (--env); "" is the top level.
	Env string
	// BuildLog receives the output of the project's build command.
	BuildLog io.Writer
	// Logger receives the worker's console output and errors.
	Logger *slog.Logger
	// CPULimit bounds one event's CPU time. Default: the wrangler file's
	// limits.cpu_ms, else 30s.
	CPULimit time.Duration
	// Isolates and ObjectIsolates size the worker's isolate pools.
	// Default: GOMAXPROCS each.
	Isolates, ObjectIsolates int
}

// Project is a loaded Workers project.
type Project struct {
	// Wrangler is the resolved wrangler configuration.
	Wrangler *wrangler.Project
	// Bundle is the project's code as one script.
	Bundle *bundle.Bundle
	// Worker is the project as dwk.json's workers[] entry: its name, its
	// bindings onto stores, crons and queue consumers. Routes are left to
	// the caller.
	Worker config.Worker
	// JS configures the JavaScript worker.
	JS jsworker.Config

	// art is the artifact the project was loaded from; nil for a wrangler
	// file.
	art *artifact.Artifact
}

// Describe reads the wrangler file at path, or the artifact (see
// IsArtifact), into a Project without its code: Worker and JS (but
// JS.Script) are set, Bundle is nil. Commands that only need the
// project's stores use it.
func Describe(path string, opts Options) (*Project, error) {
	if IsArtifact(path) {
		return describeArtifact(path, opts)
	}
	w, err := wrangler.Load(path, wrangler.Options{Env: opts.Env})
	if err != nil {
		return nil, err
	}
	if w.Main == "" {
		return nil, fmt.Errorf("%s: dwk needs a main module (an assets-only worker has none)", w.ConfigPath)
	}
	p := &Project{Wrangler: w}
	if err := p.describe(); err != nil {
		return nil, fmt.Errorf("%s: %w", w.ConfigPath, err)
	}
	return p, nil
}

// Load reads the wrangler file at path, runs the project's build command,
// bundles and compiles it. Its warnings are in Wrangler.Warnings. Given an
// artifact (see IsArtifact) it compiles the artifact's bundle instead, and
// serves the assets from it: no build command, no bundling.
func Load(ctx context.Context, path string, opts Options) (*Project, error) {
	if IsArtifact(path) {
		return loadArtifact(path, opts)
	}
	p, err := Describe(path, opts)
	if err != nil {
		return nil, err
	}
	w := p.Wrangler
	bo := BundleOptions(w, opts.BuildLog)
	b, err := bundle.Build(ctx, bo)
	if err != nil {
		return nil, fmt.Errorf("bundle %s: %w", w.Name, err)
	}
	s, err := jsworker.Compile(b)
	if err != nil {
		// goja refuses some class fields (named get, set or async): the
		// same code with its fields lowered parses. A real syntax error
		// fails both ways and is reported from the first build, whose
		// lines are the project's.
		bo.LowerClassFields, bo.Build = true, nil
		if b2, err2 := bundle.Build(ctx, bo); err2 == nil {
			if s2, err2 := jsworker.Compile(b2); err2 == nil {
				b, s, err = b2, s2, nil
			}
		}
	}
	if err != nil {
		return nil, fmt.Errorf("%s: %w", w.Name, err)
	}
	p.Bundle = b
	p.JS.Script = s
	var files fs.FS
	if w.Assets != nil {
		files = os.DirFS(w.Assets.Directory)
	}
	if err := p.finish(files, opts); err != nil {
		return nil, err
	}
	return p, nil
}

// finish sets up what runs p's compiled code: its assets, served from
// files, and opts.
func (p *Project) finish(files fs.FS, opts Options) error {
	w := p.Wrangler
	if a := w.Assets; a != nil {
		srv, err := assets.New(assets.Config{Files: files, HTMLHandling: a.HTMLHandling, NotFoundHandling: a.NotFoundHandling})
		if err != nil {
			return fmt.Errorf("%s: assets: %w", w.ConfigPath, err)
		}
		p.JS.Assets = &jsworker.Assets{Server: srv, Binding: a.Binding, WorkerFirst: a.RunWorkerFirst, WorkerFirstRoutes: a.RunWorkerFirstRoutes}
	}
	p.JS.Logger = opts.Logger
	p.JS.CPULimit = w.CPULimit
	if opts.CPULimit > 0 {
		p.JS.CPULimit = opts.CPULimit
	}
	p.JS.Isolates = opts.Isolates
	p.JS.ObjectIsolates = opts.ObjectIsolates
	return nil
}

// BundleOptions are the bundler's options for a wrangler project.
func BundleOptions(w *wrangler.Project, log io.Writer) bundle.Options {
	o := bundle.Options{
		Dir:         w.Dir,
		Entry:       w.Main,
		NodeCompat:  w.NodeCompat(),
		Define:      w.Bundle.Define,
		Alias:       w.Bundle.Alias,
		Tsconfig:    w.Bundle.TSConfig,
		JSXFactory:  w.Bundle.JSXFactory,
		JSXFragment: w.Bundle.JSXFragment,
		Minify:      w.Bundle.Minify,
		Log:         log,
	}
	keep := w.Bundle.KeepNames
	o.KeepNames = &keep
	for _, r := range w.Bundle.Rules {
		o.Rules = append(o.Rules, bundle.Rule{Type: r.Type, Globs: r.Globs, Fallthrough: r.Fallthrough})
	}
	if w.Build.Command != "" {
		o.Build = &bundle.Command{Command: w.Build.Command, Cwd: w.Build.Cwd}
	}
	return o
}

// describe fills Worker and JS (but its Script) from the wrangler project.
func (p *Project) describe() error {
	w := p.Wrangler
	cw := config.Worker{Name: w.Name, Crons: w.Crons}
	b := config.Bindings{
		D1: map[string]string{}, R2: map[string]string{}, KV: map[string]string{}, Queues: map[string]string{},
		Objects: map[string]string{}, Vars: map[string]string{}, Secrets: map[string]*config.Secret{}, Services: map[string]string{},
	}
	js := jsworker.Config{
		Name: w.Name, NodeCompat: w.NodeCompat(), Classes: map[string]string{}, Bindings: jsworker.Bindings{JSONVars: map[string]string{}},
		ProcessEnv: jsworker.PopulatesProcessEnv(w.NodeCompat(), w.CompatibilityDate, w.CompatibilityFlags),
	}
	secret := map[string]bool{}
	for name := range w.Secrets {
		secret[name] = true
	}
	var unbound []string // secrets whose values the host binds
	for _, name := range p.SecretNames() {
		if !secret[name] {
			secret[name] = true
			unbound = append(unbound, name)
		}
	}
	var errs []error
	store := func(kind, binding, name string, into map[string]string) {
		s, err := StoreName(name)
		if err != nil {
			errs = append(errs, fmt.Errorf("%s %s: %w", kind, binding, err))
			return
		}
		into[binding] = s
	}
	for _, d := range w.D1Databases {
		store("d1_databases", d.Binding, d.DatabaseName, b.D1)
		js.Bindings.D1 = append(js.Bindings.D1, d.Binding)
	}
	for _, r := range w.R2Buckets {
		store("r2_buckets", r.Binding, r.BucketName, b.R2)
		js.Bindings.R2 = append(js.Bindings.R2, r.Binding)
	}
	for _, k := range w.KVNamespaces {
		name := k.ID
		if name == "" {
			name = k.Binding
		}
		store("kv_namespaces", k.Binding, name, b.KV)
		js.Bindings.KV = append(js.Bindings.KV, k.Binding)
	}
	for _, q := range w.Queues.Producers {
		store("queues.producers", q.Binding, q.Queue, b.Queues)
		js.Bindings.Queues = append(js.Bindings.Queues, q.Binding)
	}
	namespaces := w.ClassNamespaces()
	for _, c := range w.DurableObjectClasses() {
		js.Classes[c.Name] = jsworker.ClassName(w.Name, c.Namespace)
	}
	for _, d := range w.DurableObjects {
		script, ns := w.Name, namespaces[d.ClassName]
		if d.ScriptName != "" && d.ScriptName != w.Name {
			script, ns = d.ScriptName, d.ClassName
		} else if ns == "" {
			ns = d.ClassName
			js.Classes[d.ClassName] = jsworker.ClassName(w.Name, ns)
		}
		b.Objects[d.Name] = jsworker.ClassName(script, ns)
		js.Bindings.Objects = append(js.Bindings.Objects, d.Name)
	}
	for _, s := range w.Services {
		if s.Entrypoint != "" {
			errs = append(errs, fmt.Errorf("services %s: named entrypoints (entrypoint %q) are not supported yet; bind the worker's default entrypoint", s.Binding, s.Entrypoint))
			continue
		}
		b.Services[s.Binding] = s.Service
		js.Bindings.Services = append(js.Bindings.Services, s.Binding)
	}
	for name, v := range w.Vars {
		if secret[name] {
			continue
		}
		if s, ok := v.(string); ok {
			b.Vars[name] = s
			js.Bindings.Vars = append(js.Bindings.Vars, name)
			continue
		}
		text, err := json.Marshal(v)
		if err != nil {
			errs = append(errs, fmt.Errorf("vars %s: %w", name, err))
			continue
		}
		js.Bindings.JSONVars[name] = string(text)
	}
	for name, v := range w.Secrets {
		s := config.Secret{Value: v}
		b.Secrets[name] = &s
		js.Bindings.Secrets = append(js.Bindings.Secrets, name)
	}
	js.Bindings.Secrets = append(js.Bindings.Secrets, unbound...)
	for _, c := range w.Queues.Consumers {
		qn, err := StoreName(c.Queue)
		if err != nil {
			errs = append(errs, fmt.Errorf("queues.consumers %s: %w", c.Queue, err))
			continue
		}
		cc := config.Consumer{
			Queue: qn, MaxBatchSize: c.MaxBatchSize, MaxConcurrency: c.MaxConcurrency,
			MaxBatchTimeout: config.Duration(time.Duration(c.MaxBatchTimeout) * time.Second),
			RetryDelay:      config.Duration(time.Duration(c.RetryDelay) * time.Second),
		}
		retries := c.MaxRetries
		cc.MaxRetries = &retries
		if c.DeadLetterQueue != "" {
			if cc.DeadLetterQueue, err = StoreName(c.DeadLetterQueue); err != nil {
				errs = append(errs, fmt.Errorf("queues.consumers %s: dead_letter_queue: %w", c.Queue, err))
			}
		}
		cw.Consumers = append(cw.Consumers, cc)
	}
	for _, l := range [][]string{js.Bindings.D1, js.Bindings.R2, js.Bindings.KV, js.Bindings.Queues, js.Bindings.Objects, js.Bindings.Services, js.Bindings.Vars, js.Bindings.Secrets} {
		sort.Strings(l)
	}
	cw.Bindings = b
	p.Worker, p.JS = cw, js
	return errors.Join(errs...)
}

// Start loads the JavaScript worker and registers it and its classes with
// the host. It fails when the configuration asks for a handler the code
// lacks (crons without scheduled, consumers without queue).
func (p *Project) Start() (*jsworker.Worker, error) {
	w, err := jsworker.Load(p.JS)
	if err != nil {
		return nil, err
	}
	file := p.Wrangler.ConfigPath
	switch {
	case len(p.Worker.Crons) > 0 && !w.Handles("scheduled"):
		err = fmt.Errorf("%s: triggers.crons is set, but the default export of %s has no scheduled handler", file, p.Wrangler.Main)
	case len(p.Worker.Consumers) > 0 && !w.Handles("queue"):
		err = fmt.Errorf("%s: queues.consumers is set, but the default export of %s has no queue handler", file, p.Wrangler.Main)
	}
	if err != nil {
		w.Close()
		return nil, err
	}
	if err := w.Register(); err != nil {
		w.Close()
		return nil, err
	}
	return w, nil
}

// Resolve is the file path names, relative to base unless absolute: a
// wrangler file or an artifact as it is, a directory's wrangler file (see
// wrangler.Find).
func Resolve(base, path string) (string, error) {
	if !filepath.IsAbs(path) {
		path = filepath.Join(base, path)
	}
	st, err := os.Stat(path)
	if err != nil {
		return "", fmt.Errorf("project %s: %w", path, err)
	}
	if st.IsDir() {
		return wrangler.Find(path)
	}
	return path, nil
}
