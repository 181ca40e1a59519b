package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"path/filepath"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/worker"
)

// registry answers config.Registry from the workers linked into this
// binary, and the Workers projects of the config being loaded (their
// classes are registered only when they start).
type registry struct {
	workers, classes map[string]bool
}

var _ config.Registry = registry{}

func (r registry) HasWorker(name string) bool {
	_, ok := worker.LookupWorker(name)
	return ok || r.workers[name]
}

func (r registry) HasObjectClass(class string) bool {
	_, ok := worker.LookupObject(class)
	return ok || r.classes[class]
}

// loadConfig reads, defaults and validates a config file without starting
// its Workers projects; path "" means the built-in local-mode default.
func loadConfig(path string) (*config.Config, error) {
	c, _, err := loadConfigWith(context.Background(), path, loadOptions{})
	return c, err
}

// loadOptions tune loadConfigWith.
type loadOptions struct {
	// env is the wrangler environment when path is a wrangler file.
	env string
	// start bundles and starts the config's Workers projects (serve).
	start bool
	// log receives the workers' logs and wrangler's warnings; buildLog
	// a project build command's output.
	log      *slog.Logger
	buildLog io.Writer
}

// loadConfigWith reads a dwk.json, or a wrangler file (a Workers project
// served alone in local mode), fills in its Workers projects, defaults
// and validates it. With o.start the projects are bundled and their
// workers started and registered.
func loadConfigWith(ctx context.Context, path string, o loadOptions) (*config.Config, []*jsProject, error) {
	if o.log == nil {
		o.log = slog.Default()
	}
	var c *config.Config
	base := ""
	switch {
	case path == "":
		c = config.Default()
	case isWranglerPath(path):
		abs, err := filepath.Abs(path)
		if err != nil {
			return nil, nil, err
		}
		c = wranglerConfig(abs, o.env)
	default:
		var err error
		if c, err = config.Load(path); err != nil {
			return nil, nil, err
		}
		base = filepath.Dir(path)
		c.KeepFileHash()
	}
	reg := registry{workers: map[string]bool{}, classes: map[string]bool{}}
	var projects []*jsProject
	var err error
	if o.start {
		projects, err = startProjects(ctx, c, base, o.log, o.buildLog)
	} else {
		err = describeProjects(c, base, reg)
	}
	if err != nil {
		return nil, projects, fmt.Errorf("config %s: %w", displayPath(path), err)
	}
	c.ApplyDefaults()
	if err := c.Validate(reg); err != nil {
		return nil, projects, fmt.Errorf("config %s: %w", displayPath(path), err)
	}
	return c, projects, nil
}

func displayPath(p string) string {
	if p == "" {
		return "(built-in default)"
	}
	return p
}

func runValidate(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("validate", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dwk validate dwk.json|wrangler.toml [--env NAME]\n\nChecks a config file (and the Workers projects it names: bundled and started) and lists every problem with its JSON path.")
	}
	env := fs.String("env", "", "the wrangler environment of a wrangler file")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	c, _, err := loadConfigWith(context.Background(), fs.Arg(0), loadOptions{env: *env, start: true, log: newLogger(config.Log{Level: "warn"}, stderr, nil), buildLog: stderr})
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok (fleet %q, %s mode, %d worker(s))\n", fs.Arg(0), c.Fleet.Name, c.Storage.Mode, len(c.Workers))
	return 0
}
