package worker

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
)

// RPC: typed method calls on objects (Cloudflare's Durable Object RPC in
// Go form) and on workers through service bindings. A class lists its methods by implementing RPCObject; a caller
// anywhere in the fleet calls one with Call. A call is an event of the
// object like a fetch: it waits its turn, goes to the replica holding the
// object with the same fencing and deadlines, and its writes are durable
// before its result leaves (the output gate). Arguments and results are
// encoded once, as JSON.

// Method is one RPC method: it decodes its argument from arg and returns
// its encoded result. Typed builds one from a typed function.
type Method func(ctx context.Context, arg []byte) ([]byte, error)

// Methods is an object class's RPC method table, by method name.
type Methods map[string]Method

// RPCObject is an Object whose methods can be called with Call.
type RPCObject interface {
	Object
	// Methods returns the object's method table. It is read at each call,
	// so it may be built once when the object is made.
	Methods() Methods
}

// RPCWorker is a worker whose methods other workers call through a
// service binding: Call(ctx, env.Service("NAME"), "Method", req). The
// host asks for the table once, with the worker's Env.
type RPCWorker interface {
	Methods(env *Env) Methods
}

// Caller is what Call calls: an object's Stub, or a Service.
type Caller interface {
	Fetch(ctx context.Context, req *http.Request) (*http.Response, error)
}

// Typed wraps f as a Method: the argument is JSON-decoded into Req and the
// result JSON-encoded. An argument that does not decode fails with code
// CodeBadArgument.
func Typed[Req, Resp any](f func(ctx context.Context, req Req) (Resp, error)) Method {
	return func(ctx context.Context, arg []byte) ([]byte, error) {
		var req Req
		if err := json.Unmarshal(arg, &req); err != nil {
			return nil, &RPCError{Code: CodeBadArgument, Message: err.Error()}
		}
		resp, err := f(ctx, req)
		if err != nil {
			return nil, err
		}
		return json.Marshal(resp)
	}
}

// Error codes of RPCError that the host sets; a method may use its own.
const (
	// CodeNoMethod: the object has no method of that name, or no methods.
	CodeNoMethod = "no_such_method"
	// CodeBadArgument: the argument did not decode.
	CodeBadArgument = "bad_argument"
	// CodeError: the method returned an error that is not an *RPCError.
	CodeError = "error"
)

// RPCError is a method's failure as the caller sees it: the code and
// message the method returned (an *RPCError keeps its code; another error
// gets CodeError and its text).
type RPCError struct {
	Method  string `json:"-"`
	Code    string `json:"code"`
	Message string `json:"message"`
}

func (e *RPCError) Error() string {
	return fmt.Sprintf("method %s: %s: %s", e.Method, e.Code, e.Message)
}

// rpcErrorHeader marks a response that carries an RPCError.
const rpcErrorHeader = "Dwk-Rpc-Error"

type rpcKey struct{}

// WithRPCMethod marks ctx as carrying a call of method. Hosts use it (the
// receiving side of a forwarded call); applications call Call.
func WithRPCMethod(ctx context.Context, method string) context.Context {
	return context.WithValue(ctx, rpcKey{}, method)
}

// RPCMethod is the method a call's context carries, if any.
func RPCMethod(ctx context.Context) (string, bool) {
	m, ok := ctx.Value(rpcKey{}).(string)
	return m, ok && m != ""
}

