package dwkdirect

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/protocol"
)

func TestRetryCatcherSwallowsRetryAnswers(t *testing.T) {
	rec := httptest.NewRecorder()
	rec.Header().Set("Server", "front door")
	c := &retryCatcher{w: rec}
	c.Header().Set("X-Local", "1")
	protocol.WriteRetry(c)
	if !c.retry {
		t.Fatal("a retry answer was not caught")
	}
	if rec.Code != http.StatusOK || rec.Body.Len() != 0 || rec.Header().Get("X-Local") != "" || rec.Header().Get("Server") != "front door" {
		t.Errorf("the client saw the retry answer: %d %q %v", rec.Code, rec.Body.String(), rec.Header())
	}
}

func TestRetryCatcherPassesOtherAnswers(t *testing.T) {
	for _, code := range []int{http.StatusOK, http.StatusServiceUnavailable, http.StatusNotFound} {
		rec := httptest.NewRecorder()
		c := &retryCatcher{w: rec}
		c.Header().Set("X-Local", "1")
		c.WriteHeader(code)
		io.WriteString(c, "body")
		if c.retry || rec.Code != code || rec.Body.String() != "body" || rec.Header().Get("X-Local") != "1" {
			t.Errorf("%d: retry=%v, client got %d %q %v", code, c.retry, rec.Code, rec.Body.String(), rec.Header())
		}
	}
	rec := httptest.NewRecorder()
	c := &retryCatcher{w: rec}
	io.WriteString(c, "implicit")
	if rec.Code != http.StatusOK || rec.Body.String() != "implicit" {
		t.Errorf("implicit 200: client got %d %q", rec.Code, rec.Body.String())
	}
}

func TestRetryCatcherWriteString(t *testing.T) {
	rec := httptest.NewRecorder()
	c := &retryCatcher{w: rec}
	if n, err := io.WriteString(c, "text"); n != 4 || err != nil || rec.Code != http.StatusOK || rec.Body.String() != "text" {
		t.Errorf("WriteString = %d, %v; client got %d %q", n, err, rec.Code, rec.Body.String())
	}
	rec = httptest.NewRecorder()
	c = &retryCatcher{w: rec}
	protocol.WriteRetry(c)
	if n, err := io.WriteString(c, "more"); n != 4 || err != nil || rec.Body.Len() != 0 {
		t.Errorf("after a retry answer: WriteString = %d, %v; client got %q", n, err, rec.Body.String())
	}
	c = &retryCatcher{w: httptest.NewRecorder(), abandoned: true}
	if _, err := io.WriteString(c, "late"); err != http.ErrHandlerTimeout {
		t.Errorf("given up on: WriteString error %v, want %v", err, http.ErrHandlerTimeout)
	}
}

// readFromRecorder is a recorder whose ReadFrom counts its calls, as
// net/http's response writer has one.
type readFromRecorder struct {
	*httptest.ResponseRecorder
	calls int
}

func (r *readFromRecorder) ReadFrom(src io.Reader) (int64, error) {
	r.calls++
	return io.Copy(r.ResponseRecorder.Body, src)
}

// TestRetryCatcherReadFrom: io.Copy into the app's writer goes through
// the client's writer's ReadFrom (no copy buffer of its own) and starts
// the response; after a retry answer the bytes are read and dropped; an
// app given up on gets ErrHandlerTimeout.
func TestRetryCatcherReadFrom(t *testing.T) {
	rec := &readFromRecorder{ResponseRecorder: httptest.NewRecorder()}
	c := &retryCatcher{w: rec}
	c.Header().Set("X-Local", "1")
	// A reader without WriteTo, so that io.Copy looks at the destination.
	src := io.LimitReader(strings.NewReader("streamed body"), 1<<20)
	if n, err := io.Copy(c, src); n != 13 || err != nil {
		t.Fatalf("io.Copy = %d, %v", n, err)
	}
	if rec.calls != 1 || rec.Code != http.StatusOK || rec.Body.String() != "streamed body" || rec.Header().Get("X-Local") != "1" {
		t.Errorf("ReadFrom calls %d; client got %d %q %v", rec.calls, rec.Code, rec.Body.String(), rec.Header())
	}

	rec = &readFromRecorder{ResponseRecorder: httptest.NewRecorder()}
	c = &retryCatcher{w: rec}
	protocol.WriteRetry(c)
	if n, err := io.Copy(c, io.LimitReader(strings.NewReader("dropped"), 1<<20)); n != 7 || err != nil || rec.Body.Len() != 0 || rec.calls != 0 {
		t.Errorf("after a retry answer: io.Copy = %d, %v; client got %q", n, err, rec.Body.String())
	}

	c = &retryCatcher{w: httptest.NewRecorder(), abandoned: true}
	if _, err := io.Copy(c, strings.NewReader("late")); err != http.ErrHandlerTimeout {
		t.Errorf("given up on: io.Copy error %v, want %v", err, http.ErrHandlerTimeout)
	}
}
