package wasm

import (
	"context"
	"errors"
	"strconv"
	"strings"

	"github.com/dop251/goja"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/sys"
)

// function is an exported WebAssembly function: one an instance exports,
// or one found through a function reference (a table's element, say).
type function struct {
	// owner and name: the instance that exports it and under what name
	// (nil and "" for one found by reference).
	owner *modRef
	name  string
	// index is its index in its module, which JavaScript sees as its name.
	index uint32
	sig   funcType
	// newFn makes a wazero function to call it with. wazero's functions
	// are not re-entrant, so a call that comes back (through JavaScript)
	// to the same function takes another from spare.
	newFn func() (api.Function, error)
	spare []api.Function
	// ref is its function reference once known, and refKeep what keeps
	// the reference valid (see funcref.go); keep is what one found by
	// reference keeps alive.
	ref     uint64
	refKeep any
	keep    any
	obj     *goja.Object
}

func (f *function) take() (api.Function, error) {
	if n := len(f.spare); n > 0 {
		fn := f.spare[n-1]
		f.spare = f.spare[:n-1]
		return fn, nil
	}
	return f.newFn()
}

func (f *function) give(fn api.Function) { f.spare = append(f.spare, fn) }

// exportedFunction is the function an instance exports as name.
func exportedFunction(owner *modRef, name string, index uint32, sig funcType) *function {
	return &function{owner: owner, name: name, index: index, sig: sig, newFn: func() (api.Function, error) {
		fn := owner.mod.ExportedFunction(name)
		if fn == nil {
			return nil, errors.New("the export " + strconv.Quote(name) + " is not a function")
		}
		return fn, nil
	}}
}

// wrapFunction returns the JavaScript function of f, making it once.
func (s *state) wrapFunction(f *function) *goja.Object {
	if f.obj != nil {
		return f.obj
	}
	o := s.rt.ToValue(func(c goja.FunctionCall) goja.Value { return s.call(f, c.Arguments) }).(*goja.Object)
	o.DefineDataProperty("name", s.rt.ToValue(strconv.FormatUint(uint64(f.index), 10)), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineDataProperty("length", s.rt.ToValue(len(f.sig.params)), goja.FLAG_FALSE, goja.FLAG_TRUE, goja.FLAG_FALSE)
	o.DefineDataPropertySymbol(s.fnSym, s.rt.ToValue(f), goja.FLAG_FALSE, goja.FLAG_FALSE, goja.FLAG_FALSE)
	f.obj = o
	return o
}

// functionOf is the exported WebAssembly function v is, or nil.
func (s *state) functionOf(v goja.Value) *function {
	o, ok := v.(*goja.Object)
	if !ok {
		return nil
	}
	m := o.GetSymbol(s.fnSym)
	if m == nil {
		return nil
	}
	f, _ := m.Export().(*function)
	return f
}

// call calls f with JavaScript arguments.
func (s *state) call(f *function, args []goja.Value) goja.Value {
	n := len(f.sig.params)
	if r := len(f.sig.results); r > n {
		n = r
	}
	stack := make([]uint64, n)
	for i, t := range f.sig.params {
		var v goja.Value = goja.Undefined()
		if i < len(args) {
			v = args[i]
		}
		stack[i] = s.toWasm(v, t)
	}
	s.enter()
	fn, err := f.take()
	if err == nil {
		err = fn.CallWithStack(context.Background(), stack)
		f.give(fn)
	}
	stopped := s.leave()
	s.syncMemories()
	if err != nil {
		s.throwCallError(err, stopped)
	}
	keep := f.keep
	if f.owner != nil {
		keep = f.owner
	}
	v := s.results(stack, f.sig.results, keep)
	if s.depth == 0 {
		s.maybeCollect()
	}
	return v
}

// callImport calls fn, an imported JavaScript function, with the
// arguments on stack and puts its results there. keep is the calling
// instance.
func (s *state) callImport(fn goja.Callable, sig funcType, stack []uint64, keep any) {
	s.syncMemories()
	var err error
	if ex := s.rt.Try(func() {
		args := make([]goja.Value, len(sig.params))
		for i, t := range sig.params {
			args[i] = s.fromWasm(stack[i], t, keep)
		}
		v, e := fn(goja.Undefined(), args...)
		if e != nil {
			err = e
			return
		}
		switch len(sig.results) {
		case 0:
		case 1:
			stack[0] = s.toWasm(v, sig.results[0])
		default:
			list, e := s.toList(goja.Undefined(), v, s.rt.ToValue(len(sig.results)))
			if e != nil {
				err = e
				return
			}
			var vals []goja.Value
			if e := s.rt.ExportTo(list, &vals); e != nil {
				panic(s.rt.NewTypeError("multi-value results: %v", e))
			}
			for i, t := range sig.results {
				stack[i] = s.toWasm(vals[i], t)
			}
		}
	}); ex != nil {
		err = ex
	}
	if err != nil {
		panic(&jsThrow{err: err})
	}
}

// jsThrow carries what an imported JavaScript function threw through the
// WebAssembly frames to the export call that called them.
type jsThrow struct{ err error }

func (j *jsThrow) Error() string { return "JavaScript exception: " + j.err.Error() }
func (j *jsThrow) Unwrap() error { return j.err }

// errGone is what a host function of a collected instance reports; it
// cannot happen while the instance can be called.
var errGone = errors.New("the WebAssembly instance of this import was collected")

// throwCallError throws what a failed call into WebAssembly means in
// JavaScript: the exception a JavaScript import threw, the reason the call
// was stopped, or a RuntimeError for a trap.
func (s *state) throwCallError(err, stopped error) {
	var jt *jsThrow
	if errors.As(err, &jt) {
		panic(jt.err)
	}
	var ie *goja.InterruptedError
	if errors.As(err, &ie) {
		panic(ie)
	}
	if stopped != nil {
		s.throw(s.runtimeError, stopped.Error())
	}
	var exit *sys.ExitError
	if errors.As(err, &exit) {
		s.throw(s.runtimeError, "the WebAssembly instance was closed")
	}
	s.throw(s.runtimeError, trapMessage(err))
}

// trapMessages are V8's messages for wazero's traps.
var trapMessages = map[string]string{
	"unreachable":                   "unreachable",
	"out of bounds memory access":   "memory access out of bounds",
	"integer divide by zero":        "divide by zero",
	"integer overflow":              "integer overflow",
	"invalid conversion to integer": "float unrepresentable in integer range",
	"stack overflow":                "Maximum call stack size exceeded",
	"invalid table access":          "table index is out of bounds",
	"indirect call type mismatch":   "null function or function signature mismatch",
	"null reference":                "dereferencing a null pointer",
	"unaligned atomic":              "operation does not support unaligned accesses",
	"uncaught exception":            "uncaught WebAssembly exception",
}

// trapMessage is the message of the RuntimeError for err.
func trapMessage(err error) string {
	msg := firstLine(err.Error())
	if k := strings.Index(msg, "wasm error: "); k >= 0 {
		msg = msg[k+len("wasm error: "):]
	}
	if m, ok := trapMessages[msg]; ok {
		return m
	}
	return msg
}

// throw throws a new error of the class ctor (a WebAssembly error class).
func (s *state) throw(ctor goja.Value, msg string) {
	panic(s.newError(ctor, msg))
}

func (s *state) newError(ctor goja.Value, msg string) goja.Value {
	c, ok := goja.AssertConstructor(ctor)
	if !ok {
		return s.rt.NewGoError(errors.New(msg))
	}
	o, err := c(nil, s.rt.ToValue(msg))
	if err != nil {
		panic(err)
	}
	return o
}
