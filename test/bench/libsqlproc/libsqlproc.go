// Package libsqlproc runs a `dwk libsql` process for benchmarks that are
// not Go tests (test/libsqlserver is the testing.TB version).
package libsqlproc

import (
	"bufio"
	"context"
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"syscall"
	"time"
)

// Server is a running `dwk libsql` process.
type Server struct {
	// URL and AdminURL are its Hrana and admin API addresses.
	URL, AdminURL string

	cmd  *exec.Cmd
	dir  string
	done chan struct{}
}

var (
	hranaRE = regexp.MustCompile(`serving Hrana on (http://\S+)`)
	adminRE = regexp.MustCompile(`admin API on (http://\S+)`)
)

// Start runs bin libsql on :0 ports in a temporary directory, with
// extra flags, and waits (up to 30s) until it serves.
func Start(ctx context.Context, bin string, extra ...string) (*Server, error) {
	dir, err := os.MkdirTemp("", "dwkbench-libsql-")
	if err != nil {
		return nil, err
	}
	args := append([]string{"libsql", "--http-listen-addr", "127.0.0.1:0", "--admin-listen-addr", "127.0.0.1:0", "--db-path", dir}, extra...)
	cmd := exec.Command(bin, args...)
	out, err := cmd.StderrPipe()
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	cmd.Stdout = cmd.Stderr
	if err := cmd.Start(); err != nil {
		os.RemoveAll(dir)
		return nil, fmt.Errorf("start %s libsql: %w", bin, err)
	}
	s := &Server{cmd: cmd, dir: dir, done: make(chan struct{})}
	urls := make(chan [2]string, 2)
	go func() {
		defer close(s.done)
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			var u [2]string
			if m := hranaRE.FindStringSubmatch(sc.Text()); m != nil {
				u = [2]string{"hrana", m[1]}
			} else if m := adminRE.FindStringSubmatch(sc.Text()); m != nil {
				u = [2]string{"admin", m[1]}
			} else {
				continue
			}
			select {
			case urls <- u:
			default:
			}
		}
	}()
	deadline := time.After(30 * time.Second)
	for s.URL == "" || s.AdminURL == "" {
		select {
		case u := <-urls:
			if u[0] == "hrana" {
				s.URL = u[1]
			} else {
				s.AdminURL = u[1]
			}
		case <-deadline:
			s.Stop()
			return nil, fmt.Errorf("%s libsql: not serving after 30s", bin)
		case <-ctx.Done():
			s.Stop()
			return nil, ctx.Err()
		}
	}
	return s, nil
}

// PID is the process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop ends the process (SIGTERM, then SIGKILL after 10s), waits for it
// and its output, and removes its data.
func (s *Server) Stop() {
	s.cmd.Process.Signal(syscall.SIGTERM)
	select {
	case <-s.done:
	case <-time.After(10 * time.Second):
		s.cmd.Process.Kill()
		<-s.done
	}
	s.cmd.Wait()
	os.RemoveAll(s.dir)
}
