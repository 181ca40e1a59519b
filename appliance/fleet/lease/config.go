package lease

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/appliance/process/metrics"
)

// Defaults and limits of Config.
const (
	// DefaultTTL is the lease TTL when Config.TTL is zero.
	DefaultTTL = config.DefaultLeaseTTL
	// DefaultLookupCacheTTL is how long Lookup answers are cached when
	// Config.LookupCacheTTL is zero.
	DefaultLookupCacheTTL = time.Second
	// MinTTL is the shortest TTL Validate accepts.
	MinTTL = config.MinLeaseTTL
)

// Config configures a Manager. Zero optional fields select their default.
type Config struct {
	// Coord is the coordination store the leases live in. Required. Its
	// client's round-trip counter counts every round trip the manager
	// makes.
	Coord *coord.Store
	// Member is this replica's member id, written as the holder of its
	// leases. Required. It must be unique among live replicas; a replica
	// that restarts with the same id takes over the leases its previous
	// incarnation left (with a new epoch, which fences the old one).
	Member string
	// Addr is this replica's internal address (host:port) other replicas
	// forward object requests to. Required.
	Addr string
	// TTL is how long the member's liveness record, and so every lease it
	// holds, lives on the server after each heartbeat. Default:
	// config.DefaultLeaseTTL; at least MinTTL.
	TTL time.Duration
	// RenewInterval is how often the heartbeat keeps every held lease (one
	// round trip). Default: TTL/3. Must be less than TTL - Margin.
	RenewInterval time.Duration
	// Margin is how much earlier than the server the holder counts a lease
	// as lost, to absorb clock-rate differences and scheduling delays.
	// Default: TTL/5. Must be less than TTL.
	Margin time.Duration
	// LookupCacheTTL is how long Lookup answers from its cache. Default:
	// 1s. Negative: no cache.
	LookupCacheTTL time.Duration
	// Clock is the local time source; lease expiry on the server never
	// uses it. Default: clock.System.
	Clock clock.Clock
	// Logger receives lost leases and failed heartbeats. Default:
	// slog.Default().
	Logger *slog.Logger
	// Metrics, when set, receives LeasesHeld, LeaseAcquisitions and
	// LeasesLost.
	Metrics *metrics.Metrics
}

// withDefaults returns c with unset optional fields filled in.
func (c Config) withDefaults() Config {
	if c.TTL == 0 {
		c.TTL = DefaultTTL
	}
	if c.RenewInterval == 0 {
		c.RenewInterval = c.TTL / 3
	}
	if c.Margin == 0 {
		c.Margin = c.TTL / 5
	}
	if c.LookupCacheTTL == 0 {
		c.LookupCacheTTL = DefaultLookupCacheTTL
	}
	if c.Clock == nil {
		c.Clock = clock.System{}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Validate reports every problem of a config (after defaults) at once.
func (c Config) Validate() error {
	var errs []error
	if c.Coord == nil {
		errs = append(errs, errors.New("coordination store is required"))
	}
	if c.Member == "" {
		errs = append(errs, errors.New("member id is required"))
	}
	if c.Addr == "" {
		errs = append(errs, errors.New("internal address is required"))
	}
	if c.TTL < MinTTL {
		errs = append(errs, fmt.Errorf("ttl %s is shorter than %s", c.TTL, MinTTL))
	}
	if c.Margin <= 0 || c.Margin >= c.TTL {
		errs = append(errs, fmt.Errorf("margin %s must be positive and less than the ttl %s", c.Margin, c.TTL))
	}
	if c.RenewInterval <= 0 || c.RenewInterval >= c.TTL-c.Margin {
		errs = append(errs, fmt.Errorf("renew interval %s must be positive and less than ttl - margin (%s)", c.RenewInterval, c.TTL-c.Margin))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("lease config: %w", err)
	}
	return nil
}
