package dwkdirect

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"go.uber.org/zap"
	"golang.org/x/net/http/httpguts"

	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// maxRelayedBody bounds the body of a refused upgrade relayed to the
// client.
const maxRelayedBody = 64 << 10

// hop are the hop-by-hop headers (RFC 9110, 7.6.1), which are not passed
// on.
var hop = map[string]bool{
	"Connection": true, "Proxy-Connection": true, "Keep-Alive": true,
	"Proxy-Authenticate": true, "Proxy-Authorization": true, "Te": true,
	"Trailer": true, "Transfer-Encoding": true, "Upgrade": true,
}

// hopHeaders are the request headers a tunnel's handshake does not pass
// on: hop-by-hop ones (Upgrade and Connection are written again) and those
// the front door sets anew.
var hopHeaders = func() map[string]bool {
	m := map[string]bool{
		"X-Forwarded-For": true, "X-Forwarded-Proto": true, "X-Forwarded-Host": true,
		protocol.ObjectIDHeader: true,
	}
	for k := range hop {
		m[k] = true
	}
	return m
}()

// readers are the bufio.Readers handshake responses are read with; they
// go back to the pool once the tunnel runs.
var readers = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, 4<<10) }}

// isWebSocketUpgrade reports whether r asks for a WebSocket over HTTP/1.1.
func isWebSocketUpgrade(r *http.Request) bool {
	return r.ProtoMajor == 1 && r.Method == http.MethodGet &&
		httpguts.HeaderValuesContainsToken(r.Header["Connection"], "upgrade") &&
		httpguts.HeaderValuesContainsToken(r.Header["Upgrade"], "websocket")
}

// tunnel dials member at dial (a stream over the peer link when there is
// one), sends it r and relays its answer. It returns false, having written
// nothing, when the reverse proxy should take the request instead: the
// dial or the handshake failed, or the member answered with a retry
// answer (it is then marked tried).
func (d *Direct) tunnel(w http.ResponseWriter, r *http.Request, member, dial string, t dwkaffinity.Target) bool {
	ctx, cancel := context.WithTimeout(r.Context(), time.Duration(d.DialTimeout))
	back, err := d.dial(ctx, member, dial)
	cancel()
	if err != nil {
		d.log.Debug("tunnel dial failed; the reverse proxy takes the request", zap.String("upstream", dial), zap.Error(err))
		return false
	}
	_ = back.SetDeadline(time.Now().Add(time.Duration(d.HandshakeTimeout)))
	br := readers.Get().(*bufio.Reader)
	br.Reset(back)
	release := func() {
		br.Reset(nil)
		readers.Put(br)
	}
	res, err := d.handshake(back, br, r, dial, t)
	if err != nil {
		back.Close()
		release()
		d.log.Debug("tunnel handshake failed; the reverse proxy takes the request", zap.String("upstream", dial), zap.Error(err))
		return false
	}
	switch {
	case res.StatusCode == http.StatusServiceUnavailable && res.Header.Get(protocol.RetryHeader) == protocol.RetryValue:
		back.Close()
		release()
		dwkaffinity.MarkTried(r, dial)
		return false
	case res.StatusCode != http.StatusSwitchingProtocols:
		relay(w, res)
		back.Close()
		release()
		return true
	case !strings.EqualFold(res.Header.Get("Upgrade"), "websocket"):
		back.Close()
		release()
		http.Error(w, "member switched to an unexpected protocol", http.StatusBadGateway)
		return true
	}
	client, cbrw, err := http.NewResponseController(w).Hijack()
	if err != nil {
		back.Close()
		release()
		d.log.Error("tunnel: cannot take over the client connection", zap.Error(err))
		http.Error(w, "cannot switch protocols", http.StatusInternalServerError)
		return true
	}
	tn := &tunnel{client: client, back: back}
	if err := tn.handOver(res, cbrw, br); err != nil {
		client.Close()
		back.Close()
		release()
		d.log.Debug("tunnel: handshake relay failed", zap.Error(err))
		return true
	}
	release()
	d.tunnels.start(tn)
	return true
}

// dial connects to member at dial: a stream over the member's session
// when the proxy uses the peer link, else a TCP connection.
func (d *Direct) dial(ctx context.Context, member, dial string) (net.Conn, error) {
	if d.streams != nil {
		return d.streams.Open(ctx, member, dial)
	}
	var dialer net.Dialer
	return dialer.DialContext(ctx, "tcp", dial)
}

// handshake writes r's upgrade request to back (signed over the peer
// link) and reads the member's answer.
func (d *Direct) handshake(back net.Conn, br *bufio.Reader, r *http.Request, dial string, t dwkaffinity.Target) (*http.Response, error) {
	out := &http.Request{
		Method: r.Method,
		URL:    &url.URL{Scheme: "http", Host: dial, Path: r.URL.Path, RawPath: r.URL.RawPath, RawQuery: r.URL.RawQuery},
		Proto:  "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Host:   r.Host,
		Header: make(http.Header, len(r.Header)+6),
	}
	exclude := hopHeaders
	if listed := connectionTokens(r.Header); len(listed) > 0 {
		exclude = make(map[string]bool, len(hopHeaders)+len(listed))
		for k := range hopHeaders {
			exclude[k] = true
		}
		for _, k := range listed {
			exclude[http.CanonicalHeaderKey(k)] = true
		}
	}
	for k, v := range r.Header {
		if !exclude[k] {
			out.Header[k] = v
		}
	}
	out.Header["Connection"] = []string{"Upgrade"}
	out.Header["Upgrade"] = []string{"websocket"}
	setForwarded(out.Header, r, t)
	if d.link != nil {
		signed, err := d.link.Sign(out.WithContext(r.Context()))
		if err != nil {
			return nil, err
		}
		out = signed
	}
	if err := out.Write(back); err != nil {
		return nil, err
	}
	return http.ReadResponse(br, r)
}

// connectionTokens are the header names r's Connection header lists,
// other than "upgrade" and "keep-alive".
func connectionTokens(h http.Header) []string {
	var out []string
	for _, v := range h["Connection"] {
		for _, tok := range strings.Split(v, ",") {
			tok = strings.TrimSpace(tok)
			if tok != "" && !strings.EqualFold(tok, "upgrade") && !strings.EqualFold(tok, "keep-alive") {
				out = append(out, tok)
			}
		}
	}
	return out
}

// relay writes a member's non-101 answer to the client.
func relay(w http.ResponseWriter, res *http.Response) {
	h := w.Header()
	for k, v := range res.Header {
		if !hop[k] {
			h[k] = v
		}
	}
	w.WriteHeader(res.StatusCode)
	_, _ = io.Copy(w, io.LimitReader(res.Body, maxRelayedBody))
	res.Body.Close()
}
