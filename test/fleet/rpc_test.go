package fleet

import (
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/test/fleettest"
)

// TestObjectRPCAcrossReplicas: counter a calls counter b's Add method
// (worker.Call) where b is held by another replica, so the call is
// forwarded over the internal link (mutual TLS and request MACs on); the
// typed result comes back and b's value is what it says.
func TestObjectRPCAcrossReplicas(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{})
	run := fmt.Sprintf("rpc-%d", time.Now().UnixNano())
	a := run + "-a"
	holderA, _ := holderAndOther(t, f, a)
	// A counter held elsewhere: new objects are placed over the fleet.
	var b string
	for i := range 30 {
		name := fmt.Sprintf("%s-b%d", run, i)
		if h, _ := holderAndOther(t, f, name); h.Member != holderA.Member {
			b = name
			break
		}
	}
	if b == "" {
		t.Fatalf("30 new counters were all placed on %s", holderA.Member)
	}
	for i, r := range f.Replicas {
		var got struct {
			Name  string `json:"name"`
			Value int64  `json:"value"`
		}
		if _, _, err := post(r.Public+"/counter/"+a+"/give?to="+b+"&by=10", &got); err != nil {
			t.Fatal(err)
		}
		if want := int64(1 + 10*(i+1)); got.Name != b || got.Value != want {
			t.Fatalf("give through %s = %+v, want %s at %d", r.Member, got, b, want)
		}
	}
	// A client cannot make a request a method call: the header that
	// carries a forwarded call's method is the host's own.
	for _, r := range f.Replicas {
		req, _ := http.NewRequest("POST", r.Public+"/counter/"+b+"/increment", strings.NewReader(`{"by":1000}`))
		req.Header.Set("Dwk-Rpc-Method", "Add")
		if _, _, err := send(req, nil); err != nil {
			t.Fatal(err)
		}
	}
	var final struct {
		Value int64 `json:"value"`
	}
	if _, _, err := get(f.Replicas[0].Public+"/counter/"+b, &final); err != nil || final.Value != 34 {
		t.Fatalf("counter %s = %d, %v; want 34 (31, and 1 for each plain increment)", b, final.Value, err)
	}
	// a's holder sent the calls to b's holder: a's own requests came to
	// it through the front doors, the calls went out over the internal link.
	if n, ok := holderA.Metric(`dwk_forwards_total{member="` + holderA.Member + `",result="ok"}`); !ok || n < 3 {
		t.Errorf("%s forwarded %v calls (found %v), want at least 3", holderA.Member, n, ok)
	}
}
