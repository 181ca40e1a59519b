package lbbench

import (
	"context"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strconv"
	"time"

	"github.com/gorilla/websocket"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/membership"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/fleet/objectid"
	"github.com/dwk/fleet/appliance/fleet/peermux"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/caddy/frontdoor"
	"github.com/dwk/fleet/test/bench/libsqlproc"
)

// fleetName and secret of the benchmark fleet.
const (
	fleetName = "lbbench"
	secret    = "lbbench-fleet-secret-0123456789abcdef"
)

// env is everything a run measures: app servers registered as members,
// the front door of the first (which serves its requests in process) and a
// plain reverse proxy in front of them.
type env struct {
	libsql  *libsqlproc.Server
	store   *coord.Store
	apps    []*http.Server
	appURLs []string
	members []string // member ids; the front door is the first's
	fd      *frontdoor.FrontDoor
	fdURL   string
	rp      *http.Server
	rpURL   string
}

func setUp(ctx context.Context, o Options) (e *env, err error) {
	e = &env{}
	defer func() {
		if err != nil {
			e.tearDown()
		}
	}()
	if e.libsql, err = libsqlproc.Start(ctx, o.DWK); err != nil {
		return nil, err
	}
	admin, err := libsqladmin.New(libsqladmin.Config{URL: e.libsql.AdminURL})
	if err != nil {
		return nil, err
	}
	ns := namespaces.Coord(fleetName)
	if err := admin.Create(ctx, ns); err != nil {
		return nil, fmt.Errorf("create coordination database: %w", err)
	}
	c, err := hranaclient.New(hranaclient.Config{URL: e.libsql.URL, Namespace: ns})
	if err != nil {
		return nil, err
	}
	if e.store, err = coord.Open(ctx, c, coord.Options{}); err != nil {
		return nil, err
	}
	reg := membership.NewRegistry(e.store, nil)
	var self http.Handler
	for i := range o.Members {
		h := appHandler()
		if i == 0 {
			self = h
		}
		srv, u, err := serve(h)
		if err != nil {
			return nil, err
		}
		e.apps, e.appURLs = append(e.apps, srv), append(e.appURLs, u)
		e.members = append(e.members, "m"+strconv.Itoa(i+1))
		m := membership.Member{ID: e.members[i], State: membership.StateReady, Internal: hostOf(u), Started: time.Now()}
		if err := reg.Put(ctx, m, time.Hour); err != nil {
			return nil, err
		}
	}

	cfg := &config.Config{
		Fleet:   config.Fleet{Name: fleetName, Member: "m1", Secret: config.Literal(secret)},
		Listen:  config.Listen{Public: "127.0.0.1:0", Internal: hostOf(e.appURLs[0])},
		Storage: config.Storage{Mode: config.ModeCentral, LibSQL: &config.LibSQL{URL: e.libsql.URL}},
		Affinity: config.Affinity{Rules: []config.AffinityRule{
			{Namespace: "Counter", Path: "/counter/{name}/..."},
			{Namespace: "ChatRoom", Path: "/chat/rooms/{name}/..."},
		}},
		Drain: config.Drain{Timeout: config.Duration(5 * time.Second)},
	}
	cfg.ApplyDefaults()
	if e.fd, err = frontdoor.StartOptions(ctx, cfg, frontdoor.Options{LogLevel: "ERROR", App: self}); err != nil {
		return nil, err
	}
	e.fdURL = "http://" + e.fd.Addr().String()

	target, _ := url.Parse(e.appURLs[0])
	rp := httputil.NewSingleHostReverseProxy(target)
	// As many idle connections as clients, like the front door's
	// transport; the default (2 per host) would measure connection setup.
	rp.Transport = &http.Transport{MaxIdleConnsPerHost: 2 * o.Concurrency, IdleConnTimeout: time.Minute}
	// Cancelled client requests at the end of each load run are expected.
	rp.ErrorLog = log.New(io.Discard, "", 0)
	if e.rp, e.rpURL, err = serve(rp); err != nil {
		return nil, err
	}
	return e, nil
}

func (e *env) tearDown() {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if e.fd != nil {
		e.fd.Stop(ctx)
	}
	if e.rp != nil {
		e.rp.Close()
	}
	for _, s := range e.apps {
		s.Close()
	}
	if e.store != nil {
		e.store.Close(ctx)
	}
	if e.libsql != nil {
		e.libsql.Stop()
	}
}

// appHandler is a minimal app server: a short answer to requests, and an
// idle echo for WebSockets.
func appHandler() http.Handler {
	up := websocket.Upgrader{}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if websocket.IsWebSocketUpgrade(r) {
			c, err := up.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			for {
				mt, msg, err := c.ReadMessage()
				if err != nil {
					return
				}
				if err := c.WriteMessage(mt, msg); err != nil {
					return
				}
			}
		}
		io.Copy(io.Discard, r.Body)
		io.WriteString(w, "ok\n")
	})
}

// serve runs h on a loopback port; Close ends it and its connections.
func serve(h http.Handler) (*http.Server, string, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, "", err
	}
	// Like a replica's internal listener, it also serves the streams of
	// the sessions the front door opens for its WebSocket tunnels.
	streams := peermux.NewListener(ln.Addr())
	mux := http.NewServeMux()
	mux.Handle(peermux.Path, streams)
	mux.Handle("/", h)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go srv.Serve(ln)
	go srv.Serve(streams)
	return srv, "http://" + ln.Addr().String(), nil
}

func hostOf(u string) string {
	p, _ := url.Parse(u)
	return p.Host
}

// names returns n object names of namespace ns that placement puts on the
// front door's own member (local) or on another one.
func (e *env) names(ns string, n int, local bool) []string {
	out := make([]string, 0, n)
	for i := 0; len(out) < n; i++ {
		name := fmt.Sprintf("bench-%d", i)
		home := objectid.Pick(objectid.FromName([]byte(secret), ns, name), e.members)
		if (home == e.members[0]) == local {
			out = append(out, name)
		}
	}
	return out
}
