package worker

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Streaming RPC: a method whose argument and result are byte streams, for
// bodies too large to encode at once (RPCMaxMessage) or that should flow
// as they are made. The stream goes to and from the object's holder over
// the same forwarded connection as a call, unbuffered at every hop, so
// its size is bounded by nothing but the caller's patience; the caller's
// context bounds it, and its end (deadline, cancellation, Close) reaches
// the method as the end of its context.
//
// The call is one event of the object like any other: it holds the
// object's turn until the method returns, that is until the result is
// written (and so read by the caller, who controls the pace).
//
// The result's end carries the method's outcome (an HTTP trailer): a
// stream that ends cleanly reads io.EOF; one whose method failed after
// writing reads the method's *RPCError in place of io.EOF; one cut off
// (the holder failed, a connection broke) reads ErrRPCStreamCut. A reader
// therefore never takes a truncated result for a complete one.

// StreamMethod is a streaming RPC method: it reads its argument from in,
// as far as it needs, and writes its result to out as it goes. A write to
// out fails once the caller has gone. Its error reaches the caller as an
// *RPCError, in place of the stream's end if out was written.
type StreamMethod func(ctx context.Context, in io.Reader, out io.Writer) error

// StreamMethods is an object class's streaming method table, by name.
type StreamMethods map[string]StreamMethod

// RPCStreamObject is an Object whose streaming methods can be called with
// CallStream. It may be an RPCObject too; the two tables are separate.
type RPCStreamObject interface {
	Object
	// StreamMethods returns the object's streaming method table; like
	// Methods, it is read at each call.
	StreamMethods() StreamMethods
}

// StreamCaller is what CallStream calls: an object's Stub.
type StreamCaller interface {
	ServeHTTP(w http.ResponseWriter, r *http.Request)
}

// ErrRPCStreamCut is what reading a streamed result returns when the
// stream ended without the method's outcome: the holder failed or a
// connection broke mid-stream. The result is incomplete.
var ErrRPCStreamCut = errors.New("the result stream ended before the method finished (its replica failed or the connection broke); the result is incomplete")

// Headers of a streaming call.
const (
	// rpcStreamHeader marks a call (a request whose context carries a
	// method) as a streaming one.
	rpcStreamHeader = "Dwk-Rpc-Stream"
	// rpcOutcomeTrailer carries a streamed result's outcome: "ok", or
	// "error " and the *RPCError as base64url JSON.
	rpcOutcomeTrailer = "Dwk-Rpc-Outcome"
)

// maxRPCErrorBody bounds the error answer CallStream reads when a call
// fails before its stream starts.
const maxRPCErrorBody = 64 << 10

// CallStream calls the streaming method on the object target addresses,
// with in as its argument stream (nil: empty), and returns its result
// stream once the method has started. in is read while the result flows;
// CallStream's caller must not use it until the result is closed (Close
// waits for the call to end, up to streamCloseWait). Closing
// the result early, or the end of ctx, ends the call and the method's
// context. A method unknown to the object fails with an *RPCError of code
// CodeNoMethod; a failure to reach the object is returned as an error
// naming the answer's status.
func CallStream(ctx context.Context, target StreamCaller, method string, in io.Reader) (io.ReadCloser, error) {
	ctx, cancel := context.WithCancel(WithRPCMethod(ctx, method))
	var body io.ReadCloser = http.NoBody
	if in != nil {
		body = io.NopCloser(in)
	}
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, "http://object/", body)
	if err != nil {
		cancel()
		return nil, err
	}
	if in != nil {
		req.ContentLength = -1 // unknown: the body streams
	}
	req.Header.Set(rpcStreamHeader, "1")
	req.Header.Set("Content-Type", "application/octet-stream")
	pr, pw := io.Pipe()
	w := &pipeWriter{header: http.Header{}, pw: pw, ready: make(chan struct{})}
	done := make(chan struct{})
	go func() {
		defer close(done)
		outcome := ErrRPCStreamCut
		defer func() {
			if p := recover(); p != nil && p != http.ErrAbortHandler {
				// http.ErrAbortHandler: a forwarding proxy aborted a
				// response cut off mid-stream.
				outcome = fmt.Errorf("%w: %v", ErrRPCStreamCut, p)
			}
			w.WriteHeader(http.StatusOK)
			pw.CloseWithError(outcome)
		}()
		target.ServeHTTP(w, req)
		outcome = w.outcome(method)
	}()
	stop := context.AfterFunc(ctx, func() { pw.CloseWithError(ctx.Err()) })
	select {
	case <-w.ready:
	case <-ctx.Done():
	}
	if err := ctx.Err(); err != nil {
		cancel()
		return nil, fmt.Errorf("method %s: %w", method, err)
	}
	if w.status != http.StatusOK {
		defer cancel()
		defer pr.Close()
		b, _ := io.ReadAll(io.LimitReader(pr, maxRPCErrorBody))
		if w.snapshot.Get(rpcErrorHeader) != "" {
			e := &RPCError{Method: method}
			if json.Unmarshal(b, e) == nil {
				return nil, e
			}
		}
		return nil, fmt.Errorf("method %s: %d %s: %s", method, w.status, http.StatusText(w.status), strings.TrimSpace(string(b)))
	}
	return &streamResult{pr: pr, ctx: ctx, cancel: cancel, stop: stop, done: done}, nil
}

// streamCloseWait bounds how long closing a streamed result waits for the
// call to end (the method to return, the forwarded request to stop
// reading the argument) after ending its context.
const streamCloseWait = 5 * time.Second

