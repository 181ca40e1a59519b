package soak

import (
	"errors"
	"github.com/dwk/fleet/test/lbclient"
	"sort"
	"sync"
	"time"
)

// Op is a kind of client operation.
type Op string

// The operations the load sends.
const (
	OpIncrement Op = "counter increment"
	OpRead      Op = "counter read"
	OpMessage   Op = "chat message (D1 + queue)"
	OpPut       Op = "R2 put (attachment)"
	OpGet       Op = "R2 get"
	OpAlarm     Op = "alarm set"
	OpSocket    Op = "WebSocket connect"
)

// Ops lists every operation in the order reports show them.
var Ops = []Op{OpIncrement, OpRead, OpMessage, OpPut, OpGet, OpAlarm, OpSocket}

// opCount is what happened to one kind of operation.
type opCount struct {
	Attempted, Acked int64
	Failed           map[Fault]int64
}

// attachment is an acknowledged R2 put and the bytes it stored.
type attachment struct {
	URL  string
	Body []byte
}

// Ledger records every operation the load sent and its outcome: what the
// fleet acknowledged is what the invariants hold it to.
type Ledger struct {
	tl *Timeline

	mu          sync.Mutex
	ops         map[Op]*opCount
	counters    map[string]*counterLedger
	messages    map[int64]bool
	attachments []attachment
	alarms      map[string]time.Time
	samples     map[Fault][]string
	// byWindow counts failures by the fault window blamed (its index in
	// the timeline; -1: no fault active).
	byWindow map[int]int64
	// requests is the longest request, answered or not, per fault kind
	// blamed for its span.
	requests longest
	// closed holds each fault kind's closed-loop client figures.
	closed map[Fault]closedLoop
}

// counterLedger bounds a counter's value: every acknowledged increment
// must have landed, and only those plus the ones whose outcome the client
// never learned may have. Sent and AckedAt, the send time of every
// increment and the answer time of every acknowledged one, measure how
// long it could not be incremented (see unavailable).
type counterLedger struct {
	Acked, Unknown int64
	Sent, AckedAt  []time.Time
}

// NewLedger returns an empty ledger that blames failures on tl.
func NewLedger(tl *Timeline) *Ledger {
	l := &Ledger{tl: tl, ops: map[Op]*opCount{}, counters: map[string]*counterLedger{},
		messages: map[int64]bool{}, alarms: map[string]time.Time{}, samples: map[Fault][]string{}, byWindow: map[int]int64{},
		requests: longest{}, closed: map[Fault]closedLoop{}}
	for _, op := range Ops {
		l.ops[op] = &opCount{Failed: map[Fault]int64{}}
	}
	return l
}

// record counts one operation sent at start that ended now; err is its
// failure or nil.
func (l *Ledger) record(op Op, start time.Time, err error) {
	l.recordAt(op, start, time.Now(), err)
}

// recordAt counts one operation sent at start that ended at end.
func (l *Ledger) recordAt(op Op, start, end time.Time, err error) {
	f, w := l.tl.blameWindow(start, end)
	l.mu.Lock()
	defer l.mu.Unlock()
	l.requests.note(f, requestSpan(op, start, end, err))
	c := l.ops[op]
	c.Attempted++
	if err == nil {
		c.Acked++
		return
	}
	c.Failed[f]++
	l.byWindow[w]++
	if len(l.samples[f]) < 5 {
		l.samples[f] = append(l.samples[f], string(op)+": "+firstLine(err.Error()))
	}
}

// Increment records an increment of counter name sent at start that
// ended now.
func (l *Ledger) Increment(name string, start time.Time, err error) {
	l.incrementAt(name, start, time.Now(), err)
}

// incrementAt records an increment of counter name sent at start that
// ended at end.
func (l *Ledger) incrementAt(name string, start, end time.Time, err error) {
	l.recordAt(OpIncrement, start, end, err)
	l.mu.Lock()
	defer l.mu.Unlock()
	c := l.counters[name]
	if c == nil {
		c = &counterLedger{}
		l.counters[name] = c
	}
	c.Sent = append(c.Sent, start)
	var re *lbclient.RequestError
	switch {
	case err == nil:
		c.Acked++
		c.AckedAt = append(c.AckedAt, end)
	case errors.As(err, &re) && !re.Sent:
		// Refused everywhere: it cannot have landed.
	default:
		c.Unknown++
	}
}

// Message records an acknowledged chat message id.
func (l *Ledger) Message(id int64) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.messages[id] = true
}

// Attachment records an acknowledged R2 put.
func (l *Ledger) Attachment(a attachment) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.attachments = append(l.attachments, a)
}

// Alarm records an acknowledged alarm on counter name, due at due.
func (l *Ledger) Alarm(name string, due time.Time) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.alarms[name] = due
}

// randomAttachment returns an acknowledged attachment, if any.
func (l *Ledger) randomAttachment(i int) (attachment, bool) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.attachments) == 0 {
		return attachment{}, false
	}
	return l.attachments[i%len(l.attachments)], true
}

// snapshot copies what the invariants check.
func (l *Ledger) snapshot() (counters map[string]counterLedger, messages map[int64]bool, atts []attachment, alarms []string) {
	l.mu.Lock()
	defer l.mu.Unlock()
	counters = map[string]counterLedger{}
	for k, v := range l.counters {
		counters[k] = *v
	}
	messages = map[int64]bool{}
	for k := range l.messages {
		messages[k] = true
	}
	for k := range l.alarms {
		alarms = append(alarms, k)
	}
	sort.Strings(alarms)
	return counters, messages, append([]attachment(nil), l.attachments...), alarms
}

// longestRequests returns a copy of the longest request per fault kind.
func (l *Ledger) longestRequests() longest {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.requests.clone()
}

// failedByWindow returns the failures per fault window (index in the
// timeline; -1: none active).
func (l *Ledger) failedByWindow() map[int]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make(map[int]int64, len(l.byWindow))
	for k, v := range l.byWindow {
		out[k] = v
	}
	return out
}

// failedBy returns the failures per fault, summed over operations.
func (l *Ledger) failedBy() map[Fault]int64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := map[Fault]int64{}
	for _, c := range l.ops {
		for f, n := range c.Failed {
			out[f] += n
		}
	}
	return out
}

func firstLine(s string) string {
	for i, r := range s {
		if r == '\n' {
			return s[:i]
		}
	}
	return s
}
