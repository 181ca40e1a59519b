package dwkdirect

import (
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/url"
	"sync"
	"time"

	"go.uber.org/zap"

	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/caddy/dwkaffinity"
)

// Defaults of the forwarder.
const (
	DefaultResponseTimeout = 10 * time.Second
	// maxIdlePerMember bounds the idle keep-alive connections kept to each
	// member.
	maxIdlePerMember = 256
	idleConnTimeout  = 90 * time.Second
)

// newTransport is the forwarder's transport to the members: HTTP/1.1,
// no compression (bodies pass through as they are), keep-alive; over the
// peer link (signed requests, mutual TLS) when link is set.
func newTransport(dial, response time.Duration, link *peerlink.Link) http.RoundTripper {
	base := &http.Transport{
		DialContext:           (&net.Dialer{Timeout: dial, KeepAlive: 30 * time.Second}).DialContext,
		MaxIdleConnsPerHost:   maxIdlePerMember,
		IdleConnTimeout:       idleConnTimeout,
		ResponseHeaderTimeout: response,
		DisableCompression:    true,
		ForceAttemptHTTP2:     false,
	}
	if link == nil {
		return base
	}
	return link.Transport(base, func(r *http.Request) (string, bool) {
		m, ok := r.Context().Value(memberKey{}).(string)
		return m, ok
	})
}

// memberKey is the context key of the member a forward goes to.
type memberKey struct{}

// watchFunc starts watching the member a forward went to; it calls
// lapsed when the member stops holding the object, until ctx ends.
type watchFunc func(ctx context.Context, lapsed func())

// forward sends r to the member at dial once, and relays its answer. When
// the member answers with a retry answer, or cannot be dialled, r is
// replayed with retry if its body was kept (or it had none); a member
// that does not answer in time gets the client a 504. With watch set, a
// member that stops holding the object while the answer is awaited ends
// the wait at once (see lapsed).
func (d *Direct) forward(w http.ResponseWriter, r *http.Request, member, dial string, t dwkaffinity.Target, watch watchFunc, retry func(http.ResponseWriter, *http.Request, string) error) error {
	ctx, lapse := watched(context.WithValue(r.Context(), memberKey{}, member), watch)
	defer lapse.end()
	out := *r.WithContext(ctx)
	out.URL = cloneURL(r, dial)
	out.RequestURI = ""
	out.Close = false
	removeHopHeaders(out.Header)
	setForwarded(out.Header, r, t)

	var kept *replayBody
	hasBody := r.Body != nil && r.Body != http.NoBody
	if hasBody {
		if d.ReplayBody > 0 {
			kept = &replayBody{src: r.Body, limit: d.ReplayBody}
		}
		// The transport closes the body it sends; the server closes the
		// client's when the handler ends, so a replay can still read it.
		out.Body = noClose{bodyOf(kept, r.Body)}
	}
	res, err := d.transport.RoundTrip(&out)
	lapse.answered()
	if err != nil && lapse.fired() {
		return d.lapsed(w, r, dial, lapse.sent(), kept, hasBody, retry)
	}
	if err != nil {
		return d.forwardFailed(w, r, dial, err, kept, hasBody, retry)
	}
	if protocol.IsRetry(res.StatusCode, res.Header) && (!hasBody || !kept.overLimit()) {
		res.Body.Close()
		if kept != nil {
			r.Body = kept.replay()
		}
		return retry(w, r, dial)
	}
	d.fails.reset(dial)
	return relayResponse(w, res)
}

