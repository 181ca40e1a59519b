package caddytest

import (
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/caddy/frontdoor"
	"github.com/dwk/fleet/test/wait"
)

// placement is the member object placement chooses for an object among
// the ready members: objectid.Pick over their member ids.
func placement(namespace, name string, ready ...string) string {
	return objectid.Pick(objectid.FromName([]byte(testSecret), namespace, name), ready)
}

func TestObjectAffinity(t *testing.T) {
	f := startFleet(t, 3)
	base := f.startFrontDoor(frontdoor.Options{Refresh: 100 * time.Millisecond, LogLevel: "ERROR"})
	ready := []string{"m1", "m2", "m3"}

	landed := map[string]bool{}
	for i := range 24 {
		name := "obj-" + string(rune('a'+i))
		want := placement("Counter", name, ready...)
		id := objectid.FromName([]byte(testSecret), "Counter", name).String()
		for range 4 {
			r, err := f.get(base + "/counter/" + name + "/increment")
			if err != nil {
				t.Fatal(err)
			}
			if r.status != http.StatusOK || r.Member != want {
				t.Fatalf("object %s: %d from %q, want 200 from %s (its placement)", name, r.status, r.Member, want)
			}
			if r.ObjectID != id {
				t.Fatalf("object %s: app saw X-Dwk-Object-Id %q, want %s", name, r.ObjectID, id)
			}
		}
		landed[want] = true
	}
	if len(landed) != 3 {
		t.Errorf("24 objects were placed on %v only", landed)
	}

	// The same object by header, and a WebSocket, end on the same member.
	want := placement("ChatRoom", "lobby", ready...)
	r, err := f.do(http.MethodGet, base+"/chat/messages", "", http.Header{"X-Chat-Room": {"lobby"}})
	if err != nil || r.Member != want {
		t.Fatalf("header rule: %+v, %v; want member %s", r, err, want)
	}
	ws, _, err := websocket.DefaultDialer.Dial("ws"+strings.TrimPrefix(base, "http")+"/chat/rooms/lobby/ws", nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := ws.WriteMessage(websocket.TextMessage, []byte("hi")); err != nil {
		t.Fatal(err)
	}
	_, msg, err := ws.ReadMessage()
	if err != nil || string(msg) != want+":hi" {
		t.Fatalf("WebSocket echo = %q, %v; want %q", msg, err, want+":hi")
	}
	// An open WebSocket counts as an active request: close it so that the
	// least-connections check below starts from equal loads.
	ws.Close()
	wait.Within(t, 30*time.Second, "the proxied WebSocket to end", func() bool {
		r, err := f.get(base + "/static/probe")
		return err == nil && r.Member == want
	})

	// Requests without an object spread over the members.
	before := map[string]int64{}
	for _, a := range f.apps {
		before[a.id] = a.served.Load()
	}
	for range 60 {
		if r, err := f.get(base + "/static/app.js"); err != nil || r.status != http.StatusOK || r.ObjectID != "" {
			t.Fatalf("stateless request: %+v, %v", r, err)
		}
	}
	for _, a := range f.apps {
		if a.served.Load() == before[a.id] {
			t.Errorf("member %s got none of 60 stateless requests", a.id)
		}
	}
}

func TestLeaseHolderWinsOverPlacement(t *testing.T) {
	f := startFleet(t, 3)
	base := f.startFrontDoor(frontdoor.Options{Refresh: 100 * time.Millisecond, LogLevel: "ERROR"})
	// An object that placement puts on m1, leased by m3.
	name := ""
	for i := 0; name == ""; i++ {
		if n := "leased-" + string(rune('a'+i)); placement("Counter", n, "m1", "m2", "m3") == "m1" {
			name = n
		}
	}
	id := objectid.FromName([]byte(testSecret), "Counter", name)
	m := lease.New(lease.Config{Coord: f.store, Member: "m3", Addr: f.apps[2].addr()})
	ctx := ctxFor(t)
	if err := m.Open(ctx); err != nil {
		t.Fatal(err)
	}
	defer m.Close(ctx)
	if _, err := m.Acquire(ctx, "Counter", id.String()); err != nil {
		t.Fatal(err)
	}
	for range 5 {
		r, err := f.get(base + "/counter/" + name)
		if err != nil || r.Member != "m3" {
			t.Fatalf("leased object: %+v, %v; want the holder m3", r, err)
		}
	}
}

// TestDrainLeavesRotationWithinRefresh marks m3 draining in the
// coordination KV only (its app keeps answering, so no retry asks for an
// early listing): the front door stops choosing it within one refresh
// interval plus a round trip.
func TestDrainLeavesRotationWithinRefresh(t *testing.T) {
	const refresh = 200 * time.Millisecond
	f := startFleet(t, 3)
	base := f.startFrontDoor(frontdoor.Options{Refresh: refresh, LogLevel: "ERROR"})
	m3 := f.apps[2]
	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				if r, err := f.get(base + "/static/x"); err != nil || r.status != http.StatusOK {
					t.Errorf("request failed: %+v, %v", r, err)
					return
				}
			}
		})
	}
	wait.Within(t, 30*time.Second, "traffic on m3", func() bool { return m3.served.Load() > 10 })
	start := time.Now()
	f.setState(m3, membership.StateDraining)
	time.Sleep(5 * refresh)
	close(stop)
	wg.Wait()
	left := m3.lastServedAt().Sub(start)
	t.Logf("m3 left rotation %v after it was marked draining (refresh %v)", left.Round(time.Millisecond), refresh)
	// One interval plus a listing round trip and the in-flight requests;
	// the margin absorbs a loaded machine.
	if left > refresh+500*time.Millisecond {
		t.Errorf("m3 still chosen %v after draining, want within one refresh interval (%v) plus a round trip", left, refresh)
	}
}

