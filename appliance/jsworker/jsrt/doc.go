// Package jsrt runs JavaScript for dwk's Workers runtime on goja, a pure-Go
// engine: isolates, each a goja runtime with an event loop of its own; the
// bridge between JavaScript promises and Go goroutines; timers, console and
// async context; the per-event CPU limit; and the prelude that installs the
// Web APIs from Extensions.
//
// # Isolates and the loop
//
// A goja runtime may be used by one goroutine at a time, so each Isolate
// owns a goroutine, its loop, that runs every piece of JavaScript of that
// isolate: the prelude, the bundle, handler calls, promise reactions,
// timers. Other goroutines post jobs to the loop and wait for results. A
// job runs as one top-level call, after which goja drains the promise jobs
// it queued.
//
// # Events
//
// An Event is one invocation of the application (a request, a cron tick, a
// queue batch, an object's alarm or message). It carries the Go context that
// host calls made on its behalf run with, and the CPU time its JavaScript
// has used. JavaScript continuations keep the event they were created in:
// goja's AsyncContextTracker carries a frame (the event plus the
// AsyncLocalStorage values) across every await and promise reaction, and
// timers capture it when they are set.
//
// Call starts JavaScript for an event and waits until the value it returns
// (or the promise it returns) settles, converting the result on the loop.
// Go work that JavaScript starts (Async) runs on its own goroutine with the
// event's context and settles a promise on the loop when it is done.
//
// # Limits
//
// A job that runs longer than its event's remaining CPU budget is
// interrupted: the event fails with ErrCPULimit and the isolate carries on.
// CPU time here is the time the loop spends running the event's jobs,
// including synchronous host calls made from them.
//
// # Extensions
//
// The Web APIs are Extensions: Go natives installed on a host object, and a
// prelude source run once per isolate with (host, internal, global). The
// prelude of every extension is compiled once per process and shared.
package jsrt
