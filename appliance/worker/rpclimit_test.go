package worker

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// zeros is an endless reader of zero bytes.
type zeros struct{}

func (zeros) Read(b []byte) (int, error) {
	clear(b)
	return len(b), nil
}

// bigResult answers every call with a result one byte over the limit.
type bigResult struct{}

func (bigResult) Fetch(_ context.Context, req *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: http.StatusOK, Status: "200 OK", Header: http.Header{},
		Body: io.NopCloser(io.LimitReader(zeros{}, int64(maxRPCMessage)+1)), Request: req}, nil
}

// smallLimit lowers the message limit for one test, so that it moves
// kilobytes rather than 32 MiB.
func smallLimit(t *testing.T) {
	old := maxRPCMessage
	maxRPCMessage = 4 << 10
	t.Cleanup(func() { maxRPCMessage = old })
}

func TestCallRefusesResultOverLimit(t *testing.T) {
	smallLimit(t)
	_, err := Call[int, json.RawMessage](t.Context(), bigResult{}, "Big", 1)
	if !errors.Is(err, ErrRPCMessageTooLarge) || !strings.Contains(err.Error(), "CallStream") {
		t.Errorf("Call with a result over RPCMaxMessage: %v, want ErrRPCMessageTooLarge naming CallStream", err)
	}
}

func TestServeMethodsRefusesArgumentOverLimit(t *testing.T) {
	smallLimit(t)
	ran := false
	ms := Methods{"M": func(context.Context, []byte) ([]byte, error) { ran = true; return []byte("{}"), nil }}
	w := httptest.NewRecorder()
	ServeMethods(w, httptest.NewRequest("POST", "/", io.LimitReader(zeros{}, int64(maxRPCMessage)+1)), ms, "test", "M")
	var e RPCError
	if json.Unmarshal(w.Body.Bytes(), &e); w.Code != http.StatusUnprocessableEntity || e.Code != CodeTooLarge || ran {
		t.Errorf("argument over RPCMaxMessage: %d %+v (method ran: %v), want 422 with code %s and no call", w.Code, e, ran, CodeTooLarge)
	}
}
