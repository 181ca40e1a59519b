package dwkdirect

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httptrace"
	"testing"
)

// TestClosingAppClosesConnectionsAfterAnswers: once its app is closing, a
// front door's answers close their connections, over HTTP/1.1
// (Connection: close) and HTTP/2 (GOAWAY), so that a client's next request
// opens a new connection rather than find its pooled one cut.
func TestClosingAppClosesConnectionsAfterAnswers(t *testing.T) {
	for _, h2 := range []bool{false, true} {
		name := "http1"
		if h2 {
			name = "http2"
		}
		t.Run(name, func(t *testing.T) {
			app := &App{name: "closing-test"}
			srv := httptest.NewUnstartedServer(app.Handler(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				io.WriteString(w, "ok")
			})))
			srv.EnableHTTP2 = h2
			srv.StartTLS()
			defer srv.Close()
			client := srv.Client()
			if h2 {
				client.Transport.(*http.Transport).ForceAttemptHTTP2 = true
			}
			get := func() (reused bool, proto string) {
				t.Helper()
				trace := &httptrace.ClientTrace{GotConn: func(i httptrace.GotConnInfo) { reused = i.Reused }}
				req, _ := http.NewRequestWithContext(httptrace.WithClientTrace(t.Context(), trace), http.MethodGet, srv.URL, nil)
				resp, err := client.Do(req)
				if err != nil {
					t.Fatal(err)
				}
				io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				return reused, resp.Proto
			}
			get()
			if reused, proto := get(); !reused {
				t.Fatalf("before closing: the second request (%s) opened a new connection", proto)
			}
			app.Closing()
			if reused, _ := get(); !reused {
				t.Fatal("the first request after closing did not use the pooled connection")
			}
			if reused, proto := get(); reused {
				t.Errorf("the connection of an answer given while closing was used again (%s)", proto)
			}
		})
	}
}
