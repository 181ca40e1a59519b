package server

import (
	"context"
	"crypto/subtle"
	"errors"
	"net/http"
	"strings"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/process/buildinfo"
	"github.com/dwk/fleet/appliance/server/fleetpage"
	"github.com/dwk/fleet/appliance/worker"
)

// StatusReport is what GET /admin/status returns, and what `dwk status`
// prints for each member.
type StatusReport struct {
	Member     string    `json:"member"`
	Fleet      string    `json:"fleet"`
	Mode       string    `json:"mode"`
	State      State     `json:"state"`
	Version    string    `json:"version"`
	Schema     int       `json:"schema"`
	Public     string    `json:"public"`
	Internal   string    `json:"internal,omitempty"`
	ConfigHash string    `json:"config_hash"`
	Started    time.Time `json:"started"`
	// Leases is how many object leases the replica holds (central mode).
	Leases int `json:"leases"`
	// InFlight is how many requests the replica is serving.
	InFlight int64 `json:"in_flight"`
	// WebSockets is how many object WebSockets are open on the replica.
	WebSockets int `json:"websockets"`
}

// objectReleaser hands one object back; *objects.Runtime implements it,
// in both storage modes.
type objectReleaser interface {
	// ReleaseName stops the object named name of class on this replica
	// and releases its lease; see objects.Runtime.ReleaseName.
	ReleaseName(ctx context.Context, class, name string) (bool, error)
	// Release is ReleaseName for an object known by its id.
	Release(ctx context.Context, id worker.ObjectID) (bool, error)
}

var _ objectReleaser = (*objects.Runtime)(nil)

// adminHandler serves the admin listener: /metrics and the health
// endpoints without auth; the fleet page (package fleetpage) with its
// sign-in form; and /admin/* behind the admin token, as a bearer token or
// the fleet page's session cookie. Without a configured token every
// /admin/ call is refused with 403, saying how to enable it. The object
// routes answer 404 when a's runtime cannot release objects.
func (s *Server) adminHandler(token string, a *app) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	mux.Handle("GET /livez", s.health(http.NotFoundHandler()))
	mux.Handle("GET /readyz", s.health(http.NotFoundHandler()))
	mux.Handle("/", fleetpage.Handler(token))
	admin := func(pattern string, h http.Handler) { mux.Handle(pattern, s.requireToken(token, h)) }
	admin("GET /admin/status", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.Status())
	}))
	admin("POST /admin/drain", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s.RequestDrain()
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "draining"})
	}))
	rel, _ := a.objects.(objectReleaser)
	admin("POST /admin/objects/release", releaseObject(rel))
	admin("GET /admin/fleet", http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusOK, s.fleetReport(r.Context(), a, token))
	}))
	admin("GET /admin/objects/lease", objectLease(a))
	admin("POST /admin/members/{id}/drain", s.drainMember(a, token))
	admin("GET /admin/tail", s.tailStream(a, token))
	// Anything else under /admin/ is refused without a token too, rather
	// than falling through to the page.
	admin("/admin/", http.NotFoundHandler())
	return mux
}

// startingAdmin serves the admin listener while the replica opens its
// stores: metrics and health, and 503 for the rest.
func (s *Server) startingAdmin() http.Handler {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", s.metrics.Handler())
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": "starting: the replica is opening its stores; try again shortly"})
	})
	return s.health(mux)
}

// handlerSwitch serves with the handler last set; set it before serving.
type handlerSwitch struct{ h atomic.Pointer[http.Handler] }

func (sw *handlerSwitch) set(h http.Handler) { sw.h.Store(&h) }

func (sw *handlerSwitch) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	(*sw.h.Load()).ServeHTTP(w, r)
}

// releaseObject serves POST /admin/objects/release?class=<class>&name=<name>
// (or &id=<hex id> for an object known by its id, as dwk migrate knows it):
// the object stops on this replica once its running events have finished
// (its WebSockets are closed with 1012) and its lease is released, so
// another replica may take it at once. The answer is {"released": true}
// when this replica was running the object, {"released": false} when it
// was not. The next request for the object starts it again wherever
// placement puts it.
func releaseObject(rel objectReleaser) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if rel == nil {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "this replica runs no objects"})
			return
		}
		q := r.URL.Query()
		class, name, hexID := q.Get("class"), q.Get("name"), q.Get("id")
		if class == "" || (name == "") == (hexID == "") {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "want ?class=<object class>&name=<object name>, or &id=<object id> instead of name"})
			return
		}
		var released bool
		var err error
		if hexID != "" {
			id, perr := worker.ParseObjectID(class, hexID)
			if perr != nil {
				writeJSON(w, http.StatusBadRequest, map[string]string{"error": "id: " + perr.Error()})
				return
			}
			released, err = rel.Release(r.Context(), id)
		} else {
			released, err = rel.ReleaseName(r.Context(), class, name)
		}
		switch {
		case errors.Is(err, objects.ErrUnknownClass):
			writeJSON(w, http.StatusNotFound, map[string]string{"error": err.Error()})
		case err != nil:
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": err.Error()})
		default:
			writeJSON(w, http.StatusOK, map[string]bool{"released": released})
		}
	})
}

// requireToken lets a request through only with "Authorization: Bearer
// <token>" or the fleet page's session cookie for token.
func (s *Server) requireToken(token string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if token == "" {
			writeJSON(w, http.StatusForbidden, map[string]string{"error": "admin API disabled: set admin.token in dwk.json"})
			return
		}
		got, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
		bearer := ok && subtle.ConstantTimeCompare([]byte(got), []byte(token)) == 1
		if !bearer && !fleetpage.SignedIn(r, token) {
			w.Header().Set("WWW-Authenticate", `Bearer realm="dwk admin"`)
			writeJSON(w, http.StatusUnauthorized, map[string]string{"error": "missing or wrong admin token (Authorization: Bearer <admin.token>)"})
			return
		}
		next.ServeHTTP(w, r)
	})
}

// Status reports the replica's identity and state.
func (s *Server) Status() StatusReport {
	st := StatusReport{
		Member: s.member, Fleet: s.cfg.Fleet.Name, Mode: s.cfg.Storage.Mode, State: s.State(),
		Version: buildinfo.Version(), Schema: buildinfo.SchemaVersion, Internal: s.cfg.Listen.Advertise,
		ConfigHash: s.configHash, Started: s.started,
	}
	if a := s.Addr(); a != nil {
		st.Public = a.String()
	}
	st.InFlight = s.inFlight.Load()
	if a := s.live.Load(); a != nil {
		if f, ok := a.fleet.(*centralFleet); ok {
			st.Leases = f.leases.Count()
		}
		if o, ok := a.objects.(objectStats); ok {
			st.WebSockets = o.Stats().WebSockets
		}
	}
	return st
}
