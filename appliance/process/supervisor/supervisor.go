// Package supervisor keeps one child process running on hosts that have no
// service manager: it is what `dwk supervise` runs, and what the Terraform
// provider starts (detached with setsid and nohup) when a host has no
// systemd.
//
// The contract, the part of systemd's Restart=on-failure that a replica
// needs:
//
//   - a child that exits with status 0 (a replica exits 0 after a drain,
//     whether the drain came from SIGTERM, `dwk drain` or the admin API) is
//     not restarted, and the supervisor exits 0 too;
//   - a child that fails (non-zero status, killed by a signal) is restarted
//     after a backoff that doubles from MinBackoff up to MaxBackoff, and goes
//     back to MinBackoff once a child has run for ResetAfter;
//   - a stop request (the context passed to Run ends; `dwk supervise` ends it
//     on SIGTERM or SIGINT) is forwarded to the child as SIGTERM, and Run
//     returns when the child has exited, after KillAfter at the latest (then
//     the child is killed);
//   - while it runs, the supervisor's pid is in PIDFile (written atomically,
//     removed on exit).
package supervisor

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// Defaults of Config's zero fields.
const (
	DefaultMinBackoff = time.Second
	DefaultMaxBackoff = 30 * time.Second
	DefaultResetAfter = 30 * time.Second
)

// ErrNoCommand is returned by Run when Config.Command is empty.
var ErrNoCommand = errors.New("supervisor: no command")

// Config says what to run and how to keep it running.
type Config struct {
	// Command is the program to run; Args are its arguments (without the
	// program name).
	Command string
	Args    []string
	// Env is the child's environment. Default: the supervisor's.
	Env []string
	// Dir is the child's working directory. Default: the supervisor's.
	Dir string
	// PIDFile, when set, holds the supervisor's pid while Run runs.
	PIDFile string
	// Output receives the child's stdout and stderr and the supervisor's
	// own messages (prefixed "dwk supervise: "). Default: io.Discard.
	Output io.Writer
	// MinBackoff is the first restart delay. Default: 1s.
	MinBackoff time.Duration
	// MaxBackoff caps the restart delay. Default: 30s.
	MaxBackoff time.Duration
	// ResetAfter is how long a child must run for the next failure to be
	// restarted after MinBackoff again. Default: 30s.
	ResetAfter time.Duration
	// KillAfter bounds the wait for the child after a stop request; then
	// it is sent SIGKILL. Default: 0, wait as long as the child drains (the
	// replica bounds its own drain with drain.timeout).
	KillAfter time.Duration
	// Now and After are the clock; tests replace them. Default: time.Now
	// and time.After.
	Now   func() time.Time
	After func(time.Duration) <-chan time.Time
}

// Result says how Run ended.
type Result struct {
	// ExitCode is what `dwk supervise` exits with: 0 after a clean exit of
	// the child or a stop request the child honoured, else the last child's
	// status.
	ExitCode int
	// Starts counts the children started.
	Starts int
}

