package objcentral_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// counterClass is the object class of the fleet tests: a counter in SQL
// storage with an alarm and a WebSocket echo.
const counterClass = "objcentral_test.Counter"

func init() { worker.RegisterObject(counterClass, newCounter) }

// Env vars every replica gives the class.
const (
	varReplica = "REPLICA" // the replica's name
	varProbe   = "PROBE"   // key of the test's probe in probes
)

// probe collects what the objects of one test observed.
type probe struct {
	mu    sync.Mutex
	fired map[string][]string // object name → replicas its alarm ran on
}

var probes sync.Map // string → *probe

func newTestProbe(key string) *probe {
	p := &probe{fired: map[string][]string{}}
	probes.Store(key, p)
	return p
}

func (p *probe) alarmRuns(name string) []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.fired[name]...)
}

type counter struct {
	state   *worker.State
	env     *worker.Env
	replica string
	probe   *probe
}

var (
	_ worker.Alarmer                 = (*counter)(nil)
	_ worker.WebSocketMessageHandler = (*counter)(nil)
)

func newCounter(state *worker.State, env *worker.Env) worker.Object {
	c := &counter{state: state, env: env}
	c.replica, _ = env.Var(varReplica)
	if key, ok := env.Var(varProbe); ok {
		if p, ok := probes.Load(key); ok {
			c.probe = p.(*probe)
		}
	}
	return c
}

// Fetch serves:
//
//	POST /inc          read, then write n+1 (two statements); answers n+1
//	GET  /get          answers n
//	GET  /whoami       answers replica, object name, path, query and Authorization
//	POST /alarm?ms=N   sets the alarm N ms from now
//	GET  /ws           accepts a WebSocket that echoes "<replica>:<message>"
//	POST /bounce?to=B  increments, calls B's /back?to=<itself> through the
//	                   COUNTER binding, and answers "<its n after>|<B's answer>"
//	POST /back?to=A    increments, and answers A's /inc (a call back into A)
func (c *counter) Fetch(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	s := c.state.Storage
	switch {
	case r.URL.Path == "/bounce" || r.URL.Path == "/back":
		c.relay(w, r)
	case r.URL.Path == "/inc":
		n, err := c.read(ctx)
		if err == nil {
			_, err = s.Exec(ctx, "INSERT INTO c (k, n) VALUES (0, ?) ON CONFLICT (k) DO UPDATE SET n = excluded.n", n+1)
		}
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, n+1)
	case r.URL.Path == "/get":
		n, err := c.read(ctx)
		if err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, n)
	case strings.HasPrefix(r.URL.Path, "/whoami"):
		fmt.Fprintf(w, "%s|%s|%s|%s|%s", c.replica, c.state.ID.Name(), r.URL.Path, r.URL.RawQuery, r.Header.Get("Authorization"))
	case r.URL.Path == "/alarm":
		ms, _ := strconv.Atoi(r.URL.Query().Get("ms"))
		at := time.Now().Add(time.Duration(ms) * time.Millisecond)
		if err := s.SetAlarm(ctx, at); err != nil {
			http.Error(w, err.Error(), http.StatusServiceUnavailable)
		}
	case r.URL.Path == "/ws":
		c.state.AcceptWebSocket(w, r)
	default:
		http.NotFound(w, r)
	}
}

// read returns the counter, creating its table on first use.
// relay serves /bounce and /back.
func (c *counter) relay(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	to := r.URL.Query().Get("to")
	n, err := c.read(ctx)
	if err == nil {
		_, err = c.state.Storage.Exec(ctx, "INSERT INTO c (k, n) VALUES (0, ?) ON CONFLICT (k) DO UPDATE SET n = excluded.n", n+1)
	}
	if err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	path := "/inc"
	if r.URL.Path == "/bounce" {
		path = "/back?to=" + c.state.ID.Name()
	}
	ns := c.env.Object("COUNTER")
	req, _ := http.NewRequest(http.MethodPost, "http://object"+path, nil)
	resp, err := ns.Get(ns.IDFromName(to)).Fetch(ctx, req)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadGateway)
		return
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		http.Error(w, fmt.Sprintf("%s of %s: %d %s", path, to, resp.StatusCode, body), http.StatusBadGateway)
		return
	}
	if r.URL.Path == "/back" {
		w.Write(body)
		return
	}
	if n, err = c.read(ctx); err != nil {
		http.Error(w, err.Error(), http.StatusServiceUnavailable)
		return
	}
	fmt.Fprintf(w, "%d|%s", n, body)
}

func (c *counter) read(ctx context.Context) (int64, error) {
	s := c.state.Storage
	if _, err := s.Exec(ctx, "CREATE TABLE IF NOT EXISTS c (k INTEGER PRIMARY KEY, n INTEGER NOT NULL)"); err != nil {
		return 0, err
	}
	cur, err := s.Exec(ctx, "SELECT n FROM c WHERE k = 0")
	if err != nil {
		return 0, err
	}
	if cur.Next() {
		return cur.Row()[0].(int64), nil
	}
	return 0, nil
}

// Alarm records which replica ran it.
func (c *counter) Alarm(ctx context.Context, info worker.AlarmInfo) error {
	if c.probe != nil {
		c.probe.mu.Lock()
		c.probe.fired[c.state.ID.Name()] = append(c.probe.fired[c.state.ID.Name()], c.replica)
		c.probe.mu.Unlock()
	}
	return nil
}

// WebSocketMessage echoes with the replica's name.
func (c *counter) WebSocketMessage(ctx context.Context, ws *worker.WebSocket, mt int, data []byte) {
	ws.Send(worker.TextMessage, []byte(c.replica+":"+string(data)))
}

// Methods offers the counter's get as an RPC method, for the benchmark
// of calls against fetches.
func (c *counter) Methods() worker.Methods {
	return worker.Methods{"Get": worker.Typed(func(ctx context.Context, _ struct{}) (int64, error) { return c.read(ctx) })}
}
