package deploy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os/exec"
	"strings"
)

// Target runs commands on one host and opens connections from it. The
// deployer needs nothing else from a host: files are written by piping them
// into commands, and HTTP calls to a replica's admin listener go through
// DialContext, so admin ports never have to be reachable from Terraform.
type Target interface {
	// Run runs cmd, a POSIX sh command line, on the host with stdin (nil
	// for none) and returns its standard output. A command that exits
	// non-zero returns an error carrying the exit status and the command's
	// standard error.
	Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error)
	// DialContext connects to addr as the host sees it: "127.0.0.1:8789"
	// is the host's own loopback.
	DialContext(ctx context.Context, network, addr string) (net.Conn, error)
}

// Local is the Target of the machine Terraform runs on (address "local").
type Local struct{}

var _ Target = Local{}

// Run runs cmd with /bin/sh.
func (Local) Run(ctx context.Context, cmd string, stdin io.Reader) ([]byte, error) {
	c := exec.CommandContext(ctx, "/bin/sh", "-c", cmd)
	var stdout, stderr bytes.Buffer
	c.Stdin, c.Stdout, c.Stderr = stdin, &stdout, &stderr
	if err := c.Run(); err != nil {
		return stdout.Bytes(), &CommandError{Err: err, Stderr: stderr.String()}
	}
	return stdout.Bytes(), nil
}

// DialContext dials addr from this machine.
func (Local) DialContext(ctx context.Context, network, addr string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, network, addr)
}

// CommandError is a command that ran and failed.
type CommandError struct {
	// Err is the exit status (or the reason the command could not finish).
	Err error
	// Stderr is what the command wrote to standard error.
	Stderr string
}

// Error is the exit status and the command's standard error.
func (e *CommandError) Error() string {
	if s := strings.TrimSpace(e.Stderr); s != "" {
		return fmt.Sprintf("%v: %s", e.Err, s)
	}
	return e.Err.Error()
}

// Unwrap returns the exit status error.
func (e *CommandError) Unwrap() error { return e.Err }

// IsCommandError reports whether err is a command that ran and failed, as
// opposed to a host that could not be reached.
func IsCommandError(err error) bool {
	var ce *CommandError
	return errors.As(err, &ce)
}

// Quote returns s as one sh word, for commands a Target runs.
func Quote(s string) string { return quote(s) }

// quote returns s as one sh word.
func quote(s string) string {
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