// forwardFailed answers a round trip that failed: dial errors and, for
// requests that may be sent twice, broken connections are replayed with
// retry; a timeout is a 504; a client that went away gets nothing.
func (d *Direct) forwardFailed(w http.ResponseWriter, r *http.Request, dial string, err error, kept *replayBody, hasBody bool, retry func(http.ResponseWriter, *http.Request, string) error) error {
	if r.Context().Err() != nil {
		return nil
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() && !isDialError(err) {
		d.log.Debug("member did not answer in time", zap.String("upstream", dial), zap.Error(err))
		http.Error(w, "Gateway Timeout: the replica did not answer in time", http.StatusGatewayTimeout)
		return nil
	}
	d.fails.add(dial)
	if hasBody && (kept == nil || kept.overLimit()) {
		http.Error(w, "Bad Gateway: "+err.Error(), http.StatusBadGateway)
		return nil
	}
	if !isDialError(err) && !idempotent(r.Method) {
		http.Error(w, "Bad Gateway: "+err.Error(), http.StatusBadGateway)
		return nil
	}
	if kept != nil {
		r.Body = kept.replay()
	}
	return retry(w, r, dial)
}

// relayResponse copies a member's answer to the client; a copy that fails
// midway aborts the client's connection, so the client sees a cut answer.
func relayResponse(w http.ResponseWriter, res *http.Response) error {
	defer res.Body.Close()
	h := w.Header()
	for k, v := range res.Header {
		if !hop[k] {
			h[k] = v
		}
	}
	if len(res.Trailer) > 0 {
		for k := range res.Trailer {
			h.Add("Trailer", k)
		}
	}
	w.WriteHeader(res.StatusCode)
	buf := buffers.Get().(*[]byte)
	defer buffers.Put(buf)
	streaming := res.ContentLength < 0
	for {
		n, rerr := res.Body.Read(*buf)
		if n > 0 {
			if _, werr := w.Write((*buf)[:n]); werr != nil {
				panic(http.ErrAbortHandler)
			}
			if streaming {
				_ = http.NewResponseController(w).Flush()
			}
		}
		if rerr == io.EOF {
			break
		}
		if rerr != nil {
			panic(http.ErrAbortHandler)
		}
	}
	for k, v := range res.Trailer {
		h[http.TrailerPrefix+k] = v
	}
	return nil
}

// setForwarded sets the headers the front door adds to what it passes
// on: the client's address, scheme and host, and the object id.
func setForwarded(h http.Header, r *http.Request, t dwkaffinity.Target) {
	if ip, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		h["X-Forwarded-For"] = []string{ip}
	}
	proto := "http"
	if r.TLS != nil {
		proto = "https"
	}
	h["X-Forwarded-Proto"] = []string{proto}
	h["X-Forwarded-Host"] = []string{r.Host}
	h[protocol.ObjectIDHeader] = []string{t.ID.String()}
}

// cloneURL is r's URL pointed at the member at dial.
func cloneURL(r *http.Request, dial string) *url.URL {
	u := *r.URL
	u.Scheme, u.Host = "http", dial
	return &u
}

// removeHopHeaders drops hop-by-hop headers, and those the Connection
// header names.
func removeHopHeaders(h http.Header) {
	for _, k := range connectionTokens(h) {
		delete(h, http.CanonicalHeaderKey(k))
	}
	for k := range hop {
		delete(h, k)
	}
}

func idempotent(method string) bool {
	return method == http.MethodGet || method == http.MethodHead || method == http.MethodOptions
}

// isDialError reports whether err happened before anything was sent: a
// failed dial, or (over the peer link) a failed handshake or an unknown
// member.
func isDialError(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "dial" || peerlink.Unsent(err)
}

// bodyOf is kept when set, else body.
func bodyOf(kept *replayBody, body io.ReadCloser) io.Reader {
	if kept != nil {
		return kept
	}
	return body
}

// noClose is a request body whose Close does nothing.
type noClose struct{ io.Reader }

func (noClose) Close() error { return nil }

// fails counts recent failed dials per member, so that a member that
// cannot be reached is left to the reverse proxy (and its passive health
// checks) for a while instead of costing every request a dial.
type fails struct {
	mu     sync.Mutex
	recent map[string][]time.Time
	window time.Duration
	max    int
}

func (f *fails) add(dial string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.recent == nil {
		f.recent = make(map[string][]time.Time)
	}
	f.recent[dial] = append(f.pruned(dial, time.Now()), time.Now())
}

func (f *fails) reset(dial string) {
	f.mu.Lock()
	if len(f.recent) > 0 {
		delete(f.recent, dial)
	}
	f.mu.Unlock()
}

// down reports whether dial failed max times within the window.
func (f *fails) down(dial string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.recent) == 0 {
		return false
	}
	return len(f.pruned(dial, time.Now())) >= f.max
}

func (f *fails) pruned(dial string, now time.Time) []time.Time {
	ts := f.recent[dial]
	i := 0
	for i < len(ts) && now.Sub(ts[i]) > f.window {
		i++
	}
	ts = ts[i:]
	if len(ts) == 0 {
		delete(f.recent, dial)
	}
	return ts
}
