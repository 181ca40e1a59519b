package objcentral

import (
	"context"
	"encoding/base64"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httputil"
	"strconv"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/fleet/peerlink"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/process/metrics"
	"github.com/dwk/fleet/appliance/worker"
)

// ForwarderConfig configures a Forwarder.
type ForwarderConfig struct {
	// Link signs forwarded requests and, with TLS, dials the holder's
	// internal listener over mutual TLS. Required.
	Link *peerlink.Link
	// Resolve names the member at a holder's internal address, whose
	// certificate the holder must present. Required with TLS.
	Resolve peerlink.Resolver
	// Transport is the base forwarded requests are sent with, the link on
	// top of it. Default: a transport like http.DefaultTransport keeping
	// 64 idle connections per replica, with HeaderTimeout.
	Transport *http.Transport
	// HeaderTimeout bounds the wait for the holder's response headers
	// (forward.timeout) on the default transport: a frozen or cut-off
	// holder costs a request at most this long, and it is answered 504.
	// Zero: no bound.
	HeaderTimeout time.Duration
	// Placer, when set, forgets its cached lookup of an object whose
	// holder could not be reached, so the next request looks again.
	Placer *Placer
	// Watch, when set, watches each forward's holder: one that stops
	// holding the object before it answers ends the wait at once, with a
	// 504 if a connection took the request (it may have run), else the
	// retry answer (nothing ran).
	Watch WatchFunc
	// Metrics, when set, counts forwards by result (forwardResults), every
	// series exported from the start at 0.
	Metrics *metrics.Metrics
	// Logger receives failed forwards. Default: slog.Default().
	Logger *slog.Logger
}

// Forwarder is the central objects.Forwarder: it proxies a request,
// WebSocket upgrades included, to the object's holder at
// <holder>/_dwk/internal/objects/<class>/<id><original path> over the link, with
// the original query, method, headers and body. The response streams back
// unbuffered. A request that has already been forwarded MaxHops times
// (ErrForwardLoop) is answered with the front door's retry answer, since it
// ran nowhere. A holder that cannot be reached yields 503 with
// Retry-After: the request may be retried.
type Forwarder struct {
	proxy   *httputil.ReverseProxy
	placer  *Placer
	watch   WatchFunc
	metrics *metrics.Metrics
	log     *slog.Logger
}

var _ objects.Forwarder = (*Forwarder)(nil)

// NewForwarder returns a forwarder for cfg. It does no I/O.
func NewForwarder(cfg ForwarderConfig) *Forwarder {
	if cfg.Logger == nil {
		cfg.Logger = slog.Default()
	}
	base := cfg.Transport
	if base == nil {
		t := http.DefaultTransport.(*http.Transport).Clone()
		t.MaxIdleConnsPerHost = 64
		t.ResponseHeaderTimeout = cfg.HeaderTimeout
		base = t
	}
	f := &Forwarder{placer: cfg.Placer, watch: cfg.Watch, metrics: cfg.Metrics, log: cfg.Logger.With("component", "objcentral")}
	if f.metrics != nil {
		for _, r := range forwardResults {
			f.metrics.Forwards.WithLabelValues(r)
		}
	}
	f.proxy = &httputil.ReverseProxy{
		Rewrite:        rewrite,
		Transport:      cfg.Link.Transport(base, cfg.Resolve),
		FlushInterval:  -1,
		ErrorHandler:   f.failed,
		ModifyResponse: f.answered,
		ErrorLog:       slog.NewLogLogger(cfg.Logger.Handler(), slog.LevelWarn),
	}
	return f
}

// target is where one forward goes, passed to rewrite in the context.
type target struct {
	id     worker.ObjectID
	holder string
	hops   int
}

type targetKey struct{}

// Forward implements objects.Forwarder.
func (f *Forwarder) Forward(w http.ResponseWriter, r *http.Request, id worker.ObjectID, holder string) {
	hops := hopsFor(r.Context(), id)
	if hops >= MaxHops {
		f.count("loop")
		f.log.Warn("object request not forwarded again", "object", id, "holder", holder, "hops", hops,
			"err", fmt.Sprintf("%v: object %s moved to %s while this request was being forwarded", ErrForwardLoop, id, holder))
		// Nothing ran: the object moved on at every hop. The retry answer
		// lets the front door replay the request, by then to the holder.
		protocol.WriteRetry(w)
		return
	}
	ctx, end := watchForward(r.Context(), f.watch, id, holder)
	defer end()
	ctx = context.WithValue(ctx, targetKey{}, target{id: id, holder: holder, hops: hops + 1})
	f.proxy.ServeHTTP(w, r.WithContext(ctx))
}

