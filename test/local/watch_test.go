package local

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/test/procs"
	"github.com/dwk/fleet/test/wait"
)

// TestServeWatchSwapsWithoutDroppingRequests runs a Workers project with
// `dwk serve --watch` under a steady load, edits its source, and checks
// that the new code answers soon after while no request fails: requests
// in flight finish on the old bundle.
func TestServeWatchSwapsWithoutDroppingRequests(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src", "index.ts")
	os.MkdirAll(filepath.Dir(src), 0o755)
	os.WriteFile(filepath.Join(dir, "wrangler.toml"), []byte("name = \"watched\"\nmain = \"src/index.ts\"\ncompatibility_date = \"2025-06-01\"\n"), 0o644)
	version := func(v string) {
		t.Helper()
		code := `export default {
  async fetch(request: Request): Promise<Response> {
    await new Promise((r) => setTimeout(r, 20)); // a request is in flight for a while
    return new Response("` + v + `");
  },
};
`
		if err := os.WriteFile(src, []byte(code), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	version("v1")
	p := procs.Start(t, "dwk serve --watch", procs.Binary(t), nil, "serve", "--config", filepath.Join(dir, "wrangler.toml"),
		"--watch", "--data-dir", filepath.Join(dir, "data"), "--listen", "127.0.0.1:0")
	url := p.WaitFor(readyRE, 60*time.Second)[1]

	client := &http.Client{Timeout: 10 * time.Second}
	get := func() (string, error) {
		resp, err := client.Get(url + "/")
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		if resp.StatusCode != 200 {
			return string(b), &statusError{resp.StatusCode}
		}
		return string(b), err
	}
	if got, err := get(); err != nil || got != "v1" {
		t.Fatalf("before the edit: got %q, %v", got, err)
	}
	ctx, stop := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	var ok, failed atomic.Int64
	var sawV2 atomic.Bool
	var firstErr atomic.Value
	for range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				got, err := get()
				switch {
				case err != nil || (got != "v1" && got != "v2"):
					failed.Add(1)
					firstErr.CompareAndSwap(nil, got+" "+errString(err))
				default:
					ok.Add(1)
					if got == "v2" {
						sawV2.Store(true)
					}
				}
			}
		}()
	}
	time.Sleep(200 * time.Millisecond) // load running before the edit
	version("v2")
	wait.Within(t, 60*time.Second, "the edited code to answer", sawV2.Load)
	time.Sleep(200 * time.Millisecond) // and after the swap
	stop()
	wg.Wait()
	if n := failed.Load(); n > 0 {
		t.Errorf("%d of %d requests failed across the swap; first: %v", n, n+ok.Load(), firstErr.Load())
	}
	if !strings.Contains(p.Output(), "rebuilt and reloaded") {
		t.Errorf("no reload logged:\n%s", p.Output())
	}
}

type statusError struct{ code int }

func (e *statusError) Error() string { return http.StatusText(e.code) }

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
