package peerlink

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"testing"
)

// BenchmarkForward measures one internal request (POST, 256-byte body,
// small answer) over loopback: plain HTTP with no authentication, with the
// MAC alone, and with mutual TLS and the MAC; each over a pooled
// connection and over a new connection per request (the TLS handshake).
func BenchmarkForward(b *testing.B) {
	files := pki(b, b.TempDir(), "f", "a", "b")
	body := bytes.Repeat([]byte("x"), 256)
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.Copy(io.Discard, r.Body); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		io.WriteString(w, "ok")
	})
	for _, link := range []string{"plaintext", "mac", "mtls+mac"} {
		for _, conn := range []string{"pooled", "new"} {
			b.Run("link="+link+"/conn="+conn, func(b *testing.B) {
				base := http.DefaultTransport.(*http.Transport).Clone()
				base.DisableKeepAlives = conn == "new"
				var rt http.RoundTripper = base
				var h http.Handler = handler
				var ln net.Listener
				ln, err := net.Listen("tcp", "127.0.0.1:0")
				if err != nil {
					b.Fatal(err)
				}
				switch link {
				case "mac":
					srv, cli := newLink(b, "a", nil), newLink(b, "b", nil)
					h, rt = srv.Handler(handler), cli.Transport(base, Peer("a"))
				case "mtls+mac":
					srv, cli := newLink(b, "a", files["a"]), newLink(b, "b", files["b"])
					h, rt, ln = srv.Handler(handler), cli.Transport(base, Peer("a")), srv.Listen(ln)
				}
				hs := &http.Server{Handler: h}
				go hs.Serve(ln)
				b.Cleanup(func() { hs.Close() })
				url := "http://" + ln.Addr().String() + "/_dwk/internal/objects/C/id/increment"
				b.ResetTimer()
				for b.Loop() {
					req, _ := http.NewRequest(http.MethodPost, url, bytes.NewReader(body))
					resp, err := rt.RoundTrip(req)
					if err != nil {
						b.Fatal(err)
					}
					msg, _ := io.ReadAll(resp.Body)
					resp.Body.Close()
					if resp.StatusCode != http.StatusOK {
						b.Fatalf("%s: %s", resp.Status, msg)
					}
				}
			})
		}
	}
}
