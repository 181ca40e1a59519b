package partition

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/dwk/fleet/test/fleettest"
)

// clientTimeout is when a client gives up. It is past hangBound so that a
// request that hangs is measured as such, not cut off at the bound.
const clientTimeout = hangBound + 5*time.Second

// impatient is the timeout of the client that measures availability: it
// gives up and tries again as a user would (issue 16 measured the
// unavailability it reports with a 3s client timeout).
const impatient = 3 * time.Second

// pace is the least time between the starts of two requests of one
// client: enough load to see a gap of a tenth of a second, little enough
// for two cores.
const pace = 50 * time.Millisecond

// request is one request a client sent and what became of it.
type request struct {
	what    string // method, front door and path
	timeout time.Duration
	start   time.Time
	took    time.Duration
	status  int // 0 when no answer came
	err     error
}

// ack is an acknowledged increment.
type ack struct {
	sent, at time.Time
	member   string
}

// counter is the clients' ledger of one counter object: what the fleet
// acknowledged is what the checks hold it to.
type counter struct {
	name string

	mu sync.Mutex
	// acked counts acknowledged increments; unknown counts the others
	// whose connection opened, error answers included: the client cannot
	// rule out that any of them landed.
	acked, unknown int64
	values         map[int64]string // value an acknowledged increment returned → member
	acks           []ack
	reads          int
	violations     []string
}

func (c *counter) violate(format string, args ...any) {
	c.violations = append(c.violations, fmt.Sprintf(format, args...))
}

func (c *counter) ackedNow() int64 {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.acked
}

// acksSince counts acknowledged increments sent at or after from, and
// those served by a member other than not.
func (c *counter) acksSince(from time.Time, not string) (all, elsewhere int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, a := range c.acks {
		if !a.sent.Before(from) {
			all++
			if a.member != not {
				elsewhere++
			}
		}
	}
	return all, elsewhere
}

// gap is the longest time between two acknowledged increments of the
// counter (by the time their answers came): how long a client that kept
// writing could not. from and to are the acknowledgements around it.
type gap struct {
	d        time.Duration
	from, to ack
}

func (c *counter) longestGap() gap {
	c.mu.Lock()
	defer c.mu.Unlock()
	var g gap
	for i := 1; i < len(c.acks); i++ {
		if d := c.acks[i].at.Sub(c.acks[i-1].at); d > g.d {
			g = gap{d: d, from: c.acks[i-1], to: c.acks[i]}
		}
	}
	return g
}

// load is the clients of one case: for each counter, writers and a
// reader, round robin over the front doors they are given.
type load struct {
	tr       *http.Transport
	counters []*counter
	stop     chan struct{}
	wg       sync.WaitGroup

	mu       sync.Mutex
	requests []request
}

func newLoad(names ...string) *load {
	tr := http.DefaultTransport.(*http.Transport).Clone()
	tr.MaxIdleConnsPerHost = 32
	l := &load{tr: tr, stop: make(chan struct{})}
	for _, n := range names {
		l.counters = append(l.counters, &counter{name: n, values: map[int64]string{}})
	}
	return l
}

// start runs clients until finish: on each counter, one client per
// timeout that increments, and one that reads (with clientTimeout), each
// through doors round robin.
func (l *load) start(doors []*fleettest.Replica, timeouts ...time.Duration) {
	for _, c := range l.counters {
		for k, timeout := range timeouts {
			l.loop(doors, k, func(d *fleettest.Replica) { l.increment(c, d, timeout) })
		}
		l.loop(doors, len(timeouts), func(d *fleettest.Replica) { l.read(c, d, clientTimeout) })
	}
}

func (l *load) loop(doors []*fleettest.Replica, k int, fn func(*fleettest.Replica)) {
	l.wg.Add(1)
	go func() {
		defer l.wg.Done()
		for i := k; ; i++ {
			next := time.After(pace)
			select {
			case <-l.stop:
				return
			default:
			}
			fn(doors[i%len(doors)])
			select {
			case <-l.stop:
				return
			case <-next:
			}
		}
	}()
}

// finish stops the clients and waits for every request to come back,
// which clientTimeout bounds.
func (l *load) finish() {
	select {
	case <-l.stop:
	default:
		close(l.stop)
	}
	l.wg.Wait()
}

// do sends one request, bounded by timeout, and decodes a 200 answer
// into out; any other answer is an error. It returns the member that
// answered.
func (l *load) do(method string, door *fleettest.Replica, path string, timeout time.Duration, out any) (string, error) {
	r := request{what: method + " " + door.Member + " " + path, timeout: timeout, start: time.Now()}
	member, err := func() (string, error) {
		req, err := http.NewRequest(method, door.Public+path, nil)
		if err != nil {
			return "", err
		}
		resp, err := (&http.Client{Timeout: timeout, Transport: l.tr}).Do(req)
		if err != nil {
			return "", err
		}
		defer resp.Body.Close()
		r.status = resp.StatusCode
		b, err := io.ReadAll(resp.Body)
		if err != nil {
			return "", err
		}
		member := resp.Header.Get("X-Dwk-Member")
		if resp.StatusCode != http.StatusOK {
			return member, fmt.Errorf("%s (member %q, Retry-After %q): %.200s", resp.Status, member, resp.Header.Get("Retry-After"), strings.TrimSpace(string(b)))
		}
		return member, json.Unmarshal(b, out)
	}()
	r.took, r.err = time.Since(r.start), err
	l.mu.Lock()
	l.requests = append(l.requests, r)
	l.mu.Unlock()
	return member, err
}

// increment adds one to c. An acknowledged increment must return a value
// above every increment acknowledged before it was sent, and no other
// acknowledged increment may return the same value.
func (l *load) increment(c *counter, door *fleettest.Replica, timeout time.Duration) {
	before := c.ackedNow()
	sent := time.Now()
	var got struct{ Value int64 }
	member, err := l.do("POST", door, "/counter/"+c.name+"/increment", timeout, &got)
	c.mu.Lock()
	defer c.mu.Unlock()
	if err != nil {
		if !unsent(err) {
			c.unknown++
		}
		return
	}
	c.acked++
	c.acks = append(c.acks, ack{sent: sent, at: time.Now(), member: member})
	if got.Value <= before {
		c.violate("an increment served by %s returned %d, but %d increments were acknowledged before it was sent: a stale copy", member, got.Value, before)
	}
	if other, dup := c.values[got.Value]; dup {
		c.violate("two acknowledged increments returned %d (served by %s and %s): one of them is lost", got.Value, other, member)
	}
	c.values[got.Value] = member
}

// read must see every increment acknowledged before it was sent.
func (l *load) read(c *counter, door *fleettest.Replica, timeout time.Duration) {
	before := c.ackedNow()
	var got struct{ Value int64 }
	member, err := l.do("GET", door, "/counter/"+c.name, timeout, &got)
	if err != nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.reads++
	if got.Value < before {
		c.violate("a read served by %s returned %d, but %d increments were acknowledged before it was sent: a stale copy", member, got.Value, before)
	}
}

// unsent reports whether a request failed before its connection opened,
// so it cannot have had an effect.
func unsent(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial"
}
