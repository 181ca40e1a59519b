package streams

import (
	"context"
	"runtime"
	"syscall"
	"testing"
	"time"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// chunks is how many chunks each benchmark operation moves.
const chunks = 1000

// benchSetup defines the benchmarks' functions; each moves 1,000 chunks
// of 64 bytes (or 64-character strings) and checks what arrived.
const benchSetup = `
const N = 1000;
const bytes = new Uint8Array(64).fill(7);
const text = "x".repeat(64);
// source is a stream whose pull enqueues one chunk (the usual source).
function source(chunk) {
  let n = 0;
  return new ReadableStream({ pull(c) { if (n++ < N) c.enqueue(chunk); else c.close(); } });
}
function sink() {
  const s = { count: 0 };
  s.stream = new WritableStream({ write() { s.count++; } });
  return s;
}
function check(n) { if (n !== N) throw new Error("moved " + n + " chunks, not " + N); }
global.benchPipeBytes = async () => { const s = sink(); await source(bytes).pipeTo(s.stream); check(s.count); };
global.benchPipeText = async () => { const s = sink(); await source(text).pipeTo(s.stream); check(s.count); };
global.benchReadLoop = async () => {
  const r = source(bytes).getReader();
  let n = 0;
  for (;;) { const { done } = await r.read(); if (done) break; n++; }
  check(n);
};
global.benchIterate = async () => {
  const it = source(text).values();
  let n = 0;
  for (;;) { const { done } = await it.next(); if (done) break; n++; }
  check(n);
};
global.benchReadAll = async () => { const u8 = await internal.readAllBytes(source(bytes)); check(u8.length / 64); };
global.benchGoBody = async () => {
  const b = goBody.apply(null, [Array(N).fill(text)]);
  const u8 = await internal.readAllBytes(internal.pullStream(b.pull, b.cancel));
  check(u8.length / 64);
};
// benchResponse is the usual streamed response: the app writes to a
// TransformStream's writable side, awaiting each write, while the
// runtime drains the readable side with a chunk reader.
global.benchResponse = async () => {
  const { readable, writable } = new TransformStream();
  const w = writable.getWriter();
  const producing = (async () => { for (let i = 0; i < N; i++) await w.write(text); await w.close(); })();
  const cr = internal.chunkReader(readable);
  let n = 0;
  for (;;) {
    let c = cr.next();
    if (c !== null && typeof c === "object" && typeof c.then === "function") c = await c;
    if (c === null) break;
    n++;
  }
  await producing;
  check(n);
};
global.benchTransform = async () => {
  const s = sink();
  await source(text).pipeThrough(new TransformStream({ transform(c, ctl) { ctl.enqueue(c); } })).pipeTo(s.stream);
  check(s.count);
};
`

func BenchmarkStreams(b *testing.B) {
	for _, bm := range []struct{ name, fn string }{
		{"Pipe1000Bytes", "benchPipeBytes"},
		{"Pipe1000Strings", "benchPipeText"},
		{"ReadLoop1000", "benchReadLoop"},
		{"AsyncIterator1000", "benchIterate"},
		{"ReadAllBytes1000", "benchReadAll"},
		{"GoBodyReadAll1000", "benchGoBody"},
		{"PipeThroughTransform1000", "benchTransform"},
		{"TransformStreamResponse1000", "benchResponse"},
	} {
		b.Run(bm.name, func(b *testing.B) { benchFunction(b, bm.fn) })
	}
}

// benchFunction calls the global function fn once per operation and
// reports the cost per chunk as well.
func benchFunction(b *testing.B, fn string) {
	iso := jsrttest.New(b, Extension, jsrt.Extension{
		Name:    "bench",
		Install: installTestNatives,
		JS:      "const goBody = host.streamstest.body;\n" + benchSetup,
	})
	var call goja.Callable
	if err := iso.Do(context.Background(), func(rt *goja.Runtime) error {
		var ok bool
		call, ok = goja.AssertFunction(rt.Get(fn))
		if !ok {
			b.Fatalf("no function %s", fn)
		}
		return nil
	}); err != nil {
		b.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	cpu0 := cpuTime(b)
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		ev := iso.NewEvent(context.Background())
		_, err := jsrt.Call(ev, jsrt.CallOptions{MayWaitForever: true}, func(rt *goja.Runtime) (goja.Value, error) {
			return call(goja.Undefined())
		}, func(*goja.Runtime, goja.Value) (struct{}, error) { return struct{}{}, nil })
		ev.End()
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	cpu := cpuTime(b) - cpu0
	runtime.ReadMemStats(&after)
	n := float64(b.N * chunks)
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/n, "ns/chunk")
	b.ReportMetric(float64(cpu.Nanoseconds())/n, "cpu-ns/chunk")
	b.ReportMetric(float64(after.Mallocs-before.Mallocs)/n, "allocs/chunk")
}

// cpuTime is the CPU time the process has used: on a shared machine a
// steadier measure than the wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
