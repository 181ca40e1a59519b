//go:build !unix

package bundle

import "os/exec"

// killGroup leaves cmd as it is: without process groups, cancelling kills
// the shell only.
func killGroup(cmd *exec.Cmd) {}
