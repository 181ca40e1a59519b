package cli

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"
	"strings"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/jsworker"
	"github.com/dwk/fleet/appliance/jsworker/project"
)

// jsProject is a Workers project a replica serves.
type jsProject struct {
	path string // the wrangler file
	env  string
	p    *project.Project
	w    *jsworker.Worker
}

// isWranglerPath reports whether path names a Workers project (a wrangler
// file, or an artifact that dwk bundle wrote) rather than a dwk.json.
func isWranglerPath(path string) bool {
	switch filepath.Base(path) {
	case "wrangler.toml", "wrangler.json", "wrangler.jsonc":
		return true
	}
	return strings.HasSuffix(path, ".toml") || strings.HasSuffix(path, ".jsonc") || project.IsArtifact(path)
}

// wranglerConfig is the local-mode dwk.json of a lone Workers project
// served with `dwk serve --config wrangler.toml`: the project on every
// path, the data in dataDir.
func wranglerConfig(path, env string) *config.Config {
	c := &config.Config{Workers: []config.Worker{{Project: path, Env: env}}}
	return c
}

// startProjects loads, starts and registers the Workers projects c names
// (paths relative to base), filling in their workers' names, bindings,
// crons and queue consumers; a project worker with no routes serves "/"
// when no other worker does. Call it before validating c.
func startProjects(ctx context.Context, c *config.Config, base string, log *slog.Logger, buildLog io.Writer) ([]*jsProject, error) {
	var out []*jsProject
	rootTaken := rootRouted(c)
	for i := range c.Workers {
		wc := &c.Workers[i]
		if wc.Project == "" {
			continue
		}
		file, err := project.Resolve(base, wc.Project)
		if err != nil {
			return out, fmt.Errorf("workers[%d].project: %w", i, err)
		}
		p, err := project.Load(ctx, file, project.Options{Env: wc.Env, BuildLog: buildLog, Logger: log})
		if err != nil {
			return out, fmt.Errorf("workers[%d].project: %w", i, err)
		}
		for _, w := range p.Wrangler.Warnings {
			log.Warn("wrangler: " + w.String())
		}
		merge(wc, p.Worker)
		log.Info("project loaded", "worker", wc.Name, "source", p.Source(), "hash", p.Hash())
		for _, name := range p.SecretNames() {
			if wc.Bindings.Secrets[name] == nil {
				log.Warn("secret not bound in dwk.json: an artifact carries no secret values; bind it in dwk.json's workers[].bindings.secrets or, on a fleet, put it with dwk secret put", "worker", wc.Name, "secret", name)
			}
		}
		p.JS.Name = wc.Name
		rootTaken = defaultRoute(wc, rootTaken)
		jw, err := p.Start()
		if err != nil {
			return out, fmt.Errorf("workers[%d] (%s): %w", i, file, err)
		}
		out = append(out, &jsProject{path: file, env: wc.Env, p: p, w: jw})
	}
	return out, nil
}

// merge fills wc from the project's worker: what wc sets itself wins.
func merge(wc *config.Worker, pw config.Worker) {
	if wc.Name == "" {
		wc.Name = pw.Name
	}
	if len(wc.Crons) == 0 {
		wc.Crons = pw.Crons
	}
	if len(wc.Consumers) == 0 {
		wc.Consumers = pw.Consumers
	}
	b := &wc.Bindings
	b.D1 = mergeMap(pw.Bindings.D1, b.D1)
	b.R2 = mergeMap(pw.Bindings.R2, b.R2)
	b.KV = mergeMap(pw.Bindings.KV, b.KV)
	b.Queues = mergeMap(pw.Bindings.Queues, b.Queues)
	b.Objects = mergeMap(pw.Bindings.Objects, b.Objects)
	b.Vars = mergeMap(pw.Bindings.Vars, b.Vars)
	b.Services = mergeMap(pw.Bindings.Services, b.Services)
	if len(pw.Bindings.Secrets) > 0 {
		s := map[string]*config.Secret{}
		for k, v := range pw.Bindings.Secrets {
			s[k] = v
		}
		for k, v := range b.Secrets {
			s[k] = v
		}
		b.Secrets = s
	}
}

func mergeMap(base, over map[string]string) map[string]string {
	if len(base) == 0 {
		return over
	}
	out := make(map[string]string, len(base)+len(over))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range over {
		out[k] = v
	}
	return out
}

// describeProjects fills in c's project workers from their wrangler files
// without bundling them, and adds their names and classes to reg.
func describeProjects(c *config.Config, base string, reg registry) error {
	rootTaken := rootRouted(c)
	for i := range c.Workers {
		wc := &c.Workers[i]
		if wc.Project == "" {
			continue
		}
		file, err := project.Resolve(base, wc.Project)
		if err != nil {
			return fmt.Errorf("workers[%d].project: %w", i, err)
		}
		p, err := project.Describe(file, project.Options{Env: wc.Env})
		if err != nil {
			return fmt.Errorf("workers[%d].project: %w", i, err)
		}
		merge(wc, p.Worker)
		rootTaken = defaultRoute(wc, rootTaken)
		reg.workers[wc.Name] = true
		for _, class := range p.JS.Classes {
			reg.classes[class] = true
		}
	}
	return nil
}

// rootRouted reports whether a worker of c serves "/".
func rootRouted(c *config.Config) bool {
	for _, w := range c.Workers {
		for _, r := range w.Routes {
			if r == "/" {
				return true
			}
		}
	}
	return false
}

// defaultRoute gives a project worker without routes the route "/", as
// on Cloudflare a worker gets every path, unless another worker serves
// "/" already (then config's default "/<name>/" applies). It reports
// whether "/" is taken now.
func defaultRoute(wc *config.Worker, rootTaken bool) bool {
	if len(wc.Routes) == 0 && !rootTaken {
		wc.Routes = []string{"/"}
		return true
	}
	return rootTaken
}

// watchProject rebuilds p when a file it was built from changes, and
// swaps the new bundle in: requests in flight finish on the old one. A
// build that fails is logged and the old bundle keeps serving. It returns
// when ctx ends.
func watchProject(ctx context.Context, p *jsProject, log *slog.Logger) {
	log = log.With("project", p.path)
	err := project.Watch(ctx, p.p, func(b *project.Project, err error) {
		if err != nil {
			log.Error("rebuild failed; still serving the previous build", "err", err)
			return
		}
		if err := p.w.Reload(b.JS.Script); err != nil {
			log.Error("reload failed; still serving the previous build", "err", err)
			return
		}
		log.Info("rebuilt and reloaded", "hash", b.Bundle.Hash[:12])
	})
	if err != nil && ctx.Err() == nil {
		log.Error("watch stopped", "err", err)
	}
}
