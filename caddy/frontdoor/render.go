package frontdoor

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/headers"
	"github.com/caddyserver/caddy/v2/modules/caddyhttp/reverseproxy"
	"github.com/caddyserver/caddy/v2/modules/caddytls"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/protocol"
	"github.com/dwk/fleet/appliance/worker"
	"github.com/dwk/fleet/caddy/dwkaffinity"
	"github.com/dwk/fleet/caddy/dwkconns"
	"github.com/dwk/fleet/caddy/dwkdirect"
	"github.com/dwk/fleet/caddy/dwktransport"
	"github.com/dwk/fleet/caddy/dwkupstreams"
)

// ServerName is the name of the front door's server in the Caddy config.
const ServerName = "dwk"

// InternalPaths are the replicas' internal endpoints (forwarded object
// calls): the front door answers them 404, so that they are reachable only
// on the members' internal listeners.
const InternalPaths = "/_dwk/internal/*"

// retryExpression matches a retry answer (package protocol). The
// transport-error guard keeps a stale status of an earlier attempt from
// retrying a non-idempotent request whose own attempt failed in transit.
const retryExpression = `{http.reverse_proxy.status_code} == 503 && ` +
	`{http.reverse_proxy.header.` + protocol.RetryHeader + `} == "` + protocol.RetryValue + `" && ` +
	`{http.reverse_proxy.is_transport_error} != true`

// ErrConfig wraps every problem with dwk.json that keeps the front door
// from rendering.
var ErrConfig = errors.New("frontdoor: unusable configuration")

// Render returns the Caddy JSON config of the front door of cfg, which
// must be a validated central-mode configuration with defaults applied.
// Secrets read from the environment appear as {env.NAME} placeholders,
// others as values.
func Render(cfg *config.Config, o Options) ([]byte, error) {
	c, err := build(cfg, o)
	if err != nil {
		return nil, err
	}
	b, err := json.Marshal(c)
	if err != nil {
		return nil, fmt.Errorf("frontdoor: encode caddy config: %w", err)
	}
	return b, nil
}

