package jsprojects

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/wait"
)

// throwSite is the file:line of the throw in projects/safety's
// inventory.ts, as a source-mapped stack names it.
func throwSite(t *testing.T) string {
	t.Helper()
	path := filepath.Join(projectsDir(t), "safety", "src", "inventory.ts")
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		if strings.Contains(sc.Text(), "throw new InventoryError") {
			return fmt.Sprintf("src/inventory.ts:%d:", n)
		}
	}
	t.Fatalf("%s has no throw", path)
	return ""
}

// logLine waits for the line of s's logs that contains what, and returns it.
func logLine(t *testing.T, s *site, what string) string {
	t.Helper()
	var line string
	wait.Within(t, 30*time.Second, "a log line with "+what, func() bool {
		for _, l := range strings.Split(s.logs(), "\n") {
			if strings.Contains(l, what) {
				line = l
				return true
			}
		}
		return false
	})
	return line
}

// testSafety checks the host's answers to code that misbehaves: an
// uncaught exception is a 500 logged with its message and its TypeScript
// file and line; a promise nothing can settle is a 500 at once; an endless
// loop is a 500 at the CPU limit while other requests go on being served.
func testSafety(t *testing.T, s *site) {
	site := throwSite(t)

	for _, tc := range []struct{ path, sku string }{
		{"/safety/throw", "sku-sync-" + t.Name()},
		{"/safety/throw-later", "sku-async-" + t.Name()},
	} {
		t.Run(strings.TrimPrefix(tc.path, "/safety/"), func(t *testing.T) {
			do(t, "GET", s.url(1, tc.path+"?sku="+tc.sku), nil).want(t, 500, "an uncaught exception")
			line := logLine(t, s, "out of stock: "+tc.sku)
			for _, want := range []string{"InventoryError", site} {
				if !strings.Contains(line, want) {
					t.Errorf("the log line does not name %q:\n%s", want, line)
				}
			}
		})
	}

	t.Run("hang", func(t *testing.T) {
		start := time.Now()
		do(t, "GET", s.url(1, "/safety/hang"), nil).want(t, 500, "a promise that never settles")
		if d := time.Since(start); d > 10*time.Second {
			t.Errorf("the hang was answered after %v", d)
		}
	})

	t.Run("endless loop", func(t *testing.T) {
		// The project's limits.cpu_ms is 1500: the loop runs that long,
		// and meanwhile the worker's other isolates go on serving. Were
		// requests queued behind the loop, hardly any would be answered
		// before it.
		spun := make(chan response, 1)
		spinStart := time.Now()
		go func() {
			r, err := send("GET", s.url(0, "/safety/spin"), nil)
			if err != nil {
				r = response{status: -1, body: []byte(err.Error())}
			}
			spun <- r
		}()
		served := 0
		for {
			select {
			case r := <-spun:
				if r.status != 500 {
					t.Errorf("the endless loop was answered %s, want 500", r)
				}
				if d := time.Since(spinStart); d < 1500*time.Millisecond {
					t.Errorf("the loop was stopped after %v, before the CPU limit", d)
				}
				if served < 3 {
					t.Errorf("%d requests were served while the loop ran, want several", served)
				}
				logLine(t, s, "exceeded its CPU time limit")
				do(t, "GET", s.url(0, "/safety/ok"), nil).want(t, 200, "a request after the loop")
				return
			default:
			}
			if r := do(t, "GET", s.url(served, "/safety/ok"), nil); r.status != 200 || string(r.body) != "ok" {
				t.Fatalf("request %d beside the loop: %s", served, r)
			}
			served++
			if time.Since(spinStart) > 30*time.Second {
				t.Fatal("the endless loop was not stopped within 30 s of a 1.5 s CPU limit")
			}
		}
	})
}
