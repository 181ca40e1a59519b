package d1central

import (
	"fmt"
	"net"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/worker"
)

// DB is one D1 database in one libSQL database (sqld namespace). It is
// safe for concurrent use; calls are independent of each other (each uses
// a Hrana stream of its own, closed before it returns).
type DB struct {
	cfg    Config
	client *hranaclient.Client
	own    *http.Transport // the transport to close, if the DB made it

	nsMu    sync.Mutex // serialises Config.CreateNamespace
	nsReady atomic.Bool
	// bookmarkReady: the bookmark table is known to exist, so batches no
	// longer carry the step that creates it.
	bookmarkReady atomic.Bool

	mu     sync.RWMutex // guards closed against calls entering
	closed bool
	calls  sync.WaitGroup // calls in flight, and the stream closes they left
}

var _ worker.D1Backend = (*DB)(nil)

// Open returns the D1 database cfg describes. It does no I/O: the server
// is first reached, and the namespace created if cfg says so, on the first
// call. The caller closes the DB.
func Open(cfg Config) (*DB, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("d1central: config: %w", err)
	}
	cfg = cfg.withDefaults()
	db := &DB{cfg: cfg}
	hc := cfg.HTTPClient
	if hc == nil {
		db.own = newTransport()
		if cfg.CAFile != "" {
			if err := hranaclient.TrustCA(db.own, cfg.CAFile); err != nil {
				return nil, fmt.Errorf("d1central: %w", err)
			}
		}
		hc = &http.Client{Transport: db.own}
	}
	client, err := hranaclient.New(hranaclient.Config{
		URL:         cfg.URL,
		AuthToken:   cfg.AuthToken,
		Namespace:   cfg.Namespace,
		CAFile:      caFileUnlessOwn(cfg.CAFile, db.own),
		HTTPClient:  hc,
		Timeout:     cfg.Timeout,
		OnRoundTrip: cfg.OnRoundTrip,
	})
	if err != nil {
		return nil, fmt.Errorf("d1central: %w", err)
	}
	db.client = client
	return db, nil
}

// newTransport is the transport of a DB without Config.HTTPClient: enough
// idle connections for a busy replica's requests to one server (net/http
// keeps 2 per host).
func newTransport() *http.Transport {
	return &http.Transport{
		Proxy:                 http.ProxyFromEnvironment,
		DialContext:           (&net.Dialer{Timeout: 5 * time.Second, KeepAlive: 30 * time.Second}).DialContext,
		ForceAttemptHTTP2:     true,
		MaxIdleConns:          256,
		MaxIdleConnsPerHost:   64,
		IdleConnTimeout:       90 * time.Second,
		TLSHandshakeTimeout:   10 * time.Second,
		ExpectContinueTimeout: time.Second,
	}
}

// Namespace returns the libSQL namespace that holds the database.
func (db *DB) Namespace() string { return db.cfg.Namespace }

// RoundTrips returns the number of HTTP requests the DB has sent to the
// libSQL server, retries included (not those of Config.CreateNamespace,
// which go to the admin API).
func (db *DB) RoundTrips() uint64 { return db.client.RoundTrips() }

// Close waits for the calls in flight to finish (each request is bounded
// by Config.Timeout), then closes the idle connections of the DB's own
// transport. Calls after Close fail with ErrClosed. Close is idempotent.
func (db *DB) Close() error {
	db.mu.Lock()
	db.closed = true
	db.mu.Unlock()
	db.calls.Wait()
	if db.own != nil {
		db.own.CloseIdleConnections()
	}
	return nil
}

// enter admits a call, or fails with ErrClosed; an admitted call ends with
// db.calls.Done().
func (db *DB) enter() error {
	db.mu.RLock()
	defer db.mu.RUnlock()
	if db.closed {
		return ErrClosed
	}
	db.calls.Add(1)
	return nil
}

// caFileUnlessOwn is the CA file for the Hrana client: none when the DB's
// own transport already trusts it.
func caFileUnlessOwn(file string, own *http.Transport) string {
	if own != nil {
		return ""
	}
	return file
}