// streamResult is CallStream's result.
type streamResult struct {
	pr     *io.PipeReader
	ctx    context.Context
	cancel context.CancelFunc
	stop   func() bool
	done   <-chan struct{} // closed when the call has ended
	once   sync.Once
}

func (s *streamResult) Read(p []byte) (int, error) {
	n, err := s.pr.Read(p)
	if err != nil && err != io.EOF && s.ctx.Err() != nil && !errors.Is(err, s.ctx.Err()) {
		err = fmt.Errorf("%w: %w", s.ctx.Err(), err)
	}
	return n, err
}

// Close ends the call: the method's writes fail and its context ends.
// It waits for the call to end, up to streamCloseWait.
func (s *streamResult) Close() error {
	s.once.Do(func() {
		s.stop()
		s.pr.CloseWithError(errors.New("the caller closed the result stream"))
		s.cancel()
		t := time.NewTimer(streamCloseWait)
		defer t.Stop()
		select {
		case <-s.done:
		case <-t.C:
		}
	})
	return nil
}

// pipeWriter is the http.ResponseWriter of a streaming call: the body
// goes into a pipe that the caller reads, and the trailers are read when
// the handler returns.
type pipeWriter struct {
	header http.Header
	pw     *io.PipeWriter
	once   sync.Once
	ready  chan struct{} // closed by the first final WriteHeader
	// status and snapshot (the header at WriteHeader) are set before
	// ready closes.
	status   int
	snapshot http.Header
}

func (p *pipeWriter) Header() http.Header { return p.header }

func (p *pipeWriter) WriteHeader(code int) {
	if code < 200 {
		return // informational: the final answer follows
	}
	p.once.Do(func() {
		p.status, p.snapshot = code, p.header.Clone()
		close(p.ready)
	})
}

func (p *pipeWriter) Write(b []byte) (int, error) {
	p.WriteHeader(http.StatusOK)
	return p.pw.Write(b)
}

// Flush implements http.Flusher: every Write already reaches the reader.
func (p *pipeWriter) Flush() {}

// outcome reads the method's outcome from the trailers: nil for "ok",
// the *RPCError it sent, or ErrRPCStreamCut when there is none.
func (p *pipeWriter) outcome(method string) error {
	v := ""
	for k, vs := range p.header {
		if name, ok := strings.CutPrefix(k, http.TrailerPrefix); ok && strings.EqualFold(name, rpcOutcomeTrailer) && len(vs) > 0 {
			v = vs[0]
		}
	}
	if v == "" && strings.Contains(p.snapshot.Get("Trailer"), rpcOutcomeTrailer) {
		v = p.header.Get(rpcOutcomeTrailer) // a trailer the answer declared
	}
	switch {
	case v == "ok":
		return nil
	case strings.HasPrefix(v, "error "):
		e := &RPCError{Method: method}
		b, err := base64.RawURLEncoding.DecodeString(strings.TrimPrefix(v, "error "))
		if err == nil && json.Unmarshal(b, e) == nil {
			return e
		}
		return fmt.Errorf("method %s: %w (its error did not decode: %q)", method, ErrRPCStreamCut, v)
	}
	return fmt.Errorf("method %s: %w", method, ErrRPCStreamCut)
}

// serveStreamRPC runs the streaming method of obj on r's body; see
// ServeStreamMethods.
func serveStreamRPC(w http.ResponseWriter, r *http.Request, obj Object, method string) {
	var ms StreamMethods
	if so, ok := obj.(RPCStreamObject); ok {
		ms = so.StreamMethods()
	}
	ServeStreamMethods(w, r, ms, fmt.Sprintf("%T", obj), method)
}

// ServeStreamMethods runs the streaming method of the table ms (of owner,
// for messages) with r's body as its argument stream. An unknown method
// is answered as ServeMethods answers it. Otherwise the answer starts at
// once (200), the result streams, flushed at every write, and its
// outcome follows in the trailer rpcOutcomeTrailer.
func ServeStreamMethods(w http.ResponseWriter, r *http.Request, ms StreamMethods, owner, method string) {
	m := ms[method]
	if m == nil {
		ServeMethods(w, r, nil, owner, method)
		return
	}
	rc := http.NewResponseController(w)
	// Over HTTP/1.x the argument is read while the result is written; a
	// writer in process has no such limit (ErrNotSupported).
	rc.EnableFullDuplex()
	w.Header().Set("Content-Type", "application/octet-stream")
	w.WriteHeader(http.StatusOK)
	rc.Flush()
	err := m(context.WithValue(r.Context(), rpcKey{}, nil), r.Body, flushWriter{w: w, rc: rc})
	outcome := "ok"
	if err != nil {
		b, _ := json.Marshal(rpcErrorOf(err))
		outcome = "error " + base64.RawURLEncoding.EncodeToString(b)
	}
	w.Header().Set(http.TrailerPrefix+rpcOutcomeTrailer, outcome)
}

// flushWriter flushes the answer after every write, so that the result
// reaches the caller as it is made.
type flushWriter struct {
	w  io.Writer
	rc *http.ResponseController
}

func (f flushWriter) Write(p []byte) (int, error) {
	n, err := f.w.Write(p)
	if err == nil {
		err = f.rc.Flush()
		if errors.Is(err, http.ErrNotSupported) {
			err = nil
		}
	}
	return n, err
}

// rpcErrorOf is err as the caller sees it: an *RPCError keeps its code,
// another error gets CodeError and its text.
func rpcErrorOf(err error) *RPCError {
	var e *RPCError
	if !errors.As(err, &e) {
		e = &RPCError{Code: CodeError, Message: err.Error()}
	}
	return e
}
