package jsbind_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuelocal"
	"github.com/dwk/fleet/appliance/jsworker/jsbind"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// clock is a settable clock for the broker.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// newQueue is an isolate whose global Q is the producer of the queue
// "jobs" on a local broker, and whose global decodeBody is the consumer
// glue's, read from ../cloudflare.js, so that the two are tested against
// each other.
func newQueue(t *testing.T) (*jsrt.Isolate, *queuelocal.Broker, *clock) {
	t.Helper()
	clk := &clock{now: time.UnixMilli(1_700_000_000_000)}
	b, err := queuelocal.Open(context.Background(), filepath.Join(t.TempDir(), "queues.db"), queuelocal.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	p, err := queue.NewProducer(b, "jobs")
	if err != nil {
		t.Fatal(err)
	}
	iso := newIsolate(t)
	setGlobal(t, iso, "Q", func() goja.Value { return jsbind.Queue(iso, p) })
	setGlobal(t, iso, "internal", func() goja.Value { return iso.Internal() })
	jsrttest.MustEval(t, iso, "globalThis.decodeBody = (() => {\n"+consumerDecode(t)+"\nreturn decodeBody;\n})();")
	jsrttest.MustEval(t, iso, `globalThis.show = (v) =>
		v instanceof ArrayBuffer ? ["ArrayBuffer", Array.from(new Uint8Array(v))] :
		v instanceof Map ? ["Map", [...v].map(show)] :
		v instanceof Date ? ["Date", v.toISOString()] :
		Array.isArray(v) ? v.map(show) :
		v !== null && typeof v === "object" ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, show(x)])) : v;`)
	return iso, b, clk
}

// consumerDecode is the source of decodeBody in the consumer glue.
func consumerDecode(t *testing.T) string {
	t.Helper()
	src, err := os.ReadFile(filepath.Join("..", "cloudflare.js"))
	if err != nil {
		t.Fatal(err)
	}
	s := string(src)
	i := strings.Index(s, "function decodeBody(")
	if i < 0 {
		t.Fatal("cloudflare.js has no function decodeBody")
	}
	n := strings.Index(s[i:], "\n}\n")
	if n < 0 {
		t.Fatal("cloudflare.js: decodeBody does not end with a line of its own")
	}
	return s[i : i+n+2]
}

// delivered claims the visible messages of "jobs" and returns, as JSON,
// [content type, shown body] for each, decoded by the consumer glue.
func delivered(t *testing.T, iso *jsrt.Isolate, b *queuelocal.Broker) string {
	t.Helper()
	ds, err := b.Claim(context.Background(), "jobs", 100, 24*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	setGlobal(t, iso, "deliveries", func() goja.Value {
		rt := iso.Runtime()
		out := make([]any, len(ds))
		for k, d := range ds {
			out[k] = rt.NewArray(iso.NewUint8Array(d.Body), d.ContentType)
		}
		return rt.NewArray(out...)
	})
	return jsrttest.MustEval(t, iso, `return deliveries.map(([body, type]) => [type, show(decodeBody(body, type))]);`)
}

func TestQueueDelivery(t *testing.T) {
	iso, b, clk := newQueue(t)
	jsrttest.MustEval(t, iso, `
		await Q.send("plain");
		await Q.send({a: 1, d: new Date(0), m: new Map([[1, "one"]]), u: undefined});
		await Q.send("hi ✓", {contentType: "text"});
		await Q.send({j: [1, "x"], u: undefined}, {contentType: "json"});
		await Q.send(new Uint8Array([1, 2, 3]), {contentType: "bytes"});
		await Q.send(new Uint8Array([7, 8, 9]).subarray(1).buffer, {contentType: "BYTES"});
		await Q.send(new Uint16Array([258]), {contentType: "bytes"});
		await Q.sendBatch([{body: "b1", contentType: "text"}, {body: {n: 2}}, {body: [3], contentType: "json"}]);
		await Q.sendBatch(new Set([{body: "from a set", contentType: "text"}]));
		await Q.send("later", {contentType: "text", delaySeconds: 60});
		await Q.sendBatch([{body: "later2", contentType: "text"}, {body: "later3", contentType: "text", delaySeconds: 0}], {delaySeconds: 120});`)
	steps := []struct {
		advance time.Duration
		want    string
	}{
		{0, `[["v8","plain"],["v8",{"a":1,"d":["Date","1970-01-01T00:00:00.000Z"],"m":["Map",[[1,"one"]]],"u":null}],` +
			`["text","hi ✓"],["json",{"j":[1,"x"]}],["bytes",["ArrayBuffer",[1,2,3]]],["bytes",["ArrayBuffer",[7,8,9]]],["bytes",["ArrayBuffer",[2,1]]],` +
			`["text","b1"],["v8",{"n":2}],["json",[3]],["text","from a set"],["text","later3"]]`},
		{61 * time.Second, `[["text","later"]]`},
		{60 * time.Second, `[["text","later2"]]`},
		{time.Hour, `[]`},
	}
	for _, s := range steps {
		clk.advance(s.advance)
		if got := delivered(t, iso, b); got != s.want {
			t.Errorf("after %s:\n got %s\nwant %s", s.advance, got, s.want)
		}
	}
}

func TestQueueErrors(t *testing.T) {
	iso, b, _ := newQueue(t)
	run(t, iso, []evalCase{
		{name: "undefined body", js: `await Q.send(undefined)`, wantErr: "TypeError: Message body cannot be undefined"},
		{name: "undefined body in a batch", js: `await Q.sendBatch([{body: "a", contentType: "text"}, {}])`, wantErr: "TypeError: Message body cannot be undefined"},
		{name: "text needs a string", js: `await Q.send(1, {contentType: "text"})`,
			wantErr: `TypeError: Content Type "text" requires a value of type string, but received: number`},
		{name: "bytes needs a buffer", js: `await Q.send("x", {contentType: "bytes"})`,
			wantErr: `TypeError: Content Type "bytes" requires a value of type ArrayBufferView, but received: string`},
		{name: "json needs a value JSON represents", js: `await Q.send(() => 1, {contentType: "json"})`,
			wantErr: `TypeError: Content Type "json" requires a value JSON can represent`},
		{name: "unknown content type", js: `await Q.send(1, {contentType: "xml"})`,
			wantErr: "TypeError: Unsupported queue message content type: xml"},
		{name: "v8 refuses what structuredClone refuses", js: `await Q.send({f() {}})`, wantErr: "DataCloneError"},
		{name: "body over 128 KiB", js: `await Q.send("x".repeat(128 * 1024 + 1), {contentType: "text"})`,
			wantErr: "RangeError: Queue send failed: the message is 131073 bytes encoded; a message holds at most 131072 bytes (128 KiB)"},
		{name: "body over 128 KiB in a batch", js: `await Q.sendBatch([{body: "ok", contentType: "text"}, {body: new Uint8Array(128 * 1024 + 1), contentType: "bytes"}])`,
			wantErr: "RangeError: Queue sendBatch failed: message 1 is 131073 bytes encoded"},
		{name: "a body of exactly 128 KiB", js: `await Q.send(new Uint8Array(128 * 1024), {contentType: "bytes"}); return "sent";`,
			want: `"sent"`},
		{name: "empty batch", js: `await Q.sendBatch([])`, wantErr: "TypeError: sendBatch() requires at least one message"},
		{name: "batch over 100", js: `await Q.sendBatch(Array.from({length: 101}, (_, k) => ({body: k})))`,
			wantErr: "RangeError: Queue sendBatch failed: a batch holds at most 100 messages, not 101"},
		{name: "not iterable", js: `await Q.sendBatch(5)`, wantErr: "TypeError: sendBatch() takes an iterable"},
		{name: "not messages", js: `await Q.sendBatch(["a"])`, wantErr: "TypeError: sendBatch() takes messages of the form"},
		{name: "delay over 12 hours", js: `await Q.send("x", {delaySeconds: 43201})`,
			wantErr: "RangeError: Queue send failed: delaySeconds of the message must be from 0 to 43200 (12 hours), not 43201"},
		{name: "negative delay", js: `await Q.send("x", {delaySeconds: -1})`, wantErr: "RangeError: Queue send failed: delaySeconds"},
		{name: "delay that is not a number", js: `await Q.sendBatch([{body: 1}], {delaySeconds: "soon"})`,
			wantErr: "RangeError: Queue sendBatch failed: delaySeconds of message 0 must be from 0 to 43200 (12 hours), not soon"},
		{name: "string tag", js: `return String(Q);`, want: `"[object WorkerQueue]"`},
	})
	n, err := b.Depth(context.Background(), "jobs")
	if err != nil {
		t.Fatal(err)
	}
	if n != 1 {
		t.Errorf("the queue holds %d messages; want 1 (only the message of exactly 128 KiB)", n)
	}
}
