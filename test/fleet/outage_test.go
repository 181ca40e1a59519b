package fleet

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/test/fleettest"
)

// TestOutagesAnswerAsOutages stops the libSQL server and checks that
// requests that need it answer 503 with Retry-After — an outage a client
// retries — and not 400 or 500: an increment of an object held before the
// outage (its commit fails), an increment of an object no replica holds
// (its lease cannot be taken), a D1 write and a D1 read. Once the server is
// back, the same requests succeed.
func TestOutagesAnswerAsOutages(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 2})
	r := f.Replicas[0]
	reqs := []struct{ name, method, path, body string }{
		{"increment of a held object", "POST", "/counter/outage-held/increment", ""},
		{"increment of a new object", "POST", "/counter/outage-new/increment", ""},
		{"D1 write (chat message)", "POST", "/chat/rooms/outage/messages", `{"user":"u","text":"hi"}`},
		{"D1 read (chat history)", "GET", "/chat/rooms/outage/messages", ""},
	}
	send := func(method, path, body string) (*http.Response, string) {
		req, err := http.NewRequest(method, r.Public+path, strings.NewReader(body))
		if err != nil {
			t.Fatal(err)
		}
		if body != "" {
			req.Header.Set("Content-Type", "application/json")
		}
		c := &http.Client{Timeout: 30 * time.Second}
		resp, err := c.Do(req)
		if err != nil {
			t.Fatalf("%s %s: %v", method, path, err)
		}
		defer resp.Body.Close()
		b := make([]byte, 300)
		n, _ := resp.Body.Read(b)
		return resp, string(b[:n])
	}
	// Warm up: the schema exists and outage-held is held by r.
	for _, q := range []int{0, 2, 3} {
		if resp, body := send(reqs[q].method, reqs[q].path, reqs[q].body); resp.StatusCode != http.StatusOK {
			t.Fatalf("before the outage, %s: %d %s", reqs[q].name, resp.StatusCode, body)
		}
	}

	stopped, restart := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(restart)
		// Long enough for every request below, each of which the front
		// door may replay for a while when nothing ran (see
		// frontdoor.DefaultRetries).
		f.LibSQL.Restart(30*time.Second, func() { close(stopped) })
	}()
	<-stopped
	outage := time.Now()
	for _, q := range reqs {
		start := time.Now()
		resp, body := send(q.method, q.path, q.body)
		took := time.Since(start)
		if resp.StatusCode != http.StatusServiceUnavailable || resp.Header.Get("Retry-After") == "" {
			t.Errorf("during the outage, %s: %d (Retry-After %q) %s; want 503 with Retry-After",
				q.name, resp.StatusCode, resp.Header.Get("Retry-After"), body)
		}
		if took > config.DefaultForwardTimeout+time.Second {
			t.Errorf("during the outage, %s took %v; the forward deadline is %v", q.name, took, config.DefaultForwardTimeout)
		}
	}
	if time.Since(outage) > 25*time.Second {
		t.Fatalf("the requests took %v, too long to be sure the outage lasted through them", time.Since(outage))
	}
	<-restart
	for _, q := range reqs {
		deadline := time.Now().Add(20 * time.Second)
		for {
			resp, body := send(q.method, q.path, q.body)
			if resp.StatusCode == http.StatusOK {
				break
			}
			if time.Now().After(deadline) {
				t.Errorf("20s after the outage, %s: %d %s", q.name, resp.StatusCode, body)
				break
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
}
