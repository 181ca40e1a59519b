package frontdoor

import (
	"errors"
	"fmt"
	"github.com/dwk/fleet/appliance/config"
	"net/http"
	"strings"
	"time"

	"github.com/dwk/fleet/caddy/dwkupstreams"
)

// Defaults of Options.
const (
	// DefaultRetries and DefaultTryInterval give a request about 5s to find
	// a replica that serves it: long enough for a draining holder to finish
	// its running events and hand its leases back, and for the new holder
	// to sync the object, on a loaded machine too.
	DefaultRetries     = 50
	DefaultTryInterval = 100 * time.Millisecond
	DefaultReplayBody  = 1 << 20
	DefaultDialTimeout = 2 * time.Second
	// DefaultFailDuration matches the membership heartbeat TTL: a member
	// that died without removing its record stays listed about that long.
	DefaultFailDuration = config.DefaultLeaseTTL
	DefaultMaxFails     = 2
)

// StreamBufferSize is the buffer each direction of a proxied upgraded
// connection (a WebSocket) copies through: small, because an idle tunnel
// holds both for as long as it lives.
const StreamBufferSize = 4 << 10

// DefaultSelfPaths returns the request paths a replica answers itself:
// /livez, /readyz and /_dwk/*.
func DefaultSelfPaths() []string { return []string{"/livez", "/readyz", "/_dwk/*"} }

// Options tune the front door beyond what dwk.json says. The zero value is
// the default.
type Options struct {
	// Address is the member address the front door dials: "internal" (the
	// members' app servers, listen.advertise) or "public" (their front
	// doors). Default: "internal".
	Address string
	// Refresh is the interval between member listings; a member that
	// starts draining leaves rotation within it. Default: 500ms.
	Refresh time.Duration
	// Retries is how many times a request may be retried on another
	// replica (see the package doc). Default: 50. Negative: none.
	Retries int
	// TryInterval is the wait before each retry. Default: 100ms.
	TryInterval time.Duration
	// ReplayBody is how many bytes of a request body are buffered so that
	// a retry can send it again. Default: 1 MiB. Negative: no buffering
	// (requests with bodies are then retried only after dial errors).
	ReplayBody int64
	// DialTimeout bounds connecting to a member; a member that does not
	// answer in time counts as failed and the request is retried on
	// another. Default: 2s.
	DialTimeout time.Duration
	// FailDuration is how long a failed attempt (dial or transport error,
	// not a retry answer) counts against a member; a member with MaxFails
	// failures in that window is not chosen until they expire. Default:
	// the default lease TTL. Negative: no passive health checks.
	FailDuration time.Duration
	// MaxFails is how many failures within FailDuration take a member out
	// of rotation. Default: 2.
	MaxFails int
	// SelfPaths are path patterns (Caddy path matcher syntax) answered by
	// this replica's own app server on listen.internal, not balanced over
	// the fleet. Default: DefaultSelfPaths(). An empty non-nil slice turns
	// the self route off.
	SelfPaths []string
	// StorageDir is where Caddy keeps certificates and ACME accounts
	// (automatic HTTPS only) when listen.tls.shared is false; by default
	// they are in the coordination database. Default: "<storage.data_dir>/caddy" when
	// data_dir is set, else Caddy's default data directory.
	StorageDir string
	// LogLevel is Caddy's log level: DEBUG, INFO, WARN or ERROR. Default:
	// DEBUG when log.level is "debug", ERROR when it is "error", else WARN
	// (Caddy's INFO lines are start-up chatter).
	LogLevel string
	// App is this replica's app server handler, the one listen.internal
	// serves. Requests the front door would send to this replica are then
	// handed to it in process (module dwk_direct), with no loopback hop.
	// Default: none (they go over listen.internal).
	App http.Handler
	// GracePeriod bounds how long Stop waits for proxied requests to
	// finish. Default: drain.timeout.
	GracePeriod time.Duration

	// caddyListen, when set, is where Caddy's server listens instead of
	// listen.public (the front door owns listen.public).
	caddyListen string
}

// ErrOptions wraps every problem Options.Validate reports.
var ErrOptions = errors.New("frontdoor: invalid options")

// Validate checks the options.
func (o Options) Validate() error {
	var errs []error
	switch o.Address {
	case "", dwkupstreams.AddressInternal, dwkupstreams.AddressPublic:
	default:
		errs = append(errs, fmt.Errorf("address must be %q or %q, not %q", dwkupstreams.AddressInternal, dwkupstreams.AddressPublic, o.Address))
	}
	if o.Refresh != 0 && o.Refresh < dwkupstreams.MinRefresh {
		errs = append(errs, fmt.Errorf("refresh %s is shorter than %s", o.Refresh, dwkupstreams.MinRefresh))
	}
	if o.TryInterval < 0 || o.GracePeriod < 0 || o.DialTimeout < 0 || o.MaxFails < 0 {
		errs = append(errs, errors.New("try interval, grace period, dial timeout and max fails must not be negative"))
	}
	switch strings.ToUpper(o.LogLevel) {
	case "", "DEBUG", "INFO", "WARN", "ERROR":
	default:
		errs = append(errs, fmt.Errorf("log level %q is not DEBUG, INFO, WARN or ERROR", o.LogLevel))
	}
	for _, p := range o.SelfPaths {
		if !strings.HasPrefix(p, "/") {
			errs = append(errs, fmt.Errorf("self path %q must start with '/'", p))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrOptions, err)
	}
	return nil
}
