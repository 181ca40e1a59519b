package server

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// TestPublicAnswersCloseTheirConnectionsWhileDraining: a draining
// replica's public answers ask the client to close the connection after
// them, WebSocket upgrades excepted; a ready replica's do not.
func TestPublicAnswersCloseTheirConnectionsWhileDraining(t *testing.T) {
	s := &Server{}
	h := s.closeWhenDraining(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {}))
	answer := func(upgrade bool) string {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if upgrade {
			r.Header.Set("Upgrade", "websocket")
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, r)
		return rec.Header().Get("Connection")
	}
	s.state.Store(StateReady)
	if got := answer(false); got != "" {
		t.Errorf("ready: Connection = %q, want none", got)
	}
	s.state.Store(StateDraining)
	if got := answer(false); got != "close" {
		t.Errorf("draining: Connection = %q, want close", got)
	}
	if got := answer(true); got != "" {
		t.Errorf("draining, an upgrade: Connection = %q, want none", got)
	}
}
