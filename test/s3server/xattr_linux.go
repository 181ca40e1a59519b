package s3server

import (
	"os"
	"path/filepath"
	"syscall"
)

// userXattrs reports whether the file system under dir stores user extended
// attributes, which versitygw's posix backend keeps object metadata in by
// default. tmpfs and some overlay file systems do not.
func userXattrs(dir string) bool {
	probe := filepath.Join(dir, ".xattr-probe")
	f, err := os.Create(probe)
	if err != nil {
		return false
	}
	f.Close()
	defer os.Remove(probe)
	return syscall.Setxattr(probe, "user.dwk-probe", []byte("1"), 0) == nil
}
