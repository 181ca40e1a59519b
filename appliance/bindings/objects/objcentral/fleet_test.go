package objcentral_test

import (
	"errors"
	"fmt"
	"github.com/dwk/fleet/appliance/fleet/lease"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// startFleet starts n replicas r1…rn over one backend, all ready members
// of each other.
func startFleet(t *testing.T, n int, tweak func(i int, o *replicaOptions)) (*memberList, []*replica) {
	t.Helper()
	b := newBackend(t, libsqlserver.Start(t))
	members := &memberList{}
	rs := make([]*replica, n)
	for i := range rs {
		o := replicaOptions{name: fmt.Sprintf("r%d", i+1)}
		if tweak != nil {
			tweak(i, &o)
		}
		rs[i] = startReplica(t, b, members, o)
	}
	var ms []objcentral.Member
	for _, r := range rs {
		ms = append(ms, r.member())
	}
	members.set(ms...)
	return members, rs
}

// TestCounterThroughThreeReplicas sends concurrent increments of one
// counter through all three replicas, hands the object over by draining
// its holder half way, and checks that the counter equals the number of
// acknowledged increments: no lost update, no double write.
func TestCounterThroughThreeReplicas(t *testing.T) {
	members, rs := startFleet(t, 3, nil)
	var acked atomic.Int64
	run := func(via []*replica, perWorker int) {
		var wg sync.WaitGroup
		for w := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range perWorker {
					r := via[(w+i)%len(via)]
					if code, _ := r.do(t, http.MethodPost, "counter", "/inc"); code == http.StatusOK {
						acked.Add(1)
					}
				}
			}()
		}
		wg.Wait()
	}
	run(rs, 15)
	first := holder(t, rs[0], "counter")
	if first == "" {
		t.Fatal("nobody holds the counter after 90 increments")
	}
	var gone *replica
	var rest []*replica
	for _, r := range rs {
		if r.name == first {
			gone = r
		} else {
			rest = append(rest, r)
		}
	}
	// Drain the holder while increments keep coming through the others;
	// as membership does, it leaves the ready list first.
	done := make(chan struct{})
	go func() { defer close(done); run(rest, 15) }()
	time.Sleep(50 * time.Millisecond)
	members.set(rest[0].member(), rest[1].member())
	gone.close(t)
	<-done
	run(rest, 5)

	code, body := rest[0].do(t, http.MethodGet, "counter", "/get")
	if code != http.StatusOK {
		t.Fatalf("read counter: %d %s", code, body)
	}
	if got, want := body, strconv.FormatInt(acked.Load(), 10); got != want {
		t.Errorf("counter = %s, acknowledged increments = %s", got, want)
	}
	if second := holder(t, rest[0], "counter"); second == "" || second == first {
		t.Errorf("holder after drain = %q, want another replica than %s", second, first)
	}
	var forwards float64
	for _, r := range rs {
		forwards += forwardsOK(t, r)
	}
	if forwards == 0 {
		t.Error("no request was forwarded, although three replicas served one object")
	}
	t.Logf("acknowledged %d increments, %v forwards", acked.Load(), forwards)
}

// TestStaleHolderIsFenced pauses a holder (its lease clock stops: it
// neither renews nor notices expiry), lets another replica take the object
// over and write, then lets the paused holder serve again: none of its
// writes land, and once its write is refused it serves no stale read (the
// read is fenced, or reaches the new holder).
func TestStaleHolderIsFenced(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	paused := startReplica(t, b, nil, replicaOptions{name: "paused", leaseClock: newFakeClock(), ttl: lease.MinTTL})
	// The other replica believes it is alone, so it takes the object as
	// soon as the paused holder's lease expires on the server.
	other := startReplica(t, b, nil, replicaOptions{name: "other", ttl: lease.MinTTL})

	acked := 0
	for range 3 {
		if code, body := paused.do(t, http.MethodPost, "c", "/inc"); code != http.StatusOK {
			t.Fatalf("increment on the holder: %d %s", code, body)
		}
		acked++
	}
	// Until the paused holder's lease expires on the server, the other
	// replica forwards to it (and the paused holder may still write: no
	// one else has opened the object).
	wait.For(t, "the other replica to take the object over", func() bool {
		if code, _ := other.do(t, http.MethodPost, "c", "/inc"); code == http.StatusOK {
			acked++
		}
		return holder(t, other, "c") == "other"
	})
	// The paused holder wakes up with its instance still loaded and its
	// lease fresh by its own clock.
	if !paused.leases.Held(counterClass, paused.ns.IDFromName("c").String()).Fresh() {
		t.Fatal("the paused holder's lease is not fresh by its own clock")
	}
	if code, body := paused.do(t, http.MethodPost, "c", "/inc"); code == http.StatusOK || !strings.Contains(body, "fenced") {
		t.Errorf("stale holder /inc: %d %q, want a fenced error", code, body)
	}
	if code, body := paused.do(t, http.MethodGet, "c", "/get"); code == http.StatusOK && body != strconv.Itoa(acked) {
		t.Errorf("stale holder /get after its write was fenced: %d %q, want a fenced error or the current count %d", code, body, acked)
	}
	code, body := other.do(t, http.MethodGet, "c", "/get")
	if want := strconv.Itoa(acked); code != http.StatusOK || body != want {
		t.Errorf("counter after the stale holder's attempts = %d %q, want %s (the acknowledged increments)", code, body, want)
	}
}

