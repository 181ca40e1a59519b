package jsworker

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/bundle"
	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// isoState is what one isolate holds of one version of a worker: the
// bundle's exports, its handlers, the env objects. It is used on the
// isolate's loop only, apart from its immutable fields.
type isoState struct {
	v   *version
	iso *jsrt.Isolate

	// Set by load, then read-only.
	exports    *goja.Object
	runFetch   goja.Callable
	runEvent   goja.Callable // (kind, arg, env, ctx) for scheduled and queue
	runMethod  goja.Callable // (name, args, env, ctx) for service RPC
	newContext goja.Callable
	classes    map[string]*goja.Object // exported object classes by JS name

	// envs holds, per worker name, the env object of the worker.Env seen
	// last (loop only). A worker whose secrets changed gets a new
	// worker.Env, and with it a new env object.
	envs map[string]envObject
}

// entryInfo is what the prelude's loadEntry reports of a bundle's exports.
type entryInfo struct {
	Fetch     bool     `json:"fetch"`
	Scheduled bool     `json:"scheduled"`
	Queue     bool     `json:"queue"`
	Methods   []string `json:"methods"`
}

// load runs the bundle in the isolate and reads its exports. The first
// isolate of a version (first) records what the exports handle and the
// classes' methods, which every isolate of it shares.
func (st *isoState) load(ctx context.Context, first bool) error {
	return st.iso.Do(ctx, func(rt *goja.Runtime) error {
		internal := st.iso.Internal()
		modules := internal.Get("modules").ToObject(rt)
		for k, m := range st.v.cfg.Script.modules {
			m := m
			modules.Set(bundle.ModulePrefix+strconv.Itoa(k), func(goja.FunctionCall) goja.Value {
				return st.module(rt, m)
			})
		}
		if _, err := rt.RunProgram(st.v.cfg.Script.prg); err != nil {
			return fmt.Errorf("the worker's script failed while it started: %w", jsErr(st.iso, err))
		}
		// A service worker exports nothing: its handlers are listeners.
		exports, _ := rt.Get(bundle.GlobalName).(*goja.Object)
		if exports == nil {
			exports = rt.NewObject()
		}
		st.exports = exports
		load, _ := goja.AssertFunction(internal.Get("loadEntry"))
		infoV, err := load(goja.Undefined(), exports)
		if err != nil {
			return jsErr(st.iso, err)
		}
		if first {
			var info entryInfo
			if err := json.Unmarshal([]byte(infoV.String()), &info); err != nil {
				return fmt.Errorf("read the exports: %w", err)
			}
			st.v.info = info
		}
		st.runFetch, _ = goja.AssertFunction(internal.Get("runFetch"))
		st.runEvent, _ = goja.AssertFunction(internal.Get("runEvent"))
		st.runMethod, _ = goja.AssertFunction(internal.Get("runMethod"))
		st.newContext, _ = goja.AssertFunction(internal.Get("newContext"))
		st.classes = map[string]*goja.Object{}
		for js := range st.v.cfg.Classes {
			c, ok := exports.Get(js).(*goja.Object)
			if !ok {
				return fmt.Errorf("the Durable Object class %q is not exported by the worker's main module", js)
			}
			if _, ok := goja.AssertConstructor(c); !ok {
				return fmt.Errorf("the export %q is not a class", js)
			}
			st.classes[js] = c
			if first {
				info, _ := goja.AssertFunction(internal.Get("objectInfo"))
				iv, err := info(goja.Undefined(), c)
				if err != nil {
					return jsErr(st.iso, err)
				}
				var ci classInfo
				if err := json.Unmarshal([]byte(iv.String()), &ci); err != nil {
					return fmt.Errorf("read class %s: %w", js, err)
				}
				if ci.Methods == nil {
					ci.Methods = []string{}
				}
				st.v.classes[js] = ci
			}
		}
		return nil
	})
}

// module makes a Data or CompiledWasm module of the bundle.
func (st *isoState) module(rt *goja.Runtime, m bundle.Module) goja.Value {
	data := append([]byte(nil), m.Bytes...)
	if m.Type == bundle.RuleCompiledWasm {
		mk, ok := goja.AssertFunction(st.iso.Internal().Get("wasmModule"))
		if !ok {
			panic(rt.NewTypeError("WebAssembly is not available"))
		}
		v, err := mk(goja.Undefined(), st.iso.NewUint8Array(data))
		if err != nil {
			panic(err)
		}
		return v
	}
	return st.iso.NewArrayBuffer(data)
}

// envObject is the env object made for one worker.Env.
type envObject struct {
	e *worker.Env
	v goja.Value
}

// env is the env object for the host's Env e, made on first use and
// again whenever e is not the Env of its worker seen last.
func (st *isoState) env(e *worker.Env) goja.Value {
	if o, ok := st.envs[e.Worker()]; ok && o.e == e {
		return o.v
	}
	v := newEnv(st, e)
	st.envs[e.Worker()] = envObject{e: e, v: v}
	return v
}

// jsErr turns what goja returned into a *jsrt.Error when it is an
// exception, so that its source-mapped stack is kept.
func jsErr(iso *jsrt.Isolate, err error) error {
	var exc *goja.Exception
	if errors.As(err, &exc) {
		return iso.ErrorOf(exc)
	}
	return err
}
