package cli

import (
	"flag"
	"fmt"
	"io"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/worker"
)

// registry answers config.Registry from the workers linked into this binary.
type registry struct{}

var _ config.Registry = registry{}

func (registry) HasWorker(name string) bool {
	_, ok := worker.LookupWorker(name)
	return ok
}

func (registry) HasObjectClass(class string) bool {
	_, ok := worker.LookupObject(class)
	return ok
}

// loadConfig reads, defaults and validates a config file; path "" means the
// built-in local-mode default.
func loadConfig(path string) (*config.Config, error) {
	c := config.Default()
	if path != "" {
		var err error
		if c, err = config.Load(path); err != nil {
			return nil, err
		}
		c.ApplyDefaults()
	}
	if err := c.Validate(registry{}); err != nil {
		return nil, fmt.Errorf("config %s: %w", displayPath(path), err)
	}
	return c, nil
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
		fmt.Fprintln(stderr, "Usage: dwk validate dwk.json\n\nChecks a config file and lists every problem with its JSON path.")
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() != 1 {
		fs.Usage()
		return 2
	}
	c, err := loadConfig(fs.Arg(0))
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: ok (fleet %q, %s mode, %d worker(s))\n", fs.Arg(0), c.Fleet.Name, c.Storage.Mode, len(c.Workers))
	return 0
}