func build(cfg *config.Config, o Options) (*caddy.Config, error) {
	if err := o.Validate(); err != nil {
		return nil, err
	}
	if cfg.Storage.Mode != config.ModeCentral {
		return nil, fmt.Errorf("%w: storage.mode is %q; the front door runs in central mode only", ErrConfig, cfg.Storage.Mode)
	}
	if cfg.Storage.LibSQL == nil || cfg.Storage.LibSQL.URL == "" {
		return nil, fmt.Errorf("%w: storage.libsql.url is required", ErrConfig)
	}
	if cfg.Listen.Public == "" {
		return nil, fmt.Errorf("%w: listen.public is required", ErrConfig)
	}
	secret, err := placeholderFor(cfg.Fleet.Secret)
	if err != nil {
		return nil, fmt.Errorf("%w: fleet.secret: %w", ErrConfig, err)
	}
	if secret == "" {
		return nil, fmt.Errorf("%w: fleet.secret is required", ErrConfig)
	}
	token, err := placeholderFor(cfg.Storage.LibSQL.AuthToken)
	if err != nil {
		return nil, fmt.Errorf("%w: storage.libsql.auth_token: %w", ErrConfig, err)
	}

	var warnings []caddyconfig.Warning
	routes := caddyhttp.RouteList{{
		MatcherSetsRaw: caddyhttp.RawMatcherSets{{"path": caddyconfig.JSON(caddyhttp.MatchPath{InternalPaths}, &warnings)}},
		HandlersRaw: []json.RawMessage{caddyconfig.JSONModuleObject(caddyhttp.StaticResponse{
			StatusCode: caddyhttp.WeakString(strconv.Itoa(http.StatusNotFound)),
		}, "handler", "static_response", &warnings)},
		Terminal: true,
	}}
	selfPaths := o.SelfPaths
	if selfPaths == nil {
		selfPaths = DefaultSelfPaths()
	}
	if len(selfPaths) > 0 {
		self, err := selfDial(cfg.Listen.Internal)
		if err != nil {
			return nil, err
		}
		routes = append(routes, caddyhttp.Route{
			MatcherSetsRaw: caddyhttp.RawMatcherSets{{"path": caddyconfig.JSON(caddyhttp.MatchPath(selfPaths), &warnings)}},
			HandlersRaw: []json.RawMessage{caddyconfig.JSONModuleObject(reverseproxy.Handler{
				Upstreams:    reverseproxy.UpstreamPool{{Dial: self}},
				TransportRaw: peerTransport(cfg, secret, cfg.Fleet.Member, reverseproxy.HTTPTransport{}, &warnings),
			}, "handler", "reverse_proxy", &warnings)},
			Terminal: true,
		})
	}
	routes = append(routes, caddyhttp.Route{
		HandlersRaw: []json.RawMessage{caddyconfig.JSONModuleObject(direct(cfg, o, fleetProxy(cfg, o, secret, token, &warnings), &warnings), "handler", "dwk_direct", &warnings)},
	})

	listen := cfg.Listen.Public
	if o.caddyListen != "" {
		listen = o.caddyListen
	}
	srv := &caddyhttp.Server{Listen: []string{listen}, Errors: errorRoutes(&warnings),
		// dwk_conns before TLS: tunnels copy through StreamBufferSize
		// buffers, and TLS connections stay *tls.Conn for net/http.
		ListenerWrappersRaw: []json.RawMessage{
			caddyconfig.JSONModuleObject(dwkconns.Wrapper{}, "wrapper", "dwk_conns", &warnings),
			caddyconfig.JSONModuleObject(struct{}{}, "wrapper", "tls", &warnings),
		}}
	app := caddyhttp.App{Servers: map[string]*caddyhttp.Server{ServerName: srv}}
	app.GracePeriod = caddy.Duration(cfg.Drain.Timeout.D())
	if o.GracePeriod > 0 {
		app.GracePeriod = caddy.Duration(o.GracePeriod)
	}
	persist := false
	out := &caddy.Config{
		Admin:   &caddy.AdminConfig{Disabled: true, Config: &caddy.ConfigSettings{Persist: &persist}},
		Logging: &caddy.Logging{Logs: map[string]*caddy.CustomLog{"default": defaultLog(cfg, o)}},
		AppsRaw: caddy.ModuleMap{},
	}
	if hasTLS(cfg) {
		if err := withTLS(out, &app, srv, &routes, cfg, o, &warnings); err != nil {
			return nil, err
		}
		out.StorageRaw = certStorage(cfg, o, secret, token, &warnings)
	} else {
		srv.AutoHTTPS = &caddyhttp.AutoHTTPSConfig{Disabled: true}
	}
	srv.Routes = routes
	out.AppsRaw["http"] = caddyconfig.JSON(app, &warnings)
	if len(warnings) > 0 {
		return nil, fmt.Errorf("frontdoor: encode caddy config: %s", warnings[0].Message)
	}
	return out, nil
}

// fleetProxy is the reverse proxy over the fleet's ready members.
func fleetProxy(cfg *config.Config, o Options, secret, token string, warnings *[]caddyconfig.Warning) reverseproxy.Handler {
	rules := make([]dwkaffinity.Rule, len(cfg.Affinity.Rules))
	for i, r := range cfg.Affinity.Rules {
		rules[i] = dwkaffinity.Rule{Namespace: r.Namespace, Path: r.Path, Header: r.Header, Query: r.Query}
	}
	src := dwkupstreams.Upstreams{
		URL: escapeBraces(cfg.Storage.LibSQL.URL), AuthToken: token, CAFile: cfg.Storage.LibSQL.CAFile, Fleet: cfg.Fleet.Name,
		Address: o.Address, Refresh: caddy.Duration(o.Refresh),
	}
	lb := &reverseproxy.LoadBalancing{
		SelectionPolicyRaw: caddyconfig.JSONModuleObject(dwkaffinity.Policy{Secret: secret, Rules: rules}, "policy", "dwk", warnings),
	}
	retries := o.Retries
	if retries == 0 {
		retries = DefaultRetries
	}
	if retries > 0 {
		lb.Retries = retries
		// No retry starts after the forward deadline: a GET whose attempt
		// waited out the response-header timeout at a frozen or cut-off
		// replica is answered, not sent to the same replica again.
		lb.TryDuration = caddy.Duration(cfg.Forward.Timeout.D())
		lb.TryInterval = caddy.Duration(DefaultTryInterval)
		if o.TryInterval > 0 {
			lb.TryInterval = caddy.Duration(o.TryInterval)
		}
		lb.RetryMatchRaw = caddyhttp.RawMatcherSets{
			{"method": caddyconfig.JSON(caddyhttp.MatchMethod{http.MethodGet, http.MethodHead, http.MethodOptions}, warnings)},
			{"expression": caddyconfig.JSON(retryExpression, warnings)},
		}
	}
	dial := DefaultDialTimeout
	if o.DialTimeout > 0 {
		dial = o.DialTimeout
	}
	h := reverseproxy.Handler{
		DynamicUpstreamsRaw: caddyconfig.JSONModuleObject(&src, "source", "dwk", warnings),
		TransportRaw: peerTransport(cfg, secret, "",
			reverseproxy.HTTPTransport{DialTimeout: caddy.Duration(dial), ResponseHeaderTimeout: caddy.Duration(cfg.Forward.Timeout.D())}, warnings),
		LoadBalancing: lb,
		// An idle tunnel (a WebSocket) holds two of these; with dwk_conns
		// they are what copies it.
		StreamBufferSize: StreamBufferSize,
		Headers: &headers.Handler{Request: &headers.HeaderOps{Set: http.Header{
			protocol.ObjectIDHeader: {"{" + dwkaffinity.PlaceholderObjectID + "}"},
		}}},
	}
	if o.FailDuration >= 0 {
		passive := &reverseproxy.PassiveHealthChecks{
			FailDuration: caddy.Duration(DefaultFailDuration), MaxFails: DefaultMaxFails,
		}
		if o.FailDuration > 0 {
			passive.FailDuration = caddy.Duration(o.FailDuration)
		}
		if o.MaxFails > 0 {
			passive.MaxFails = o.MaxFails
		}
		h.HealthChecks = &reverseproxy.HealthChecks{Passive: passive}
	}
	switch {
	case o.ReplayBody > 0:
		h.RequestBuffers = o.ReplayBody
	case o.ReplayBody == 0:
		h.RequestBuffers = DefaultReplayBody
	}
	return h
}

