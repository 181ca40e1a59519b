package objcentral_test

import (
	"fmt"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
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
