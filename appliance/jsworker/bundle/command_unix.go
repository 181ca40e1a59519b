//go:build unix

package bundle

import (
	"os/exec"
	"syscall"
)

// killGroup makes cmd the leader of a new process group and, when its
// context ends, kills the whole group: a build command's children (npm
// running tsc, say) would otherwise outlive it holding its output open.
func killGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	cmd.Cancel = func() error {
		return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}
