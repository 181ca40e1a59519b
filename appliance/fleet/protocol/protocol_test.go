package protocol

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

func TestWriteRetry(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteRetry(rec)
	if !IsRetry(rec.Code, rec.Header()) {
		t.Errorf("WriteRetry wrote %d %v, which IsRetry rejects", rec.Code, rec.Header())
	}
	if IsRetry(http.StatusServiceUnavailable, http.Header{}) {
		t.Error("a plain 503 is a retry answer")
	}
	if IsRetry(http.StatusOK, http.Header{RetryHeader: {RetryValue}}) {
		t.Error("a 200 is a retry answer")
	}
}

func TestCloseAfter(t *testing.T) {
	rec := httptest.NewRecorder()
	CloseAfter(rec, httptest.NewRequest(http.MethodGet, "/", nil))
	if got := rec.Header().Get("Connection"); got != "close" {
		t.Errorf("Connection = %q, want close", got)
	}
	up := httptest.NewRequest(http.MethodGet, "/ws", nil)
	up.Header.Set("Upgrade", "websocket")
	rec = httptest.NewRecorder()
	CloseAfter(rec, up)
	if got := rec.Header().Get("Connection"); got != "" {
		t.Errorf("an upgrade's Connection = %q, want none", got)
	}
}