func (c *Config) defaults() {
	if c.Output == nil {
		c.Output = io.Discard
	}
	if c.MinBackoff <= 0 {
		c.MinBackoff = DefaultMinBackoff
	}
	if c.MaxBackoff < c.MinBackoff {
		c.MaxBackoff = max(DefaultMaxBackoff, c.MinBackoff)
	}
	if c.ResetAfter <= 0 {
		c.ResetAfter = DefaultResetAfter
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.After == nil {
		c.After = time.After
	}
}

// Run starts the child and keeps it running until it exits cleanly or ctx
// ends. It returns an error only when the child cannot be started at all
// (missing program, unwritable pid file); a failing child is restarted.
func Run(ctx context.Context, cfg Config) (Result, error) {
	if cfg.Command == "" {
		return Result{ExitCode: 1}, ErrNoCommand
	}
	cfg.defaults()
	// A file is handed to the child as is, so that the child keeps writing
	// to it even if the supervisor is killed; any other writer is shared
	// through pipes and a lock.
	var out io.Writer = cfg.Output
	if _, isFile := cfg.Output.(*os.File); !isFile {
		out = &lockedWriter{w: cfg.Output}
	}
	if cfg.PIDFile != "" {
		if err := writePIDFile(cfg.PIDFile, os.Getpid()); err != nil {
			return Result{ExitCode: 1}, err
		}
		defer os.Remove(cfg.PIDFile)
	}
	var res Result
	backoff := cfg.MinBackoff
	for {
		cmd := exec.Command(cfg.Command, cfg.Args...)
		cmd.Env, cmd.Dir = cfg.Env, cfg.Dir
		cmd.Stdout, cmd.Stderr = out, out
		started := cfg.Now()
		if err := cmd.Start(); err != nil {
			res.ExitCode = 1
			return res, fmt.Errorf("supervisor: start %s: %w", cfg.Command, err)
		}
		res.Starts++
		logf(out, "started %s (pid %d, start %d)", cfg.Command, cmd.Process.Pid, res.Starts)
		exited := make(chan error, 1)
		go func() { exited <- cmd.Wait() }()

		select {
		case <-ctx.Done():
			res.ExitCode = stop(cmd, exited, cfg, out)
			return res, nil
		case err := <-exited:
			code := exitCode(cmd, err)
			if code == 0 {
				logf(out, "child exited cleanly; not restarting")
				res.ExitCode = 0
				return res, nil
			}
			res.ExitCode = code
			if cfg.Now().Sub(started) >= cfg.ResetAfter {
				backoff = cfg.MinBackoff
			}
			logf(out, "child failed (%s); restarting in %s", describe(cmd, err), backoff)
		}
		select {
		case <-ctx.Done():
			logf(out, "stop requested while waiting to restart")
			res.ExitCode = 0
			return res, nil
		case <-cfg.After(backoff):
		}
		backoff = min(2*backoff, cfg.MaxBackoff)
	}
}

// stop forwards SIGTERM to the child and waits for it, killing it after
// cfg.KillAfter when that is set.
func stop(cmd *exec.Cmd, exited <-chan error, cfg Config, out io.Writer) int {
	logf(out, "stop requested; sending SIGTERM to pid %d", cmd.Process.Pid)
	cmd.Process.Signal(syscall.SIGTERM)
	var deadline <-chan time.Time
	if cfg.KillAfter > 0 {
		deadline = cfg.After(cfg.KillAfter)
	}
	select {
	case err := <-exited:
		code := exitCode(cmd, err)
		logf(out, "child exited (%s)", describe(cmd, err))
		return code
	case <-deadline:
		logf(out, "child still running after %s; killing it", cfg.KillAfter)
		cmd.Process.Kill()
		err := <-exited
		return exitCode(cmd, err)
	}
}

// exitCode is the child's exit status, 128+signal when a signal ended it,
// or 1 when it cannot be told.
func exitCode(cmd *exec.Cmd, err error) int {
	st := cmd.ProcessState
	if st == nil {
		return 1
	}
	if ws, ok := st.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	if code := st.ExitCode(); code >= 0 {
		return code
	}
	return 1
}

func describe(cmd *exec.Cmd, err error) string {
	if cmd.ProcessState != nil {
		return cmd.ProcessState.String()
	}
	return err.Error()
}

// writePIDFile writes pid to path atomically, so a reader never sees a
// partial number.
func writePIDFile(path string, pid int) error {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+".tmp")
	if err := os.WriteFile(tmp, []byte(strconv.Itoa(pid)+"\n"), 0o644); err != nil {
		return fmt.Errorf("supervisor: write pid file: %w", err)
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("supervisor: write pid file: %w", err)
	}
	return nil
}

func logf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "%s dwk supervise: %s\n", time.Now().UTC().Format(time.RFC3339), fmt.Sprintf(format, args...))
}

// lockedWriter serialises writes from the child's two output streams and
// the supervisor's messages, which exec copies from separate goroutines
// when the writer is not an *os.File.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}
