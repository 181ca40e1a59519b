package jsworker

import (
	"context"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/worker"
)

// Methods implements worker.RPCWorker: the methods of the default export's
// WorkerEntrypoint class, which other workers call through a service
// binding (env.SERVICE.method(args)). The host asks once; the table names
// the methods of the bundle loaded then.
func (w *Worker) Methods(env *worker.Env) worker.Methods {
	v := w.acquire()
	names := v.info.Methods
	v.release()
	ms := make(worker.Methods, len(names))
	for _, name := range names {
		ms[name] = w.method(env, name)
	}
	return ms
}

// method calls the entrypoint's method name in a new instance of the
// class, with the payload's arguments, and returns its serialized result;
// an exception becomes an RPCError whose code names its class.
func (w *Worker) method(env *worker.Env, name string) worker.Method {
	return func(ctx context.Context, arg []byte) ([]byte, error) {
		v := w.acquire()
		defer v.release()
		st := v.pool.pick()
		ev := st.iso.NewEvent(ctx)
		inv := newInvocation(ev, ctx)
		defer inv.done()
		out, err := jsrt.Call(ev, jsrt.CallOptions{}, func(rt *goja.Runtime) (goja.Value, error) {
			args, err := rpcArgs(st.iso, arg)
			if err != nil {
				return nil, err
			}
			vals := make([]any, len(args))
			for k, a := range args {
				vals[k] = a
			}
			c, err := st.newContext(goja.Undefined(), rt.ToValue(inv))
			if err != nil {
				return nil, err
			}
			return st.runMethod(goja.Undefined(), rt.ToValue(name), rt.NewArray(vals...), st.env(env), c)
		}, func(rt *goja.Runtime, val goja.Value) ([]byte, error) {
			return rpcResult(st.iso, val)
		})
		if err != nil {
			v.logMethodError(name, err)
		}
		return out, rpcError(err)
	}
}

// logMethodError logs a method's uncaught exception with its stack.
func (v *version) logMethodError(name string, err error) {
	if je, ok := err.(*jsrt.Error); ok {
		v.cfg.Logger.Error("Uncaught "+firstLine(je.Error()), "method", name, "stack", je.Stack)
	}
}
