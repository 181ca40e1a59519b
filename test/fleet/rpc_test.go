package fleet

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/refworkers/counter"
	"github.com/dwk/fleet/appliance/worker"
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
	b := counterHeldElsewhere(t, f, run, holderA)
	for i, r := range f.Replicas {
		var got struct {
			Name  string `json:"name"`
			Value int64  `json:"value"`
		}
		if _, _, err := postAsFrontDoor(r.Public+"/counter/"+a+"/give?to="+b+"&by=10", &got); err != nil {
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

// TestObjectRPCStreamAcrossReplicas: counter a streams 40 MiB (more than
// worker.RPCMaxMessage, the bound of a buffered call) through the Echo
// method of counter b, held by another replica, and copies the result to
// the client as it comes: every byte arrives in order. When b's method
// fails after echoing everything, a's reader gets the typed error in
// place of the stream's end, and says so in its trailer. A client that
// goes away mid-stream ends both methods. When b's holder
// is killed in the middle of an endless stream (one no buffer could
// hold), a's reader gets worker.ErrRPCStreamCut, not a clean end.
func TestObjectRPCStreamAcrossReplicas(t *testing.T) {
	f := fleettest.Start(t, fleettest.Options{Replicas: 2})
	run := fmt.Sprintf("rpcstream-%d", time.Now().UnixNano())
	a := run + "-a"
	holderA, _ := holderAndOther(t, f, a)
	b := counterHeldElsewhere(t, f, run, holderA)
	const size = worker.RPCMaxMessage + 8<<20
	want := sha256.New()
	io.Copy(want, io.LimitReader(&counter.Pattern{}, size))
	before, _ := holderA.Metric(`dwk_forwards_total{member="` + holderA.Member + `",result="ok"}`)

	for _, tt := range []struct {
		query, wantErr string
	}{{"", ""}, {"&fail=1", "echo_failed"}} {
		resp, err := client.Post(holderA.Public+"/counter/"+a+"/stream?to="+b+"&bytes="+strconv.Itoa(size)+tt.query, "", nil)
		if err != nil {
			t.Fatal(err)
		}
		got := sha256.New()
		n, err := io.Copy(got, resp.Body)
		resp.Body.Close()
		if err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("stream%s: %s, read %d bytes, %v", tt.query, resp.Status, n, err)
		}
		if n != size || !bytes.Equal(got.Sum(nil), want.Sum(nil)) {
			t.Errorf("stream%s: %d bytes back, want %d; content matches: %v", tt.query, n, size, bytes.Equal(got.Sum(nil), want.Sum(nil)))
		}
		if m := resp.Header.Get("X-Dwk-Member"); m != holderA.Member {
			t.Errorf("stream%s served by %s, want a's holder %s", tt.query, m, holderA.Member)
		}
		if c := resp.Trailer.Get(counter.TrailerStreamBytes); c != strconv.Itoa(size) {
			t.Errorf("stream%s: a's caller read %q bytes, want %d", tt.query, c, size)
		}
		gotErr := resp.Trailer.Get(counter.TrailerStreamError)
		if tt.wantErr == "" && gotErr != "" || !strings.Contains(gotErr, tt.wantErr) {
			t.Errorf("stream%s: the result ended with %q, want %q", tt.query, gotErr, tt.wantErr)
		}
	}
	if n, ok := holderA.Metric(`dwk_forwards_total{member="` + holderA.Member + `",result="ok"}`); !ok || n < before+2 {
		t.Errorf("%s forwarded %v calls (was %v), want the two streams forwarded to b's holder", holderA.Member, n, before)
	}

	// A client that goes away ends the call on both holders: a streaming
	// call holds its object's turn, so both counters answer again only
	// once their methods have returned.
	resp, err := client.Post(holderA.Public+"/counter/"+a+"/stream?to="+b+"&bytes="+strconv.FormatInt(1<<40, 10), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := io.CopyN(io.Discard, resp.Body, 8<<20); err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	for _, name := range []string{a, b} {
		ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
		req, _ := http.NewRequestWithContext(ctx, "GET", holderA.Public+"/counter/"+name, nil)
		_, _, err := send(req, nil)
		cancel()
		if err != nil {
			t.Errorf("counter %s after its streaming call's client went away: %v; want it free again within 10s", name, err)
		}
	}

	holderB, _ := holderAndOther(t, f, b)
	resp, err = client.Post(holderA.Public+"/counter/"+a+"/stream?to="+b+"&bytes="+strconv.FormatInt(1<<40, 10), "", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if _, err := io.CopyN(io.Discard, resp.Body, 8<<20); err != nil {
		t.Fatal(err)
	}
	holderB.Kill()
	n, _ := io.Copy(io.Discard, resp.Body)
	if gotErr := resp.Trailer.Get(counter.TrailerStreamError); !strings.Contains(gotErr, worker.ErrRPCStreamCut.Error()) {
		t.Errorf("stream cut after %d MiB by killing b's holder ended with %q, want ErrRPCStreamCut", (8<<20+n)>>20, gotErr)
	}
}

// counterHeldElsewhere returns the name of a new counter (run-b0, run-b1,
// …) that is held by a replica other than not: new objects are placed
// over the fleet.
func counterHeldElsewhere(t *testing.T, f *fleettest.Fleet, run string, not *fleettest.Replica) string {
	t.Helper()
	for i := range 30 {
		name := fmt.Sprintf("%s-b%d", run, i)
		if h, _ := holderAndOther(t, f, name); h.Member != not.Member {
			return name
		}
	}
	t.Fatalf("30 new counters were all placed on %s", not.Member)
	return ""
}
