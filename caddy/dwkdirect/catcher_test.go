package dwkdirect

import (
	"io"
	"net/http"
	"net/http/httptest"
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
