// Package libsqlserver gives tests a libSQL server: a real `dwk libsql`
// process on :0 ports in a temp dir, or, when DWK_TEST_LIBSQL_URL is set, the
// server it names (a real sqld or Turso), so every suite can be aimed at one.
//
//	DWK_TEST_LIBSQL_URL        Hrana URL, e.g. http://127.0.0.1:8080
//	DWK_TEST_LIBSQL_ADMIN_URL  sqld admin API URL (namespaces)
//	DWK_TEST_LIBSQL_AUTH_TOKEN JWT for the Hrana URL
//	DWK_TEST_LIBSQL_ADMIN_KEY  admin API key
package libsqlserver

import (
	"crypto/rand"
	"encoding/hex"
	"os"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
)

// Server is a running libSQL server.
type Server struct {
	// URL is the Hrana endpoint (http://host:port).
	URL string
	// AdminURL is the admin API (namespaces), "" if the server has none.
	AdminURL string
	// AuthToken and AdminKey authenticate; empty when not needed.
	AuthToken string
	AdminKey  string
	// CAFile is the PEM CA an https:// server's certificate chains to;
	// "" for a plain HTTP server (see StartSecure).
	CAFile string
	// External is true when the server comes from DWK_TEST_LIBSQL_URL.
	External bool

	proc *procs.Proc
	dir  string
	args []string
	t    testing.TB
}

var (
	hranaRE = regexp.MustCompile(`serving Hrana on (https?://\S+)`)
	adminRE = regexp.MustCompile(`admin API on (https?://\S+)`)
)

// Start returns a libSQL server for the test. extraArgs go to dwk libsql.
func Start(t testing.TB, extraArgs ...string) *Server {
	t.Helper()
	if u := os.Getenv("DWK_TEST_LIBSQL_URL"); u != "" {
		return &Server{
			URL: u, AdminURL: os.Getenv("DWK_TEST_LIBSQL_ADMIN_URL"),
			AuthToken: os.Getenv("DWK_TEST_LIBSQL_AUTH_TOKEN"), AdminKey: os.Getenv("DWK_TEST_LIBSQL_ADMIN_KEY"),
			External: true, t: t,
		}
	}
	s := &Server{dir: t.TempDir(), t: t}
	s.args = append([]string{"libsql", "--http-listen-addr", "127.0.0.1:0", "--admin-listen-addr", "127.0.0.1:0", "--db-path", s.dir}, extraArgs...)
	s.start("")
	return s
}

func (s *Server) start(httpAddr string) {
	s.t.Helper()
	args := append([]string(nil), s.args...)
	if httpAddr != "" {
		// Restart on the same ports so clients keep their URLs.
		args[2] = httpAddr
		args[4] = hostPort(s.AdminURL)
	}
	s.proc = procs.Start(s.t, "dwk libsql", procs.Binary(s.t), nil, args...)
	s.URL = s.proc.WaitFor(hranaRE, 60*time.Second)[1]
	s.AdminURL = s.proc.WaitFor(adminRE, 10*time.Second)[1]
}

// Restart stops the server (SIGTERM, then a wait) and starts it again on the
// same ports and data after down, for tests of store outages; each of
// onStopped runs once the server is gone. It fails the test for an
// external server.
func (s *Server) Restart(down time.Duration, onStopped ...func()) {
	s.t.Helper()
	if s.External {
		s.t.Fatal("cannot restart an external libSQL server")
	}
	s.proc.Signal(syscall.SIGTERM)
	if _, err := s.proc.Wait(30 * time.Second); err != nil {
		s.proc.Kill()
	}
	start := time.Now()
	for _, f := range onStopped {
		f()
	}
	time.Sleep(down - time.Since(start))
	s.start(hostPort(s.URL))
}

// hostPort is the host:port of an http:// or https:// URL.
func hostPort(u string) string {
	return strings.TrimPrefix(strings.TrimPrefix(u, "http://"), "https://")
}

// Pause freezes the server (SIGSTOP) until Resume: it keeps its
// connections and answers nothing, as a server stuck on a slow disk would.
// The test's cleanup resumes it. It fails the test for an external server.
func (s *Server) Pause() {
	s.t.Helper()
	if s.External {
		s.t.Fatal("cannot pause an external libSQL server")
	}
	s.t.Cleanup(s.Resume)
	s.proc.Freeze()
}

// PID is the server's process id, 0 for an external server.
func (s *Server) PID() int {
	if s.External {
		return 0
	}
	return s.proc.PID()
}

// Resume lets a paused server go on (SIGCONT).
func (s *Server) Resume() { s.proc.Signal(syscall.SIGCONT) }

// Namespace returns a random namespace name for one test.
func Namespace(prefix string) string {
	b := make([]byte, 6)
	rand.Read(b)
	return prefix + "-" + hex.EncodeToString(b)
}
