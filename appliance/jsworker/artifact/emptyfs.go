package artifact

import (
	"io"
	"io/fs"
	"time"
)

// emptyDir is an fs.FS holding nothing but its root directory.
type emptyDir struct{}

var _ fs.FS = emptyDir{}

func (emptyDir) Open(name string) (fs.File, error) {
	if name != "." {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return emptyDirFile{}, nil
}

// emptyDirFile is emptyDir's root, open.
type emptyDirFile struct{}

var _ fs.ReadDirFile = emptyDirFile{}

func (emptyDirFile) Stat() (fs.FileInfo, error) { return emptyDirInfo{}, nil }
func (emptyDirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: ".", Err: fs.ErrInvalid}
}
func (emptyDirFile) Close() error { return nil }
func (emptyDirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	if n > 0 {
		return nil, io.EOF
	}
	return nil, nil
}

// emptyDirInfo describes emptyDir's root.
type emptyDirInfo struct{}

func (emptyDirInfo) Name() string       { return "." }
func (emptyDirInfo) Size() int64        { return 0 }
func (emptyDirInfo) Mode() fs.FileMode  { return fs.ModeDir | 0o555 }
func (emptyDirInfo) ModTime() time.Time { return time.Time{} }
func (emptyDirInfo) IsDir() bool        { return true }
func (emptyDirInfo) Sys() any           { return nil }
