package objcentral_test

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// TestCallBackAcrossReplicas: counter a, held by one replica, calls
// counter b, held by another, which calls a back through its forwarder.
// The call back runs while a's event awaits b (the input gate is open),
// sees the write a made before its call, and a's event then sees the
// call back's write.
func TestCallBackAcrossReplicas(t *testing.T) {
	var (
		mu  sync.Mutex
		nss = map[string]worker.ObjectNamespace{}
	)
	_, rs := startFleet(t, 2, func(i int, o *replicaOptions) {
		name := o.name
		o.env = func(string) *worker.Env {
			mu.Lock()
			defer mu.Unlock()
			return worker.NewEnv("test", worker.Bindings{
				Vars:    map[string]string{varReplica: name},
				Objects: map[string]worker.ObjectNamespace{"COUNTER": nss[name]},
			})
		}
	})
	mu.Lock()
	for _, r := range rs {
		nss[r.name] = r.ns
	}
	mu.Unlock()

	run := fmt.Sprintf("bounce-%d", time.Now().UnixNano())
	a := run + "-a"
	if code, body := rs[0].do(t, http.MethodGet, a, "/get"); code != http.StatusOK {
		t.Fatalf("start %s: %d %s", a, code, body)
	}
	holderA := holder(t, rs[0], a)
	var b string
	for i := range 40 {
		name := fmt.Sprintf("%s-b%d", run, i)
		if code, body := rs[0].do(t, http.MethodGet, name, "/get"); code != http.StatusOK {
			t.Fatalf("start %s: %d %s", name, code, body)
		}
		if h := holder(t, rs[0], name); h != "" && h != holderA {
			b = name
			break
		}
	}
	if b == "" {
		t.Fatalf("40 new counters were all placed on %s", holderA)
	}
	for _, via := range rs {
		code, body := via.do(t, http.MethodPost, a, "/bounce?to="+b)
		if code != http.StatusOK {
			t.Fatalf("A→B→A through %s: %d %s", via.name, code, body)
		}
		var mine, back int64
		if _, err := fmt.Sscanf(body, "%d|%d", &mine, &back); err != nil || mine != back {
			t.Errorf("A→B→A through %s answered %q: a's event and the call back into it disagree", via.name, body)
		}
	}
	if code, body := rs[1].do(t, http.MethodGet, a, "/get"); code != http.StatusOK || body != "4" {
		t.Errorf("counter a = %d %q, want 4 (two bounces, each incremented before and in the call back)", code, body)
	}
}

// TestStaleHolderCallIsRefused: a holder paused past its lease (it
// neither renews nor notices expiry) writes and then calls another
// object. The commit that must come before the call is fenced at the
// primary, so the call is never made and the caller gets the error: the
// callee never learns of a write that was lost.
func TestStaleHolderCallIsRefused(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	var (
		mu  sync.Mutex
		nss = map[string]worker.ObjectNamespace{}
	)
	env := func(name string) func(string) *worker.Env {
		return func(string) *worker.Env {
			mu.Lock()
			defer mu.Unlock()
			return worker.NewEnv("test", worker.Bindings{
				Vars:    map[string]string{varReplica: name},
				Objects: map[string]worker.ObjectNamespace{"COUNTER": nss[name]},
			})
		}
	}
	paused := startReplica(t, b, nil, replicaOptions{name: "paused", leaseClock: newFakeClock(), ttl: lease.MinTTL, env: env("paused")})
	// The other replica believes it is alone, so it takes the object as
	// soon as the paused holder's lease expires on the server.
	other := startReplica(t, b, nil, replicaOptions{name: "other", ttl: lease.MinTTL, env: env("other")})
	mu.Lock()
	nss["paused"], nss["other"] = paused.ns, other.ns
	mu.Unlock()

	if code, body := paused.do(t, http.MethodPost, "a", "/inc"); code != http.StatusOK {
		t.Fatalf("increment on the holder: %d %s", code, body)
	}
	wait.For(t, "the other replica to take the object over", func() bool {
		other.do(t, http.MethodGet, "a", "/get")
		return holder(t, other, "a") == "other"
	})
	code, body := paused.do(t, http.MethodPost, "a", "/bounce?to=callee")
	if code == http.StatusOK || !strings.Contains(body, "fenced") {
		t.Errorf("stale holder /bounce: %d %q, want the fenced commit's error", code, body)
	}
	if code, body := other.do(t, http.MethodGet, "callee", "/get"); code != http.StatusOK || body != "0" {
		t.Errorf("callee = %d %q, want 0: the stale holder's call was made although its write was lost", code, body)
	}
	if code, body := other.do(t, http.MethodGet, "a", "/get"); code != http.StatusOK || body != "1" {
		t.Errorf("a = %d %q, want 1: the stale holder's write landed", code, body)
	}
}
