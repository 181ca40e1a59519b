package jsrt

import (
	_ "embed"
	"log/slog"
	"time"

	"github.com/dop251/goja"
)

//go:embed core.js
var coreJS string

// coreExtension is the part of every isolate's globals that the runtime
// itself provides: timers, console, performance, queueMicrotask and the
// async context AsyncLocalStorage is built on. It runs first.
var coreExtension = Extension{Name: "core", Install: installCore, JS: coreJS}

func installCore(i *Isolate, host *goja.Object) error {
	rt := i.rt
	core := rt.NewObject()
	host.Set("core", core)
	i.installTimers(core)
	start := time.Now()
	core.Set("now", func(goja.FunctionCall) goja.Value {
		return rt.ToValue(float64(time.Since(start).Microseconds()) / 1000)
	})
	core.Set("log", func(c goja.FunctionCall) goja.Value {
		level := slog.LevelInfo
		switch c.Argument(0).String() {
		case "debug":
			level = slog.LevelDebug
		case "warn":
			level = slog.LevelWarn
		case "error":
			level = slog.LevelError
		}
		i.log.Log(i.logContext(), level, c.Argument(1).String(), "source", "console")
		return goja.Undefined()
	})
	// AsyncLocalStorage: als.get(key) and als.run(key, value, fn, this, args).
	core.Set("alsGet", func(c goja.FunctionCall) goja.Value {
		key, ok := c.Argument(0).(*goja.Object)
		if !ok || i.cur == nil {
			return goja.Undefined()
		}
		if v, ok := i.cur.lookup(key); ok {
			return v
		}
		return goja.Undefined()
	})
	core.Set("alsRun", func(c goja.FunctionCall) goja.Value {
		key, ok := c.Argument(0).(*goja.Object)
		fn, fok := goja.AssertFunction(c.Argument(2))
		if !ok || !fok {
			panic(rt.NewTypeError("AsyncLocalStorage.run needs a callback"))
		}
		prev := i.cur
		if prev == nil {
			prev = i.base
		}
		i.cur = &frame{ev: prev.ev, als: &alsEntry{key: key, value: c.Argument(1), next: prev.als}}
		defer func() { i.cur = prev }()
		var args []goja.Value
		if a, ok := c.Argument(4).(*goja.Object); ok {
			rt.ExportTo(a, &args)
		}
		v, err := fn(c.Argument(3), args...)
		if err != nil {
			rethrow(err)
		}
		return v
	})
	// The frame now, and a run in a frame taken earlier:
	// AsyncLocalStorage.snapshot and bind.
	core.Set("capture", func(goja.FunctionCall) goja.Value {
		fr := i.cur
		if fr == nil {
			fr = i.base
		}
		return rt.ToValue(fr)
	})
	core.Set("runIn", func(c goja.FunctionCall) goja.Value {
		fr, ok := c.Argument(0).Export().(*frame)
		fn, fok := goja.AssertFunction(c.Argument(1))
		if !ok || !fok {
			panic(rt.NewTypeError("runIn needs a snapshot and a function"))
		}
		prev := i.cur
		i.cur = fr
		defer func() { i.cur = prev }()
		var args []goja.Value
		if a, ok := c.Argument(3).(*goja.Object); ok {
			rt.ExportTo(a, &args)
		}
		v, err := fn(c.Argument(2), args...)
		if err != nil {
			rethrow(err)
		}
		return v
	})
	return nil
}

// rethrow throws err, which a call into JavaScript returned, on into the
// JavaScript that called the running native.
func rethrow(err error) {
	panic(err)
}
