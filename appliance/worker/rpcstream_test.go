package worker

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
)

// handler is a StreamCaller over a plain handler.
type handler func(w http.ResponseWriter, r *http.Request)

func (h handler) ServeHTTP(w http.ResponseWriter, r *http.Request) { h(w, r) }

// TestCallStreamEnds checks how a streamed result ends when its answer is
// not a well-formed stream: a buffered method table answers no such
// method, and an answer that stops without its outcome (the handler
// returned, or a proxy aborted it) reads ErrRPCStreamCut after its bytes.
func TestCallStreamEnds(t *testing.T) {
	methods := handler(func(w http.ResponseWriter, r *http.Request) {
		m, _ := RPCMethod(r.Context())
		ServeMethods(w, r, Methods{"M": func(context.Context, []byte) ([]byte, error) { return []byte("{}"), nil }}, "svc", m)
	})
	var re *RPCError
	if _, err := CallStream(t.Context(), methods, "M", strings.NewReader("x")); !errors.As(err, &re) || re.Code != CodeNoMethod || !strings.Contains(re.Message, "streaming") {
		t.Errorf("CallStream to a buffered method: %v, want code %s saying it has no streaming method", err, CodeNoMethod)
	}
	for name, h := range map[string]handler{
		"returned": func(w http.ResponseWriter, _ *http.Request) { io.WriteString(w, "partial") },
		"aborted": func(w http.ResponseWriter, _ *http.Request) {
			io.WriteString(w, "partial")
			panic(http.ErrAbortHandler)
		},
	} {
		res, err := CallStream(t.Context(), h, "M", nil)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		b, err := io.ReadAll(res)
		res.Close()
		if string(b) != "partial" || !errors.Is(err, ErrRPCStreamCut) {
			t.Errorf("%s: read %q, %v; want the bytes, then ErrRPCStreamCut", name, b, err)
		}
	}
}
