package hranaclient

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Config configures a Client.
type Config struct {
	// URL is the server's base URL: http(s)://host[:port][/path]. libsql://
	// means https:// (Turso's form); ws:// and wss:// map to http(s)://.
	URL string `json:"url"`
	// AuthToken is sent as "Authorization: Bearer <token>" when not empty.
	AuthToken string `json:"auth_token"`
	// Namespace is sent as the x-namespace header when not empty. Against
	// Turso or sqld without namespaces, leave it empty and give the
	// database's own URL. Default: "".
	Namespace string `json:"namespace"`
	// HTTPClient sends the requests. Default: a client of its own with
	// keep-alive connections sized for concurrent use (64 idle per host).
	HTTPClient *http.Client `json:"-"`
	// CAFile, when set, is the PEM CA certificate(s) an https:// or
	// wss:// server's certificate must chain to, instead of the system's
	// roots (a copy of HTTPClient is made to trust it). Default: "".
	CAFile string `json:"ca_file"`
	// Timeout bounds every call that has no earlier deadline in its
	// context. Default: 10s. Negative: no default deadline.
	Timeout time.Duration `json:"timeout"`
	// MaxAttempts is how often a request that was never sent (dial error)
	// is tried. Default: 3.
	MaxAttempts int `json:"max_attempts"`
	// OnRoundTrip, when set, is called once for every HTTP request sent,
	// e.g. to count them in a Prometheus counter. It must be fast and safe
	// for concurrent use.
	OnRoundTrip func() `json:"-"`
}

// Validate checks the configuration.
func (c *Config) Validate() error {
	if c.URL == "" {
		return errors.New("hranaclient: url is required")
	}
	if _, err := baseURL(c.URL); err != nil {
		return err
	}
	if c.MaxAttempts < 0 {
		return fmt.Errorf("hranaclient: max_attempts %d is negative", c.MaxAttempts)
	}
	return nil
}

// Client sends Hrana requests to one database. It is safe for concurrent
// use and holds no goroutines; idle connections belong to its HTTPClient.
type Client struct {
	base        string
	token       string
	namespace   string
	hc          *http.Client
	timeout     time.Duration
	maxAttempts int
	onRoundTrip func()
	// shared between a client and those derived with WithNamespace.
	shared *shared
}

type shared struct {
	roundTrips atomic.Uint64
	// wsTransport is the HTTP transport's copy WebSocket dials take their
	// TLS settings and dialer from, made once (see WSStream.dial).
	wsTransportOnce sync.Once
	wsTransport     *http.Transport
	// v2 is set once the server turned out to lack /v3/pipeline.
	v2 atomic.Bool
}

// New returns a client for cfg, filling defaults. It does no I/O.
func New(cfg Config) (*Client, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	base, _ := baseURL(cfg.URL)
	hc := cfg.HTTPClient
	if hc == nil {
		hc = defaultHTTPClient()
	}
	if cfg.CAFile != "" {
		var err error
		if hc, err = WithCA(hc, cfg.CAFile); err != nil {
			return nil, err
		}
	}
	timeout := cfg.Timeout
	if timeout == 0 {
		timeout = 10 * time.Second
	}
	attempts := cfg.MaxAttempts
	if attempts == 0 {
		attempts = 3
	}
	return &Client{
		base: base, token: cfg.AuthToken, namespace: cfg.Namespace,
		hc: hc, timeout: timeout, maxAttempts: attempts, onRoundTrip: cfg.OnRoundTrip,
		shared: &shared{},
	}, nil
}

// WithNamespace returns a client for another namespace of the same server.
// It shares the HTTP client, the settings and the round-trip counter.
func (c *Client) WithNamespace(ns string) *Client {
	d := *c
	d.namespace = ns
	return &d
}

// Namespace is the namespace the client addresses ("" for none).
func (c *Client) Namespace() string { return c.namespace }

// CloseIdleConnections closes the idle keep-alive connections of the
// client's HTTP client, which the clients derived with WithNamespace
// share. Calls made afterwards open new connections.
func (c *Client) CloseIdleConnections() { c.hc.CloseIdleConnections() }

// RoundTrips is the number of HTTP requests sent so far by this client and
// the clients derived from it, retries included.
func (c *Client) RoundTrips() uint64 { return c.shared.roundTrips.Load() }

// baseURL normalises a server URL to http(s)://host/path without a
// trailing slash.
func baseURL(raw string) (string, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return "", fmt.Errorf("hranaclient: url %q: %w", raw, err)
	}
	switch u.Scheme {
	case "http", "https":
	case "libsql", "wss":
		u.Scheme = "https"
	case "ws":
		u.Scheme = "http"
	default:
		return "", fmt.Errorf("hranaclient: url %q: scheme must be http, https, libsql, ws or wss", raw)
	}
	if u.Host == "" {
		return "", fmt.Errorf("hranaclient: url %q has no host", raw)
	}
	u.RawQuery, u.Fragment = "", ""
	return strings.TrimRight(u.String(), "/"), nil
}

// dialTimeout bounds opening a connection: the client's timeout, at most
// the dial timeout of the default HTTP client.
func (c *Client) dialTimeout() time.Duration {
	if c.timeout > 0 && c.timeout < dialTimeout {
		return c.timeout
	}
	return dialTimeout
}

// dialTimeout is the default HTTP client's, and bounds WebSocket dials.
const dialTimeout = 5 * time.Second

// defaultHTTPClient keeps enough idle connections for many concurrent
// callers: with Go's default of 2 per host, every burst would open and
// close connections.
func defaultHTTPClient() *http.Client {
	return &http.Client{Transport: &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: dialTimeout, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}}
}