// direct wraps the fleet proxy p in the dwk_direct handler, with the
// same dial and answer deadlines, replay buffer and passive health.
func direct(cfg *config.Config, o Options, p reverseproxy.Handler, warnings *[]caddyconfig.Warning) dwkdirect.Direct {
	d := dwkdirect.Direct{
		ProxyRaw:        caddyconfig.JSONModuleObject(p, "handler", "reverse_proxy", warnings),
		Member:          cfg.Fleet.Member,
		App:             appName(cfg, o),
		DialTimeout:     caddy.Duration(DefaultDialTimeout),
		ResponseTimeout: caddy.Duration(cfg.Forward.Timeout.D()),
		ReplayBody:      p.RequestBuffers,
	}
	if o.DialTimeout > 0 {
		d.DialTimeout = caddy.Duration(o.DialTimeout)
	}
	if p.RequestBuffers == 0 {
		d.ReplayBody = -1
	}
	if hc := p.HealthChecks; hc != nil && hc.Passive != nil {
		d.FailDuration, d.MaxFails = hc.Passive.FailDuration, hc.Passive.MaxFails
	}
	return d
}

// peerTransport is the transport to members' internal listeners: the
// peer link (request MACs, mutual TLS with listen.internal_tls) over
// Caddy's HTTP transport; peer, when set, is the only member it reaches.
func peerTransport(cfg *config.Config, secret, peer string, ht reverseproxy.HTTPTransport, warnings *[]caddyconfig.Warning) json.RawMessage {
	t := dwktransport.Transport{HTTP: &ht, Secret: secret, Fleet: cfg.Fleet.Name, Member: cfg.Fleet.Member, Peer: peer}
	if it := cfg.Listen.InternalTLS; it != nil {
		t.CAFile, t.CertFile, t.KeyFile = it.CAFile, it.CertFile, it.KeyFile
	}
	return caddyconfig.JSONModuleObject(&t, "protocol", "dwk", warnings)
}