// Call calls method on target (the object a Stub addresses, or the worker
// behind a Service), with req as its argument, and decodes its result into
// Resp. A method's error comes back as an *RPCError; a failure to reach the
// target is returned as its Fetch returns it.
func Call[Req, Resp any](ctx context.Context, target Caller, method string, req Req) (Resp, error) {
	var zero Resp
	arg, err := json.Marshal(req)
	if err != nil {
		return zero, fmt.Errorf("method %s: encode the argument: %w", method, err)
	}
	if len(arg) > maxRPCMessage {
		return zero, fmt.Errorf("method %s: argument of %d bytes: %w", method, len(arg), ErrRPCMessageTooLarge)
	}
	ctx = WithRPCMethod(ctx, method)
	hr, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://object/", bytes.NewReader(arg))
	if err != nil {
		return zero, err
	}
	hr.Header.Set("Content-Type", "application/json")
	resp, err := target.Fetch(ctx, hr)
	if err != nil {
		return zero, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, int64(maxRPCMessage)+1))
	if err != nil {
		return zero, fmt.Errorf("method %s: read the result: %w", method, err)
	}
	if len(body) > maxRPCMessage {
		return zero, fmt.Errorf("method %s: result: %w", method, ErrRPCMessageTooLarge)
	}
	if resp.Header.Get(rpcErrorHeader) != "" {
		e := &RPCError{Method: method}
		if err := json.Unmarshal(body, e); err != nil {
			return zero, fmt.Errorf("method %s: %s, with an error that does not decode: %q", method, resp.Status, body)
		}
		return zero, e
	}
	if resp.StatusCode != http.StatusOK {
		return zero, fmt.Errorf("method %s: %s: %s", method, resp.Status, bytes.TrimSpace(body))
	}
	if err := json.Unmarshal(body, &zero); err != nil {
		return zero, fmt.Errorf("method %s: decode the result: %w", method, err)
	}
	return zero, nil
}

// ServeRPC runs method of obj (an RPCObject) on r's body; see
// ServeMethods. Hosts call it in the object's turn for a request marked
// with WithRPCMethod.
func ServeRPC(w http.ResponseWriter, r *http.Request, obj Object, method string) {
	if r.Header.Get(rpcStreamHeader) != "" {
		serveStreamRPC(w, r, obj, method)
		return
	}
	var ms Methods
	if ro, ok := obj.(RPCObject); ok {
		ms = ro.Methods()
	}
	ServeMethods(w, r, ms, fmt.Sprintf("%T", obj), method)
}

// ServeMethods runs method of the table ms (of owner, for messages) on
// r's body and writes the result (200, JSON) or the method's error (422
// with the error as JSON).
func ServeMethods(w http.ResponseWriter, r *http.Request, ms Methods, owner, method string) {
	fail := func(e *RPCError) {
		b, _ := json.Marshal(e)
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set(rpcErrorHeader, "1")
		w.WriteHeader(http.StatusUnprocessableEntity)
		w.Write(b)
	}
	if r.Header.Get(rpcStreamHeader) != "" {
		fail(&RPCError{Code: CodeNoMethod, Message: fmt.Sprintf("%s has no streaming method %q", owner, method)})
		return
	}
	m := ms[method]
	if m == nil {
		fail(&RPCError{Code: CodeNoMethod, Message: fmt.Sprintf("%s has no method %q", owner, method)})
		return
	}
	arg, err := io.ReadAll(io.LimitReader(r.Body, int64(maxRPCMessage)+1))
	if err != nil {
		fail(&RPCError{Code: CodeBadArgument, Message: "read the argument: " + err.Error()})
		return
	}
	if len(arg) > maxRPCMessage {
		fail(&RPCError{Code: CodeTooLarge, Message: ErrRPCMessageTooLarge.Error()})
		return
	}
	// The method's own calls to others are not calls of method.
	out, err := m(context.WithValue(r.Context(), rpcKey{}, nil), arg)
	if err != nil {
		var e *RPCError
		if !errors.As(err, &e) {
			e = &RPCError{Code: CodeError, Message: err.Error()}
		}
		fail(e)
		return
	}
	if len(out) > maxRPCMessage {
		fail(&RPCError{Code: CodeTooLarge, Message: fmt.Sprintf("result of %d bytes: %v", len(out), ErrRPCMessageTooLarge)})
		return
	}
	w.Header().Set("Content-Type", "application/json")
	w.Write(out)
}
