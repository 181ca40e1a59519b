//go:build !linux

package s3server

// userXattrs reports false off Linux, so the gateway keeps metadata in a
// sidecar directory, which works on every file system.
func userXattrs(string) bool { return false }
