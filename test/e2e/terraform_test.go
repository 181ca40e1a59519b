package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// commandTimeout bounds one terraform command.
const commandTimeout = 4 * time.Minute

// tf runs the terraform CLI in one working directory with the provider
// mirror and a fixed set of variables.
type tf struct {
	t   *testing.T
	bin string
	dir string
	env []string
}

// newTF returns a runner of the CLI bin (terraform or tofu) for dir. vars
// become TF_VAR_ variables; the caller's TF_*, TOFU_* and DWK_* settings
// are left out so that they cannot redirect the test.
func newTF(t *testing.T, bin, dir string, vars map[string]string) *tf {
	t.Helper()
	env := []string{
		"TF_CLI_CONFIG_FILE=" + cliConfig(t),
		"TF_IN_AUTOMATION=1", "TF_INPUT=0", "CHECKPOINT_DISABLE=1",
	}
	for _, c := range []string{"init", "plan", "apply", "destroy", "validate", "console"} {
		env = append(env, "TF_CLI_ARGS_"+c+"=-no-color")
	}
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "TF_") && !strings.HasPrefix(kv, "TOFU_") && !strings.HasPrefix(kv, "DWK_") {
			env = append(env, kv)
		}
	}
	for k, v := range vars {
		env = append(env, "TF_VAR_"+k+"="+v)
	}
	return &tf{t: t, bin: bin, dir: dir, env: env}
}

// workspace returns a runner whose commands run in workspace ws.
func (w *tf) workspace(ws string) *tf {
	c := *w
	c.env = append(append([]string(nil), w.env...), "TF_WORKSPACE="+ws)
	return &c
}

// result is one finished command.
type result struct {
	cli            string // the CLI's file name: terraform or tofu
	args           []string
	stdout, stderr string
	code           int
	took           time.Duration
}

func (r result) String() string {
	return fmt.Sprintf("%s %s (exit %d after %s)\n--- stdout\n%s\n--- stderr\n%s",
		r.cli, strings.Join(r.args, " "), r.code, r.took.Round(time.Millisecond), tail(r.stdout, 120), tail(r.stderr, 60))
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[... %d lines]", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// run runs one command. It never fails the test, so it is safe in
// goroutines and cleanups; err is set for a non-zero exit or a timeout.
func (w *tf) run(args ...string) (result, error) { return w.runInput("", args...) }

// runInput is run with stdin.
func (w *tf) runInput(stdin string, args ...string) (result, error) {
	ctx, cancel := context.WithTimeout(context.Background(), commandTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, w.bin, args...)
	cmd.Dir = w.dir
	cmd.Env = w.env
	// Terraform gets SIGINT first, to stop cleanly and release its state lock.
	cmd.Cancel = func() error { return cmd.Process.Signal(syscall.SIGINT) }
	cmd.WaitDelay = 20 * time.Second
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.Stdin = strings.NewReader(stdin)
	start := time.Now()
	err := cmd.Run()
	r := result{cli: filepath.Base(w.bin), args: args, stdout: stdout.String(), stderr: stderr.String(), took: time.Since(start)}
	var ee *exec.ExitError
	switch {
	case ctx.Err() != nil:
		r.code = -1
		return r, fmt.Errorf("timed out after %s: %s", commandTimeout, r)
	case errors.As(err, &ee):
		r.code = ee.ExitCode()
		return r, fmt.Errorf("%s", r)
	case err != nil:
		return r, fmt.Errorf("%s %s: %w", r.cli, strings.Join(args, " "), err)
	}
	return r, nil
}

// must runs a command and fails the test when it fails.
func (w *tf) must(args ...string) result {
	w.t.Helper()
	r, err := w.run(args...)
	if err != nil {
		w.t.Fatal(err)
	}
	w.t.Logf("%s %s: %s", r.cli, strings.Join(args, " "), r.took.Round(time.Millisecond))
	return r
}

// noChanges fails the test unless `terraform plan -detailed-exitcode`
// finds nothing to do.
func (w *tf) noChanges() {
	w.t.Helper()
	r, err := w.run("plan", "-detailed-exitcode", "-input=false")
	if r.code == 2 {
		w.t.Fatalf("a second plan wants changes; the first apply did not converge:\n%s", r)
	}
	if err != nil {
		w.t.Fatal(err)
	}
}

// output decodes output name into v.
func (w *tf) output(name string, v any) {
	w.t.Helper()
	r := w.must("output", "-json", name)
	if err := json.Unmarshal([]byte(r.stdout), v); err != nil {
		w.t.Fatalf("output %s: %v in %q", name, err, r.stdout)
	}
}

// teardown makes sure nothing outlives the test: if the test ends before
// done is called (it failed), it runs destroy and then kills every
// replica whose dwk supervise wrote a pid file under stateDir.
type teardown struct {
	done bool
}

func (w *tf) teardownAt(stateDir string) *teardown {
	td := &teardown{}
	w.t.Cleanup(func() {
		if !td.done {
			if r, err := w.run("destroy", "-auto-approve", "-input=false"); err != nil {
				w.t.Logf("cleanup destroy failed: %v", err)
			} else {
				w.t.Logf("cleanup destroy: %s", r.took.Round(time.Millisecond))
			}
		}
		killReplicas(w.t, stateDir)
	})
	return td
}

// killReplicas kills the process group of every dwk supervise with a pid
// file under dir (each runs in its own session, as the provider starts
// it).
func killReplicas(t *testing.T, dir string) {
	pidfiles, _ := filepath.Glob(filepath.Join(dir, "*", "dwk.pid"))
	more, _ := filepath.Glob(filepath.Join(dir, "*", "*", "dwk.pid"))
	for _, pf := range append(pidfiles, more...) {
		b, err := os.ReadFile(pf)
		if err != nil {
			continue
		}
		var pid int
		if _, err := fmt.Sscan(string(b), &pid); err != nil || pid <= 1 {
			continue
		}
		if syscall.Kill(pid, 0) == nil {
			t.Logf("killing leftover replica %d (%s)", pid, pf)
			syscall.Kill(-pid, syscall.SIGKILL)
			syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}
