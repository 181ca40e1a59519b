package frontdoor

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
)

// deadAddr returns a loopback address nothing listens on.
func deadAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	return addr
}

// TestStartStop runs the front door with no reachable libSQL: the self
// route works, the fleet route has no upstreams, and Stop frees the port.
func TestStartStop(t *testing.T) {
	self := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "self "+r.URL.Path)
	}))
	defer self.Close()
	cfg := &config.Config{
		Fleet:   config.Fleet{Name: "test", Secret: config.Literal(strings.Repeat("s", 32))},
		Listen:  config.Listen{Public: "127.0.0.1:0", Internal: self.Listener.Addr().String()},
		Storage: config.Storage{Mode: config.ModeCentral, LibSQL: &config.LibSQL{URL: "http://" + deadAddr(t)}},
	}
	cfg.ApplyDefaults()
	ctx := context.Background()
	fd, err := StartOptions(ctx, cfg, Options{Retries: -1, LogLevel: "ERROR"})
	if err != nil {
		t.Fatal(err)
	}
	stopped := false
	defer func() {
		if !stopped {
			fd.Stop(ctx)
		}
	}()
	if _, err := Start(ctx, cfg); !errors.Is(err, ErrRunning) {
		t.Errorf("second Start = %v, want ErrRunning", err)
	}
	base := "http://" + fd.Addr().String()

	res, err := http.Get(base + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusOK || string(body) != "self /readyz" {
		t.Errorf("/readyz = %d %q, want 200 from the replica's own app server", res.StatusCode, body)
	}

	res, err = http.Get(base + "/_dwk/internal/objects/Counter/x")
	if err != nil {
		t.Fatal(err)
	}
	body, _ = io.ReadAll(res.Body)
	res.Body.Close()
	if res.StatusCode != http.StatusNotFound || strings.HasPrefix(string(body), "self") {
		t.Errorf("internal endpoint on the public port = %d %q, want 404 from the front door", res.StatusCode, body)
	}

	res, err = http.Get(base + "/counter/a")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode < 500 {
		t.Errorf("/counter/a with no members = %d, want a 5xx", res.StatusCode)
	}

	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if err := fd.Stop(sctx); err != nil {
		t.Fatal(err)
	}
	stopped = true
	if err := fd.Stop(sctx); err != nil {
		t.Errorf("second Stop = %v", err)
	}
	if c, err := net.DialTimeout("tcp", fd.Addr().String(), time.Second); err == nil {
		c.Close()
		t.Error("front door still accepts connections after Stop")
	}
}