// rewrite points the outgoing request at the holder's internal handler.
func rewrite(pr *httputil.ProxyRequest) {
	t := pr.In.Context().Value(targetKey{}).(target)
	out := pr.Out
	base := InternalPrefix + t.id.Namespace() + "/" + t.id.String()
	path, escaped := pr.In.URL.Path, pr.In.URL.EscapedPath()
	if len(path) == 0 || path[0] != '/' {
		path, escaped = "/"+path, "/"+escaped
	}
	out.URL.Scheme, out.URL.Host, out.URL.User = "http", t.holder, nil
	out.URL.Path, out.URL.RawPath = base+path, ""
	if escaped != path {
		out.URL.RawPath = base + escaped
	}
	out.Host = pr.In.Host
	pr.SetXForwarded()
	out.Header.Del(headerAuth)
	if v := pr.In.Header.Values("Authorization"); len(v) > 0 {
		out.Header[headerAuth] = v
	}
	out.Header.Del("Authorization")
	out.Header.Set(headerHops, strconv.Itoa(t.hops))
	out.Header.Del(headerRPC) // only a call made here names a method
	if m, ok := worker.RPCMethod(pr.In.Context()); ok {
		out.Header.Set(headerRPC, m)
	}
	out.Header.Del(headerName)
	if name := t.id.Name(); name != "" {
		out.Header.Set(headerName, base64.RawURLEncoding.EncodeToString([]byte(name)))
	}
}

// answered counts a response from the holder. A 503 may mean the holder
// drains or lost the object: the cached lookup is dropped so the next
// request looks the lease up again.
func (f *Forwarder) answered(resp *http.Response) error {
	answeredWatch(resp.Request.Context())
	f.count("ok")
	if resp.StatusCode == http.StatusServiceUnavailable && f.placer != nil {
		if t, ok := resp.Request.Context().Value(targetKey{}).(target); ok {
			f.placer.Invalidate(t.id)
		}
	}
	return nil
}

// failed answers a forward that got no response from the holder.
func (f *Forwarder) failed(w http.ResponseWriter, r *http.Request, err error) {
	t, _ := r.Context().Value(targetKey{}).(target)
	if lapsed, sent := lapsedForward(r.Context()); lapsed {
		f.count("lapsed")
		if f.placer != nil {
			f.placer.Invalidate(t.id)
		}
		if !sent {
			protocol.WriteRetry(w)
			return
		}
		http.Error(w, fmt.Sprintf("object %s: its replica %s stopped holding it before it answered; the request may have run", t.id, t.holder), http.StatusGatewayTimeout)
		return
	}
	if errors.Is(err, context.Canceled) && r.Context().Err() != nil {
		// The client went away.
		f.count("canceled")
		return
	}
	f.count("error")
	if f.placer != nil {
		f.placer.Invalidate(t.id)
	}
	level := slog.LevelWarn
	if objects.Replaying(r.Context()) {
		level = slog.LevelDebug // the stub logs the call's outcome
	}
	f.log.Log(r.Context(), level, "forward object request failed", "object", t.id, "holder", t.holder, "err", err)
	var op *net.OpError
	if errors.As(err, &op) && op.Op == "dial" || peerlink.Unsent(err) {
		// Nothing reached the holder (it exited or restarts): the front
		// door may replay the request, which then finds the new holder.
		protocol.WriteRetry(w)
		return
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		// The holder took the request and did not answer in time (frozen,
		// cut off, or too slow): it may have run, so it is not replayed.
		http.Error(w, fmt.Sprintf("object %s: its replica %s did not answer within the forward deadline: %v", t.id, t.holder, err), http.StatusGatewayTimeout)
		return
	}
	// The request reached the holder, which went away before it answered
	// (it exited, or the connection broke): it may have run.
	http.Error(w, fmt.Sprintf("object %s: its replica %s did not answer; the request may have run: %v", t.id, t.holder, err), http.StatusBadGateway)
}

// forwardResults are the results forwards are counted by: answered by the
// holder, a loop refused, the client gone, the holder unreachable, the
// holder's hold on the object lapsed before it answered.
var forwardResults = []string{"ok", "loop", "canceled", "error", "lapsed"}

func (f *Forwarder) count(result string) {
	if f.metrics != nil {
		f.metrics.Forwards.WithLabelValues(result).Inc()
	}
}
