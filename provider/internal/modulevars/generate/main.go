// Command generate writes the files of package modulevars into a
// repository: `go generate ./provider/...` runs it from
// provider/internal/modulevars. It rewrites only the files whose content
// changes.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"

	"github.com/dwk/fleet/provider/internal/modulevars"
)

func main() {
	root := flag.String("root", ".", "the repository root")
	flag.Parse()
	if err := run(*root); err != nil {
		fmt.Fprintln(os.Stderr, "modulevars:", err)
		os.Exit(1)
	}
}

func run(root string) error {
	files, err := modulevars.Generate(root)
	if err != nil {
		return err
	}
	for _, f := range files {
		p := filepath.Join(root, filepath.FromSlash(f.Path))
		if old, err := os.ReadFile(p); err == nil && bytes.Equal(old, f.Content) {
			continue
		}
		if err := os.WriteFile(p, f.Content, 0o644); err != nil {
			return err
		}
	}
	return nil
}
