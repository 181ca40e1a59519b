//go:build !unix

package libsql

import (
	"fmt"
	"os"
	"path/filepath"
)

// lockDir opens the lock file; platforms without flock get no exclusion.
func lockDir(dir string) (*os.File, error) {
	f, err := os.OpenFile(filepath.Join(dir, ".dwk-libsql.lock"), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("open lock file: %w", err)
	}
	return f, nil
}