// TestForwardingAndWebSocket reaches an object through a replica that does
// not hold it: plain requests keep their path, query, Authorization and
// the object's name; a WebSocket is answered on the holder, keeps the
// lease while open (past several TTLs) and is closed with 1012 when the
// holder drains.
func TestForwardingAndWebSocket(t *testing.T) {
	_, rs := startFleet(t, 2, func(_ int, o *replicaOptions) { o.ttl = lease.MinTTL })
	// r1 takes the object (forwarded once to itself if need be).
	code, body := rs[0].do(t, http.MethodGet, "room", "/whoami")
	if code != http.StatusOK {
		t.Fatalf("whoami: %d %s", code, body)
	}
	h := holder(t, rs[0], "room")
	var at, via *replica
	for _, r := range rs {
		if r.name == h {
			at = r
		} else {
			via = r
		}
	}
	if at == nil || via == nil {
		t.Fatalf("holder %q not one of the replicas", h)
	}

	req, _ := http.NewRequest(http.MethodGet, via.public.URL+"/room/whoami/a%2Fb?x=1&y=2", nil)
	req.Header.Set("Authorization", "Bearer user-token")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if want := at.name + "|room|/whoami/a/b|x=1&y=2|Bearer user-token"; string(got) != want {
		t.Errorf("forwarded request seen by the object: %q, want %q", got, want)
	}

	u := "ws" + strings.TrimPrefix(via.public.URL, "http") + "/room/ws"
	c, _, err := websocket.DefaultDialer.Dial(u, nil)
	if err != nil {
		t.Fatalf("dial through the non-holder: %v", err)
	}
	defer c.Close()
	epoch := at.leases.Held(counterClass, at.ns.IDFromName("room").String()).Epoch()
	for i := range 4 {
		msg := fmt.Sprint("hello ", i)
		if err := c.WriteMessage(websocket.TextMessage, []byte(msg)); err != nil {
			t.Fatal(err)
		}
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		_, data, err := c.ReadMessage()
		if err != nil {
			t.Fatal(err)
		}
		if want := at.name + ":" + msg; string(data) != want {
			t.Errorf("echo = %q, want %q (answered on the holder)", data, want)
		}
		time.Sleep(lease.MinTTL) // four TTLs
	}
	if s := at.rt.Stats(); s.WebSockets != 1 {
		t.Errorf("holder has %d sockets, want 1", s.WebSockets)
	}
	if s := via.rt.Stats(); s.WebSockets != 0 || s.Instances != 0 {
		t.Errorf("non-holder runs %d instances with %d sockets, want none", s.Instances, s.WebSockets)
	}
	l := at.leases.Held(counterClass, at.ns.IDFromName("room").String())
	if l == nil || l.Epoch() != epoch {
		t.Fatalf("the open WebSocket did not keep the lease (epoch %d)", epoch)
	}
	closed := make(chan int, 1)
	go func() {
		c.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			_, _, err := c.ReadMessage()
			var ce *websocket.CloseError
			if errors.As(err, &ce) {
				closed <- ce.Code
				return
			}
			if err != nil {
				closed <- 0
				return
			}
		}
	}()
	at.close(t)
	if code := <-closed; code != worker.CloseServiceRestart {
		t.Errorf("close code through the proxy = %d, want 1012", code)
	}
	if got := holder(t, via, "room"); got != "" {
		t.Errorf("lease still held by %q after the holder drained", got)
	}
}

