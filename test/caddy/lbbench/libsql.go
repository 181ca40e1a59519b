package lbbench

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

// libsqlServer is a `dwk libsql` process.
type libsqlServer struct {
	cmd      *exec.Cmd
	dir      string
	url      string
	adminURL string
	done     chan struct{}
}

var (
	hranaRE = regexp.MustCompile(`serving Hrana on (http://\S+)`)
	adminRE = regexp.MustCompile(`admin API on (http://\S+)`)
)

// startLibSQL runs dwk libsql on :0 ports in a temp dir and waits until it
// serves.
func startLibSQL(ctx context.Context, bin string) (*libsqlServer, error) {
	dir, err := os.MkdirTemp("", "lbbench-libsql-")
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "libsql", "--http-listen-addr", "127.0.0.1:0", "--admin-listen-addr", "127.0.0.1:0", "--db-path", dir)
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
	s := &libsqlServer{cmd: cmd, dir: dir, done: make(chan struct{})}
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
	for s.url == "" || s.adminURL == "" {
		select {
		case u := <-urls:
			if u[0] == "hrana" {
				s.url = u[1]
			} else {
				s.adminURL = u[1]
			}
		case <-deadline:
			s.stop()
			return nil, fmt.Errorf("%s libsql: not serving after 30s", bin)
		case <-ctx.Done():
			s.stop()
			return nil, ctx.Err()
		}
	}
	return s, nil
}

// stop ends the process (SIGTERM, then SIGKILL after 10s), waits for it
// and its output, and removes its data.
func (s *libsqlServer) stop() {
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
