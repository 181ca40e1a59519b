package libsql

import (
	"net/http"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Handler returns the user API: Hrana over HTTP (/v2, /v3) and WebSocket
// (GET / with an Upgrade), /health and /version.
func (s *Server) Handler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", s.handleRoot)
	mux.HandleFunc("GET /health", func(w http.ResponseWriter, _ *http.Request) { w.WriteHeader(http.StatusOK) })
	mux.HandleFunc("GET /version", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		w.Write([]byte("dwk-libsql " + s.cfg.Version))
	})
	index := func(v string) http.HandlerFunc {
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/plain")
			w.Write([]byte("Hello, this is HTTP API " + v + " (Hrana over HTTP)"))
		}
	}
	mux.HandleFunc("GET /v2", index("v2"))
	mux.HandleFunc("GET /v3", index("v3"))
	mux.HandleFunc("POST /v2/pipeline", s.handlePipeline(hrana.V2))
	mux.HandleFunc("POST /v3/pipeline", s.handlePipeline(hrana.V3))
	mux.HandleFunc("POST /v3/cursor", s.handleCursor)
	return cors(mux)
}

// handleRoot upgrades WebSocket requests to Hrana; plain GETs get 404, as
// with sqld.
func (s *Server) handleRoot(w http.ResponseWriter, r *http.Request) {
	if !isWebSocketUpgrade(r) {
		http.NotFound(w, r)
		return
	}
	s.serveWebSocket(w, r)
}

// cors allows browsers on any origin, as sqld does.
func cors(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Access-Control-Allow-Origin", "*")
		if r.Method == http.MethodOptions {
			h.Set("Access-Control-Allow-Methods", "GET, POST, DELETE, OPTIONS")
			h.Set("Access-Control-Allow-Headers", "*")
			w.WriteHeader(http.StatusNoContent)
			return
		}
		next.ServeHTTP(w, r)
	})
}