// withTLS turns on automatic HTTPS for the listed domains.
func withTLS(out *caddy.Config, app *caddyhttp.App, srv *caddyhttp.Server, routes *caddyhttp.RouteList, cfg *config.Config, o Options, warnings *[]caddyconfig.Warning) error {
	t := cfg.Listen.TLS
	_, port, err := net.SplitHostPort(cfg.Listen.Public)
	if err != nil {
		return fmt.Errorf("%w: listen.public %q: %w", ErrConfig, cfg.Listen.Public, err)
	}
	p, err := strconv.Atoi(port)
	if err != nil {
		return fmt.Errorf("%w: listen.public %q: port is not a number", ErrConfig, cfg.Listen.Public)
	}
	app.HTTPSPort = p
	// Redirects from HTTP need port 80; only a front door on 443 is
	// assumed to have it.
	srv.AutoHTTPS = &caddyhttp.AutoHTTPSConfig{DisableRedir: p != 443}
	// The fleet route answers the listed domains only, which is also what
	// tells automatic HTTPS which certificates to get; the self route
	// answers any host, for health checks by address.
	host := caddy.ModuleMap{"host": caddyconfig.JSON(caddyhttp.MatchHost(t.Domains), warnings)}
	for i := range *routes {
		if r := &(*routes)[i]; len(r.MatcherSetsRaw) == 0 {
			r.MatcherSetsRaw = caddyhttp.RawMatcherSets{host}
		}
	}
	if t.Email != "" || t.ACMECA != "" || t.ACMECARoot != "" {
		iss := caddytls.ACMEIssuer{Email: t.Email, CA: t.ACMECA}
		if t.ACMECARoot != "" {
			iss.TrustedRootsPEMFiles = []string{t.ACMECARoot}
		}
		tlsApp := caddytls.TLS{Automation: &caddytls.AutomationConfig{Policies: []*caddytls.AutomationPolicy{{
			SubjectsRaw: t.Domains,
			IssuersRaw:  []json.RawMessage{caddyconfig.JSONModuleObject(iss, "module", "acme", warnings)},
		}}}}
		out.AppsRaw["tls"] = caddyconfig.JSON(tlsApp, warnings)
	}
	return nil
}

// selfDial is the address of this replica's app server as seen from this
// process: listen.internal with a wildcard host made loopback.
func selfDial(internal string) (string, error) {
	host, port, err := net.SplitHostPort(internal)
	if err != nil || port == "" {
		return "", fmt.Errorf("%w: listen.internal %q must be host:port", ErrConfig, internal)
	}
	switch host {
	case "", "0.0.0.0":
		host = "127.0.0.1"
	case "::":
		host = "::1"
	}
	return net.JoinHostPort(host, port), nil
}

// quietBelowDebug are the Caddy loggers left out of the log unless the
// level is DEBUG. The reverse proxy encodes the whole request into a child
// logger on every round trip, whatever the level (about 5% of the front
// door's CPU); the failures it would log also reach the client as an
// error status, and the server's error log.
var quietBelowDebug = []string{"http.handlers.reverse_proxy"}

// defaultLog is Caddy's log.
func defaultLog(cfg *config.Config, o Options) *caddy.CustomLog {
	l := &caddy.CustomLog{BaseLog: caddy.BaseLog{Level: logLevel(cfg, o)}}
	if l.Level != "DEBUG" {
		l.Exclude = quietBelowDebug
	}
	return l
}

// appName is the name the in-process app is registered under
// (dwkdirect.Register), or "" when o has none.
func appName(cfg *config.Config, o Options) string {
	if o.App == nil {
		return ""
	}
	return cfg.Fleet.Name + "/" + cfg.Fleet.Member
}

// logLevel is Caddy's log level for cfg's log.level.
func logLevel(cfg *config.Config, o Options) string {
	if o.LogLevel != "" {
		return strings.ToUpper(o.LogLevel)
	}
	switch cfg.Log.Level {
	case "debug":
		return "DEBUG"
	case "error":
		return "ERROR"
	}
	return "WARN"
}

// errorRoutes answer the front door's own errors (no replica could serve
// the request, every retry was used, the forward deadline passed) with
// their status and message; a 503 also gets Retry-After, so a client can
// tell an outage it should retry from a failure.
func errorRoutes(warnings *[]caddyconfig.Warning) *caddyhttp.HTTPErrorConfig {
	respond := caddyconfig.JSONModuleObject(caddyhttp.StaticResponse{
		StatusCode: caddyhttp.WeakString("{http.error.status_code}"),
		Body:       "{http.error.status_text}: {http.error.message}\n",
		Close:      true,
	}, "handler", "static_response", warnings)
	retryAfter := caddyconfig.JSONModuleObject(&headers.Handler{Response: &headers.RespHeaderOps{HeaderOps: &headers.HeaderOps{
		Set: http.Header{"Retry-After": {worker.RetryAfter}},
	}}}, "handler", "headers", warnings)
	return &caddyhttp.HTTPErrorConfig{Routes: caddyhttp.RouteList{
		{
			MatcherSetsRaw: caddyhttp.RawMatcherSets{{"expression": caddyconfig.JSON("{http.error.status_code} == 503", warnings)}},
			HandlersRaw:    []json.RawMessage{retryAfter},
		},
		{HandlersRaw: []json.RawMessage{respond}},
	}}
}