// TestAlarmsRunOnceOnHolder sets alarms on many objects through three
// replicas; every alarm fires exactly once, on the replica holding the
// object's lease.
func TestAlarmsRunOnceOnHolder(t *testing.T) {
	p := newTestProbe(t.Name())
	_, rs := startFleet(t, 3, func(i int, o *replicaOptions) {
		o.objects.AlarmPollInterval = 20 * time.Millisecond
		name := fmt.Sprintf("r%d", i+1)
		o.env = func(string) *worker.Env {
			return worker.NewEnv("test", worker.Bindings{Vars: map[string]string{varReplica: name, varProbe: t.Name()}})
		}
	})
	const n = 12
	for i := range n {
		r := rs[i%len(rs)]
		if code, body := r.do(t, http.MethodPost, fmt.Sprint("a", i), "/alarm?ms=150"); code != http.StatusOK {
			t.Fatalf("set alarm: %d %s", code, body)
		}
	}
	wait.Within(t, 15*time.Second, "every alarm to fire", func() bool {
		for i := range n {
			if len(p.alarmRuns(fmt.Sprint("a", i))) == 0 {
				return false
			}
		}
		return true
	})
	time.Sleep(300 * time.Millisecond) // room for a duplicate to show up
	for i := range n {
		name := fmt.Sprint("a", i)
		runs := p.alarmRuns(name)
		if len(runs) != 1 {
			t.Errorf("alarm of %s ran %d times (%v), want once", name, len(runs), runs)
			continue
		}
		if h := holder(t, rs[0], name); h != runs[0] {
			t.Errorf("alarm of %s ran on %s, the lease is held by %q", name, runs[0], h)
		}
	}
}

// TestHeldLeaseNeedsNoCoordinationRoundTrips checks that, once a replica
// holds an object's lease, serving the object's requests costs no round
// trip to the coordination store.
func TestHeldLeaseNeedsNoCoordinationRoundTrips(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	r := startReplica(t, b, nil, replicaOptions{
		name: "r", leaseClock: newFakeClock(), ttl: time.Minute,
		objects: objtestOptions(time.Hour),
	})
	if code, body := r.do(t, http.MethodPost, "hot", "/inc"); code != http.StatusOK {
		t.Fatalf("first request: %d %s", code, body)
	}
	leaseTrips, alarmTrips, objTrips := r.leaseDB.Client().RoundTrips(), r.alarmDB.Client().RoundTrips(), r.objClient.RoundTrips()
	const n = 50
	for range n {
		if code, body := r.do(t, http.MethodPost, "hot", "/inc"); code != http.StatusOK {
			t.Fatalf("request: %d %s", code, body)
		}
	}
	if d := r.leaseDB.Client().RoundTrips() - leaseTrips; d != 0 {
		t.Errorf("%d requests made %d lease round trips, want 0", n, d)
	}
	if d := r.alarmDB.Client().RoundTrips() - alarmTrips; d != 0 {
		t.Errorf("%d requests made %d alarm-index round trips, want 0", n, d)
	}
	// Each increment commits its writes in one round trip to the object's
	// own database; reads are served by the local replica.
	if d := r.objClient.RoundTrips() - objTrips; d != n {
		t.Errorf("%d increments made %d object database round trips, want %d", n, d, n)
	}
	objTrips = r.objClient.RoundTrips()
	for range n {
		if code, body := r.do(t, http.MethodGet, "hot", "/get"); code != http.StatusOK {
			t.Fatalf("request: %d %s", code, body)
		}
	}
	if d := r.objClient.RoundTrips() - objTrips; d != 0 {
		t.Errorf("%d reads made %d object database round trips, want 0", n, d)
	}
}

// TestInternalCallsNeedTheKey checks the internal listener's answers to
// calls without or with a wrong key, and to malformed paths.
func TestInternalCallsNeedTheKey(t *testing.T) {
	b := newBackend(t, libsqlserver.Start(t))
	r := startReplica(t, b, nil, replicaOptions{name: "r"})
	id := r.ns.IDFromName("x")
	u := r.internal.URL + objcentral.InternalPrefix + counterClass + "/" + id.String() + "/whoami"
	link := func(secret string) http.RoundTripper {
		l, err := peerlink.New(peerlink.Config{Secret: []byte(secret), Fleet: "f", Member: "caller"})
		if err != nil {
			t.Fatal(err)
		}
		return l.Transport(nil, nil)
	}
	wrong, right := link("another fleet"), link(secret)
	tests := []struct {
		name string
		rt   http.RoundTripper
		url  string
		hops string
		want int
	}{
		{"no key", http.DefaultTransport, u, "1", http.StatusUnauthorized},
		{"other fleet's key", wrong, u, "1", http.StatusUnauthorized},
		{"right key", right, u, "1", http.StatusOK},
		{"too many hops", right, u, "3", http.StatusBadRequest},
		{"unknown class", right, r.internal.URL + objcentral.InternalPrefix + "Nope/" + id.String() + "/", "1", http.StatusNotFound},
		{"id of another class", right, r.internal.URL + objcentral.InternalPrefix + counterClass + "/" + strings.Repeat("0", 64) + "/", "1", http.StatusBadRequest},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(http.MethodGet, tc.url, nil)
		req.Header.Set("Dwk-Forward-Hops", tc.hops)
		resp, err := (&http.Client{Transport: tc.rt}).Do(req)
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.want {
			t.Errorf("%s: %d %q, want %d", tc.name, resp.StatusCode, body, tc.want)
		}
	}
}
