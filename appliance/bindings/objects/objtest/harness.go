package objtest

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// harness is one test's runtime, probe and namespaces.
type harness struct {
	t      *testing.T
	open   Opener
	opts   Options
	probe  *probe
	rt     Runtime
	ns     worker.ObjectNamespace // ProbeClass, bound as "PROBE"
	other  worker.ObjectNamespace // OtherClass, bound as "OTHER"
	strict worker.ObjectNamespace // StrictClass, bound as "STRICT"
}

// defaultOptions are quick enough for tests and slow enough not to evict
// objects in the middle of a test.
func defaultOptions() Options {
	return Options{
		IdleTimeout:       time.Minute,
		AlarmPollInterval: 20 * time.Millisecond,
		AlarmRetryBase:    10 * time.Millisecond,
	}
}

func newHarness(t *testing.T, newStore func(*testing.T) Opener, tweak func(*Options)) *harness {
	t.Helper()
	p := newProbe(t)
	opts := defaultOptions()
	if tweak != nil {
		tweak(&opts)
	}
	opts.Env = func(class string) *worker.Env {
		return worker.NewEnv("objtest", worker.Bindings{Vars: map[string]string{probeVar: p.key}})
	}
	h := &harness{t: t, open: newStore(t), opts: opts, probe: p}
	h.start()
	return h
}

// start opens a runtime and binds the namespaces.
func (h *harness) start() {
	t := h.t
	t.Helper()
	rt := h.open(t, h.opts)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		rt.Close(ctx)
	})
	ns, err := rt.Namespace("PROBE", ProbeClass)
	if err != nil {
		t.Fatalf("bind %s: %v", ProbeClass, err)
	}
	other, err := rt.Namespace("OTHER", OtherClass)
	if err != nil {
		t.Fatalf("bind %s: %v", OtherClass, err)
	}
	strict, err := rt.Namespace("STRICT", StrictClass)
	if err != nil {
		t.Fatalf("bind %s: %v", StrictClass, err)
	}
	h.rt, h.ns, h.other, h.strict = rt, ns, other, strict
}

// restart closes the runtime and opens a new one over the same store.
func (h *harness) restart() {
	h.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := h.rt.Close(ctx); err != nil {
		h.t.Fatalf("close runtime: %v", err)
	}
	h.start()
}

// stub returns the stub of the probe object called name.
func (h *harness) stub(name string) worker.Stub { return h.ns.Get(h.ns.IDFromName(name)) }

// call runs fn inside the object behind s, in its turn, through Stub.Fetch.
func (h *harness) call(s worker.Stub, fn func(ctx context.Context, o *probeObject) error) error {
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	return h.callFrom(ctx, s, fn)
}

// callFrom is call with the caller's context: from inside an object's
// event, the event's.
func (h *harness) callFrom(ctx context.Context, s worker.Stub, fn func(ctx context.Context, o *probeObject) error) error {
	id := h.probe.addCall(fn)
	req, err := http.NewRequest(http.MethodPost, "http://object/call/"+strconv.FormatInt(id, 10), nil)
	if err != nil {
		return err
	}
	resp, err := s.Fetch(ctx, req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("object answered %d: %s", resp.StatusCode, strings.TrimSpace(string(body)))
	}
	return nil
}

// mustCall is call that fails the test on error.
func (h *harness) mustCall(s worker.Stub, fn func(ctx context.Context, o *probeObject) error) {
	h.t.Helper()
	if err := h.call(s, fn); err != nil {
		h.t.Fatal(err)
	}
}

// probe connects one test to the objects it runs: the code they execute
// and what they observed. It is found through an Env var.
type probe struct {
	key string

	constructed atomic.Int32
	// hibernatable is what the probe's Hibernatable answers.
	hibernatable atomic.Bool
	// onConstruct runs in the constructor when set.
	onConstruct func(o *probeObject)

	mu      sync.Mutex
	nextID  int64
	calls   map[int64]func(ctx context.Context, o *probeObject) error
	alarm   func(ctx context.Context, o *probeObject, info worker.AlarmInfo) error
	message func(ctx context.Context, o *probeObject, ws *worker.WebSocket, mt int, data []byte)
	closed  chan closeEvent
}

type closeEvent struct {
	tags   []string
	code   int
	reason string
}

const probeVar = "OBJTEST_PROBE"

var (
	probesMu sync.Mutex
	probes   = map[string]*probe{}
	probeSeq int
)

func newProbe(t *testing.T) *probe {
	probesMu.Lock()
	defer probesMu.Unlock()
	probeSeq++
	p := &probe{
		key:    fmt.Sprintf("%s#%d", t.Name(), probeSeq),
		calls:  map[int64]func(context.Context, *probeObject) error{},
		closed: make(chan closeEvent, 100),
	}
	probes[p.key] = p
	t.Cleanup(func() {
		probesMu.Lock()
		delete(probes, p.key)
		probesMu.Unlock()
	})
	return p
}

func lookupProbe(key string) *probe {
	probesMu.Lock()
	defer probesMu.Unlock()
	return probes[key]
}

func (p *probe) addCall(fn func(context.Context, *probeObject) error) int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.nextID++
	p.calls[p.nextID] = fn
	return p.nextID
}

func (p *probe) takeCall(id int64) func(context.Context, *probeObject) error {
	p.mu.Lock()
	defer p.mu.Unlock()
	fn := p.calls[id]
	delete(p.calls, id)
	return fn
}

func (p *probe) setAlarm(fn func(ctx context.Context, o *probeObject, info worker.AlarmInfo) error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.alarm = fn
}

func (p *probe) setMessage(fn func(ctx context.Context, o *probeObject, ws *worker.WebSocket, mt int, data []byte)) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.message = fn
}
