package server

import (
	"context"
	"errors"
	"net/http"
	"time"

	"github.com/dwk/fleet/appliance/fleet/lease"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/worker"
)

// ObjectReport is what GET /admin/objects/lease returns: who holds one
// object now and its recent lease history.
type ObjectReport struct {
	// Class and Name are what was looked up.
	Class string `json:"class"`
	Name  string `json:"name"`
	// ID is the object's id (hex), as its lease keys name it.
	ID string `json:"id"`
	// Held is false when no replica holds the object now; otherwise
	// Holder, Addr and Epoch are the lease record's.
	Held   bool   `json:"held"`
	Holder string `json:"holder,omitempty"`
	Addr   string `json:"addr,omitempty"`
	Epoch  int64  `json:"epoch,omitempty"`
	// ExpiresInSeconds is how long the lease lasts unless its holder's heartbeat goes on.
	ExpiresInSeconds float64 `json:"expires_in_seconds,omitempty"`
	// History is the object's recent tenures, newest first (see
	// lease.History).
	History []lease.Tenure `json:"history"`
}

// errNotCentral answers the routes that need a fleet in local mode.
var errNotCentral = errors.New("this replica runs in local mode: it has no fleet, leases or peers")

// objectLease serves GET /admin/objects/lease?class=<class>&name=<name>:
// the lease read fresh from the coordination store, and its history.
func objectLease(a *app) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		f, ok := a.fleet.(*centralFleet)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": errNotCentral.Error()})
			return
		}
		q := r.URL.Query()
		class, name := q.Get("class"), q.Get("name")
		if class == "" || name == "" {
			writeJSON(w, http.StatusBadRequest, map[string]string{"error": "want ?class=<object class>&name=<object name>"})
			return
		}
		if _, ok := worker.LookupObject(class); !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no object class " + class + " in this binary"})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), reportTimeout)
		defer cancel()
		id := objectid.FromName(f.secret, class, name).String()
		rep := ObjectReport{Class: class, Name: name, ID: id}
		rec, held, err := f.leases.Current(ctx, class, id)
		if err == nil && held {
			rep.Held, rep.Holder, rep.Addr, rep.Epoch = true, rec.Holder, rec.Addr, rec.Epoch
			if !rec.Expires.IsZero() {
				rep.ExpiresInSeconds = max(0, time.Until(rec.Expires).Seconds())
			}
		}
		if err == nil {
			rep.History, err = lease.History(ctx, f.coord, class, id)
		}
		if err != nil {
			writeJSON(w, http.StatusServiceUnavailable, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusOK, rep)
	})
}

// drainMember serves POST /admin/members/{id}/drain: this replica drains
// itself, or asks the member's admin API to drain it (with this replica's
// admin token, which the fleet shares).
func (s *Server) drainMember(a *app, token string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.PathValue("id")
		if id == s.member {
			s.RequestDrain()
			writeJSON(w, http.StatusAccepted, map[string]string{"status": "draining"})
			return
		}
		f, ok := a.fleet.(*centralFleet)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": errNotCentral.Error()})
			return
		}
		m, ok := f.view.Get(id)
		if !ok {
			writeJSON(w, http.StatusNotFound, map[string]string{"error": "no member " + id + " in the fleet"})
			return
		}
		base, client, err := s.peerAdmin(m, token)
		if err != nil {
			writeJSON(w, http.StatusInternalServerError, map[string]string{"error": err.Error()})
			return
		}
		if base == "" {
			writeJSON(w, http.StatusConflict, map[string]string{"error": "member " + id + " has no admin listener"})
			return
		}
		ctx, cancel := context.WithTimeout(r.Context(), reportTimeout)
		defer cancel()
		if err := client.Call(ctx, http.MethodPost, base, "/admin/drain", nil); err != nil {
			writeJSON(w, http.StatusBadGateway, map[string]string{"error": err.Error()})
			return
		}
		writeJSON(w, http.StatusAccepted, map[string]string{"status": "draining"})
	})
}
