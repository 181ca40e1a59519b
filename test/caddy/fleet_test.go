package caddytest

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/caddy/frontdoor"
	"github.com/dwk/fleet/test/libsqlserver"
	"github.com/dwk/fleet/test/wait"
)

// testSecret is the fleet secret of every test fleet.
const testSecret = "caddy-test-fleet-secret-0123456789abcdef"

// fleet is a coordination KV on a real libSQL server with app servers
// registered in it as members.
type fleet struct {
	t      testing.TB
	name   string
	srv    *libsqlserver.Server
	client *hranaclient.Client
	store  *coord.Store
	reg    *membership.Registry
	apps   []*app
	http   *http.Client
}

// startFleet starts a libSQL server, creates the fleet's coordination
// database and registers n ready app servers m1…mn.
func startFleet(t testing.TB, n int) *fleet {
	t.Helper()
	ctx := ctxFor(t)
	f := &fleet{t: t, name: libsqlserver.Namespace("lb"), srv: libsqlserver.Start(t), http: newClient()}
	admin, err := libsqladmin.New(libsqladmin.Config{URL: f.srv.AdminURL, AdminKey: f.srv.AdminKey})
	if err != nil {
		t.Fatal(err)
	}
	ns := namespaces.Coord(f.name)
	if err := admin.Create(ctx, ns); err != nil {
		t.Fatal(err)
	}
	f.client, err = hranaclient.New(hranaclient.Config{URL: f.srv.URL, AuthToken: f.srv.AuthToken, Namespace: ns})
	if err != nil {
		t.Fatal(err)
	}
	f.store, err = coord.Open(ctx, f.client, coord.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := f.store.Close(ctx); err != nil {
			t.Error(err)
		}
		if err := admin.Delete(ctx, ns); err != nil && !f.srv.External {
			t.Logf("delete namespace %s: %v", ns, err)
		}
	})
	f.reg = membership.NewRegistry(f.store, nil)
	for i := range n {
		a := newApp(t, "m"+string(rune('1'+i)))
		f.apps = append(f.apps, a)
		f.setState(a, membership.StateReady)
	}
	return f
}

// setState writes a's member record in state st.
func (f *fleet) setState(a *app, st membership.State) {
	f.t.Helper()
	m := membership.Member{ID: a.id, State: st, Internal: a.addr(), Started: time.Now(), Heartbeat: time.Now()}
	if err := f.reg.Put(ctxFor(f.t), m, time.Minute); err != nil {
		f.t.Fatal(err)
	}
}

// config is the dwk.json of replica m1 of the fleet.
func (f *fleet) config() *config.Config {
	c := &config.Config{
		Fleet:  config.Fleet{Name: f.name, Member: f.apps[0].id, Secret: config.Literal(testSecret)},
		Listen: config.Listen{Public: "127.0.0.1:0", Internal: f.apps[0].addr()},
		Storage: config.Storage{Mode: config.ModeCentral, LibSQL: &config.LibSQL{
			URL: f.srv.URL, AdminURL: f.srv.AdminURL, AuthToken: config.Literal(f.srv.AuthToken),
		}},
		Affinity: config.Affinity{Rules: []config.AffinityRule{
			{Namespace: "Counter", Path: "/counter/{name}/..."},
			{Namespace: "ChatRoom", Path: "/chat/rooms/{name}/..."},
			{Namespace: "ChatRoom", Header: "X-Chat-Room"},
		}},
		Drain: config.Drain{Timeout: config.Duration(5 * time.Second)},
	}
	c.ApplyDefaults()
	return c
}

// startFrontDoor runs the front door of replica m1 until the test ends and
// waits until it routes to every member.
func (f *fleet) startFrontDoor(o frontdoor.Options) string {
	f.t.Helper()
	fd, err := frontdoor.StartOptions(ctxFor(f.t), f.config(), o)
	if err != nil {
		f.t.Fatal(err)
	}
	f.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if err := fd.Stop(ctx); err != nil {
			f.t.Error(err)
		}
	})
	base := "http://" + fd.Addr().String()
	wait.Within(f.t, 30*time.Second, "the front door to route", func() bool {
		r, err := f.get(base + "/hello")
		return err == nil && r.status == http.StatusOK
	})
	return base
}

// app is one replica's app server: it answers with its member id, the
// object id the front door sent and the request body; while draining it
// answers front-door requests with a retry answer.
type app struct {
	id       string
	srv      *httptest.Server
	served   atomic.Int64
	retries  atomic.Int64
	draining atomic.Bool

	mu         sync.Mutex
	lastRetry  time.Time
	lastServed time.Time
}

// reply is what an app answers.
type reply struct {
	Member   string `json:"member"`
	ObjectID string `json:"object_id"`
	Body     string `json:"body"`
	status   int
}

func newApp(t testing.TB, id string) *app {
	a := &app{id: id}
	up := websocket.Upgrader{}
	a.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if a.draining.Load() {
			a.mu.Lock()
			a.lastRetry = time.Now()
			a.mu.Unlock()
			a.retries.Add(1)
			protocol.WriteRetry(w)
			return
		}
		a.served.Add(1)
		a.mu.Lock()
		a.lastServed = time.Now()
		a.mu.Unlock()
		w.Header().Set(protocol.MemberHeader, a.id)
		if websocket.IsWebSocketUpgrade(r) {
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			for {
				mt, msg, err := c.ReadMessage()
				if err != nil {
					return
				}
				if err := c.WriteMessage(mt, append([]byte(a.id+":"), msg...)); err != nil {
					return
				}
			}
		}
		body, _ := io.ReadAll(r.Body)
		json.NewEncoder(w).Encode(reply{Member: a.id, ObjectID: r.Header.Get(protocol.ObjectIDHeader), Body: string(body)})
	}))
	t.Cleanup(a.srv.Close)
	return a
}

func (a *app) addr() string { return a.srv.Listener.Addr().String() }

func (a *app) lastRetryAt() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastRetry
}

func (a *app) lastServedAt() time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.lastServed
}

// newClient has enough idle connections for the tests' concurrency.
func newClient() *http.Client {
	return &http.Client{Timeout: 10 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: 64}}
}

func (f *fleet) get(url string) (reply, error) { return f.do(http.MethodGet, url, "", nil) }

func (f *fleet) do(method, url, body string, h http.Header) (reply, error) {
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		return reply{}, err
	}
	for k, v := range h {
		req.Header[k] = v
	}
	res, err := f.http.Do(req)
	if err != nil {
		return reply{}, err
	}
	defer res.Body.Close()
	var r reply
	b, _ := io.ReadAll(res.Body)
	json.Unmarshal(b, &r)
	r.status = res.StatusCode
	if r.Member == "" {
		r.Body = string(b)
	}
	return r, nil
}

func ctxFor(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	t.Cleanup(cancel)
	return ctx
}
