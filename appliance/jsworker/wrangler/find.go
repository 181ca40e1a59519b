package wrangler

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// fileNames are the configuration file names Find looks for, in wrangler's
// order of precedence (findWranglerConfig in wrangler's
// config-helpers.ts): the first that exists wins.
var fileNames = []string{"wrangler.json", "wrangler.jsonc", "wrangler.toml"}

// ErrNotFound is wrapped by Find's error when dir holds no wrangler.json,
// wrangler.jsonc or wrangler.toml.
var ErrNotFound = errors.New("no wrangler configuration file")

// Find returns the path of the wrangler configuration file in dir. Unlike
// wrangler, which also searches the parent directories, it looks in dir
// only: dwk is pointed at a project directory.
func Find(dir string) (string, error) {
	for _, name := range fileNames {
		p := filepath.Join(dir, name)
		info, err := os.Stat(p)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return "", fmt.Errorf("find wrangler configuration: %w", err)
		}
		if info.IsDir() {
			return "", fmt.Errorf("find wrangler configuration: %s is a directory, not a file", p)
		}
		return p, nil
	}
	return "", fmt.Errorf("%w in %s: looked for %s", ErrNotFound, dir, strings.Join(fileNames, ", "))
}