// TestDrainingMemberLeavesRotation switches m2 to draining while clients
// send requests with and without bodies: no request fails (m2's retry
// answers are replayed elsewhere) and the front door stops choosing m2
// within one refresh interval plus a round trip.
func TestDrainingMemberLeavesRotation(t *testing.T) {
	const refresh = 100 * time.Millisecond
	f := startFleet(t, 3)
	base := f.startFrontDoor(frontdoor.Options{Refresh: refresh, LogLevel: "ERROR"})
	m2 := f.apps[1]

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	var failures []string
	for c := range 8 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				body := strings.Repeat("x", 1000+c*100+i%7)
				var r reply
				var err error
				if i%2 == 0 {
					r, err = f.do(http.MethodPost, base+"/counter/c"+string(rune('a'+i%20))+"/increment", body, nil)
				} else {
					body = ""
					r, err = f.get(base + "/static/" + string(rune('a'+i%20)))
				}
				if err != nil || r.status != http.StatusOK || r.Body != body {
					mu.Lock()
					failures = append(failures, r.Body+" "+errString(err))
					mu.Unlock()
				}
			}
		})
	}
	time.Sleep(300 * time.Millisecond) // traffic on every member
	start := time.Now()
	m2.draining.Store(true)
	f.setState(m2, membership.StateDraining)
	time.Sleep(10 * refresh)
	close(stop)
	wg.Wait()

	if len(failures) > 0 {
		t.Errorf("%d requests failed while m2 drained; first: %s", len(failures), failures[0])
	}
	if m2.retries.Load() == 0 {
		t.Log("no request met m2 while it drained (no retry answers to replay)")
	}
	left := m2.lastRetryAt().Sub(start)
	if left < 0 {
		left = 0
	}
	t.Logf("m2 left rotation %v after it was marked draining (refresh %v); %d retry answers replayed", left.Round(time.Millisecond), refresh, m2.retries.Load())
	if left > refresh+500*time.Millisecond {
		t.Errorf("m2 still chosen %v after draining, want within one refresh interval (%v) plus a round trip", left, refresh)
	}
}

// TestDeadMemberIsRetried stops m3's app server while its record still
// says ready: requests that pick it are retried on the others.
func TestDeadMemberIsRetried(t *testing.T) {
	f := startFleet(t, 3)
	base := f.startFrontDoor(frontdoor.Options{Refresh: time.Hour, LogLevel: "ERROR"})
	f.apps[2].srv.Close()
	for i := range 30 {
		name := "dead-" + string(rune('a'+i))
		r, err := f.do(http.MethodPost, base+"/counter/"+name+"/increment", "body", nil)
		if err != nil || r.status != http.StatusOK || r.Member == "m3" || r.Body != "body" {
			t.Fatalf("request %d: %+v, %v; want 200 from m1 or m2", i, r, err)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
