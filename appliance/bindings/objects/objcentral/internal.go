package objcentral

import (
	"context"
	"encoding/base64"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"

	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

// InternalPrefix is the path under which a replica's internal listener
// serves forwarded object requests:
//
//	/_dwk/internal/objects/<class>/<id hex>/<original path>?<original query>
const InternalPrefix = "/_dwk/internal/objects/"

// MaxHops is how often one request may be forwarded: once to the replica
// the sender believed holds (or should take) the object, and once more if
// the lease moved meanwhile. A replica that receives a request at MaxHops
// takes the object if it is free and answers 503 if it is held elsewhere.
const MaxHops = 2

// Headers of forwarded requests. The receiving side removes them before
// the object sees the request; a client cannot inject them because only
// authenticated internal calls are read.
const (
	// headerHops is how often the request has been forwarded (1 or 2).
	headerHops = "Dwk-Forward-Hops"
	// headerName carries the object's name (base64url), so an object
	// first started by a forwarded request knows it.
	headerName = "Dwk-Object-Name"
	// headerAuth carries the client's own Authorization header while the
	// internal key occupies it.
	headerAuth = "Dwk-Forwarded-Authorization"
	// headerRPC names the method of a forwarded RPC call
	// (worker.WithRPCMethod on the sending side's context).
	headerRPC = "Dwk-Rpc-Method"
)

// Namespacer binds object classes; *objects.Runtime implements it.
type Namespacer interface {
	// Namespace returns the namespace of class; see
	// objects.Runtime.Namespace. It is called once per class.
	Namespace(bindingName, className string) (worker.ObjectNamespace, error)
}

// InternalHandler serves forwarded object requests, WebSocket upgrades
// included, for the runtime rt; mount it at InternalPrefix on the
// internal listener, behind the peer link's handler (peerlink.Link.Handler),
// which refuses requests not signed by a replica of the fleet.
// A request for a class rt cannot bind gets 404, a malformed one 400.
// Each request goes to the object through the runtime like a local
// request, marked as forwarded so that the placer takes the object here
// rather than forwarding it back.
func InternalHandler(rt Namespacer) http.Handler {
	return &internalHandler{rt: rt, ns: map[string]worker.ObjectNamespace{}}
}

type internalHandler struct {
	rt Namespacer
	mu sync.Mutex
	ns map[string]worker.ObjectNamespace
}

// namespace binds class once and caches the namespace (binding wakes the
// runtime's alarm scheduler, which should not happen per request).
func (h *internalHandler) namespace(class string) (worker.ObjectNamespace, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if ns, ok := h.ns[class]; ok {
		return ns, nil
	}
	ns, err := h.rt.Namespace("forwarded "+class, class)
	if err != nil {
		return nil, err
	}
	h.ns[class] = ns
	return ns, nil
}

// ServeHTTP hands one forwarded request to the object's stub.
func (h *internalHandler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	rest, ok := strings.CutPrefix(r.URL.EscapedPath(), InternalPrefix)
	classEsc, rest, ok2 := strings.Cut(rest, "/")
	idHex, origEsc, _ := strings.Cut(rest, "/")
	if !ok || !ok2 || idHex == "" {
		http.Error(w, "dwk internal: want "+InternalPrefix+"<class>/<id>/<path>", http.StatusNotFound)
		return
	}
	origEsc = "/" + origEsc
	class, err1 := url.PathUnescape(classEsc)
	path, err2 := url.PathUnescape(origEsc)
	hops, err3 := strconv.Atoi(r.Header.Get(headerHops))
	if err1 != nil || err2 != nil || err3 != nil || hops < 1 || hops > MaxHops {
		http.Error(w, "dwk internal: malformed forwarded request (path escaping or "+headerHops+")", http.StatusBadRequest)
		return
	}
	ns, err := h.namespace(class)
	if err != nil {
		http.Error(w, "dwk internal: "+err.Error(), http.StatusNotFound)
		return
	}
	id, err := ns.IDFromString(idHex)
	if err != nil {
		http.Error(w, "dwk internal: "+err.Error(), http.StatusBadRequest)
		return
	}
	if enc := r.Header.Get(headerName); enc != "" {
		if name, err := base64.RawURLEncoding.DecodeString(enc); err == nil {
			if named := ns.IDFromName(string(name)); named.Equal(id) {
				id = named
			}
		}
	}
	ctx := withForwarded(r.Context(), id, hops)
	if _, ok := r.Header[headerRPC]; ok {
		ctx = worker.WithRPCMethod(ctx, r.Header.Get(headerRPC))
	}
	r2 := r.Clone(ctx)
	r2.URL.Path, r2.URL.RawPath = path, ""
	if origEsc != r2.URL.EscapedPath() {
		r2.URL.RawPath = origEsc
	}
	r2.RequestURI = r2.URL.RequestURI()
	r2.Header.Del("Authorization")
	if v := r2.Header.Values(headerAuth); len(v) > 0 {
		r2.Header["Authorization"] = v
	}
	for _, k := range []string{headerAuth, headerHops, headerName, headerRPC} {
		r2.Header.Del(k)
	}
	ns.Get(id).ServeHTTP(w, r2)
}

// forwardMark records in a request's context that it was forwarded for
// one object, and how often.
type forwardMark struct {
	ns   string
	id   objectid.ID
	hops int
}

type forwardKey struct{}

func withForwarded(ctx context.Context, id worker.ObjectID, hops int) context.Context {
	return context.WithValue(ctx, forwardKey{}, forwardMark{ns: id.Namespace(), id: objectid.ID(id.Bytes()), hops: hops})
}

// hopsFor is how often the request of ctx was forwarded for object id
// (0 if it was not, or was forwarded for another object whose code now
// calls id).
func hopsFor(ctx context.Context, id worker.ObjectID) int {
	m, ok := ctx.Value(forwardKey{}).(forwardMark)
	if !ok || m.ns != id.Namespace() || m.id != objectid.ID(id.Bytes()) {
		return 0
	}
	return m.hops
}

// forwardedHere reports whether ctx is a request forwarded to this replica
// for object id.
func forwardedHere(ctx context.Context, id worker.ObjectID) bool { return hopsFor(ctx, id) > 0 }
