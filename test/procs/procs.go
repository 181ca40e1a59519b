// Package procs starts the real dwk binaries for multi-process tests: it
// builds them once (with -race when the test binary has it), starts them on
// :0 ports in temporary directories, waits for their ready line, and fails
// the test if a process printed "DATA RACE" or "panic:".
package procs

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

var build struct {
	once sync.Once
	path string
	err  error
}

// Binary returns the path of a dwk binary: $DWK_BIN when set (make test sets
// it), otherwise one built from this checkout into a temp dir.
func Binary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("DWK_BIN"); p != "" {
		return p
	}
	build.once.Do(func() {
		dir, err := os.MkdirTemp("", "dwk-bin-")
		if err != nil {
			build.err = err
			return
		}
		build.path = filepath.Join(dir, "dwk")
		args := []string{"build", "-o", build.path}
		if raceEnabled {
			args = append(args, "-race")
		}
		args = append(args, "github.com/dwk/fleet/cmd/dwk")
		cmd := exec.Command("go", args...)
		out, err := cmd.CombinedOutput()
		if err != nil {
			build.err = fmt.Errorf("go build dwk: %v\n%s", err, out)
		}
	})
	if build.err != nil {
		t.Fatal(build.err)
	}
	return build.path
}

// DeployBinary returns the dwk binary that tests install on hosts whose
// output they do not watch for data races (the provider's acceptance
// tests): $DWK_DEPLOY_BIN when set (make test sets it to the plain
// build, which starts several times faster than a -race one), otherwise
// Binary's.
func DeployBinary(t testing.TB) string {
	t.Helper()
	if p := os.Getenv("DWK_DEPLOY_BIN"); p != "" {
		return p
	}
	return Binary(t)
}

// DeployRace reports whether DeployBinary is a -race build: no
// $DWK_DEPLOY_BIN, and a test binary with the race detector. Tests that
// build a further binary to deploy build it the same way.
func DeployRace() bool { return os.Getenv("DWK_DEPLOY_BIN") == "" && raceEnabled }

// Race reports whether the test binary, and so the dwk it builds, runs
// with the race detector: several times slower, which timing bounds on
// multi-process tests allow for.
func Race() bool { return raceEnabled }

// Proc is a running process started by Start.
type Proc struct {
	t      testing.TB
	cmd    *exec.Cmd
	name   string
	mu     sync.Mutex
	out    bytes.Buffer
	lines  chan string
	done   chan struct{}
	waited error
}

// Start runs bin with args and env additions. The process is killed when the
// test ends, and its output is checked for races and panics.
func Start(t testing.TB, name, bin string, env []string, args ...string) *Proc {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	pr, pw := io.Pipe()
	cmd.Stdout = pw
	cmd.Stderr = pw
	p := &Proc{t: t, cmd: cmd, name: name, lines: make(chan string, 1024), done: make(chan struct{})}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", name, err)
	}
	readDone := make(chan struct{})
	go func() {
		p.read(pr)
		close(readDone)
	}()
	go func() {
		p.waited = cmd.Wait()
		pw.Close()
		<-readDone // all output is in p.out before Wait returns
		close(p.done)
	}()
	t.Cleanup(func() {
		p.Kill()
		p.check()
	})
	return p
}

func (p *Proc) read(r io.Reader) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		line := sc.Text()
		p.mu.Lock()
		p.out.WriteString(line + "\n")
		p.mu.Unlock()
		if testing.Verbose() {
			fmt.Fprintf(os.Stderr, "[%s] %s\n", p.name, line)
		}
		select {
		case p.lines <- line:
		default:
		}
	}
}

// WaitFor waits until an output line matches re and returns its submatches.
func (p *Proc) WaitFor(re *regexp.Regexp, timeout time.Duration) []string {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line := <-p.lines:
			if m := re.FindStringSubmatch(line); m != nil {
				return m
			}
		case <-p.done:
			p.t.Fatalf("%s exited (%v) before printing %q; output:\n%s", p.name, p.waited, re, p.Output())
		case <-deadline:
			p.t.Fatalf("%s did not print %q within %v; output:\n%s", p.name, re, timeout, p.Output())
		}
	}
}

// Output is everything the process printed so far.
func (p *Proc) Output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.out.String()
}

// PID is the process id.
func (p *Proc) PID() int { return p.cmd.Process.Pid }

// Signal sends sig to the process.
func (p *Proc) Signal(sig syscall.Signal) error { return p.cmd.Process.Signal(sig) }

// Freeze stops the process (SIGSTOP) and returns once every one of its
// threads is stopped, so that the next step of a test meets a frozen
// process. If that takes over 5s it marks the test failed and returns
// (it may be called from a subtest's goroutine, where FailNow of the
// process's test is not allowed).
func (p *Proc) Freeze() {
	p.t.Helper()
	p.Signal(syscall.SIGSTOP)
	deadline := time.Now().Add(5 * time.Second)
	for !stopped(p.PID()) {
		if time.Now().After(deadline) {
			p.t.Errorf("%s is not stopped 5s after SIGSTOP", p.name)
			return
		}
		time.Sleep(time.Millisecond)
	}
}

// stopped reports whether every thread of process pid is stopped.
func stopped(pid int) bool {
	tasks, err := os.ReadDir(fmt.Sprintf("/proc/%d/task", pid))
	if err != nil || len(tasks) == 0 {
		return false
	}
	for _, task := range tasks {
		stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/task/%s/stat", pid, task.Name()))
		if err != nil {
			return false
		}
		// The state follows the command name, which is in parentheses.
		i := bytes.LastIndexByte(stat, ')')
		if i < 0 || i+2 >= len(stat) || (stat[i+2] != 'T' && stat[i+2] != 't') {
			return false
		}
	}
	return true
}

// Wait waits for the process to exit and returns its exit code.
func (p *Proc) Wait(timeout time.Duration) (int, error) {
	select {
	case <-p.done:
		if p.cmd.ProcessState == nil {
			return -1, p.waited
		}
		return p.cmd.ProcessState.ExitCode(), nil
	case <-time.After(timeout):
		return -1, fmt.Errorf("%s still running after %v", p.name, timeout)
	}
}

// Kill sends SIGKILL to the process group and waits for it.
func (p *Proc) Kill() {
	select {
	case <-p.done:
		return
	default:
	}
	syscall.Kill(-p.cmd.Process.Pid, syscall.SIGKILL)
	<-p.done
}

// failedTail is how many of its last output lines a process shows when
// its test failed.
const failedTail = 40

func (p *Proc) check() {
	out := p.Output()
	for _, bad := range []string{"WARNING: DATA RACE", "panic:"} {
		if strings.Contains(out, bad) {
			p.t.Errorf("%s printed %q; output:\n%s", p.name, bad, out)
			return
		}
	}
	if p.t.Failed() {
		lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
		lines = lines[max(0, len(lines)-failedTail):]
		p.t.Logf("the test failed; the last %d lines of %s (pid %d):\n%s", len(lines), p.name, p.PID(), strings.Join(lines, "\n"))
	}
}

// Context returns a context that ends with the test.
func Context(t testing.TB) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	return ctx
}
