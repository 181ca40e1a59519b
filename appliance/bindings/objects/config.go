package objects

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/process/clock"
	"github.com/dwk/fleet/appliance/worker"
)

// Config configures a Runtime. The zero value of every optional field
// selects its default.
type Config struct {
	// Secret is the fleet secret ids are derived with (see package
	// objectid). Required; every replica of a fleet must use the same one.
	Secret []byte
	// Store opens object databases. Required.
	Store ObjectStore
	// Alarms indexes alarms across objects. Required.
	Alarms AlarmIndex
	// Placer decides where objects run. Default: Here (always this replica).
	Placer Placer
	// Forwarder delivers requests for objects another replica holds.
	// Default: none; such requests fail with 503 (never happens with Here).
	Forwarder Forwarder
	// Env returns the Env object instances of class are constructed with
	// (the bindings of the worker that hosts the class). Called lazily, when
	// an instance starts. Default: an Env with no bindings.
	Env func(class string) *worker.Env
	// Clock is the time source of the scheduler and the janitor.
	// Default: the system clock.
	Clock clock.Clock
	// Logger receives the runtime's logs. Default: slog.Default().
	Logger *slog.Logger

	// IdleTimeout is how long an instance with no events and no open
	// WebSockets stays in memory, and how long one whose class is
	// worker.Hibernatable stays awake with only its WebSockets open.
	// Default: 60s.
	IdleTimeout time.Duration
	// MaxWebSocketMessage caps one incoming WebSocket message; a bigger one
	// closes the socket with 1009. Default: 32 MiB, as in Cloudflare.
	MaxWebSocketMessage int64
	// AlarmPollInterval is how often the scheduler asks the index for due
	// alarms it was not told about: set on other replicas, left from before
	// a restart, or whose run or claim failed. Alarms set or retried on
	// this replica fire on a timer at their time. Default: 1s.
	AlarmPollInterval time.Duration
	// AlarmRetryBase is the delay, from the failure, before the first
	// retry of a failed alarm; each further retry doubles it. Default: 2s.
	AlarmRetryBase time.Duration
	// AlarmMaxRetries is how many times a failing alarm is retried before it
	// is dropped. Default: 6.
	AlarmMaxRetries int
	// AlarmConcurrency caps alarms running at once. Default: 16.
	AlarmConcurrency int
	// MoveTimeout bounds how long a stub's Fetch keeps replaying a request
	// that ran nowhere because its object was moving (its holder drains,
	// stopped or cannot be reached: a retry answer) before it returns that
	// answer. Central mode sets forward.timeout. Default:
	// config.DefaultForwardTimeout.
	MoveTimeout time.Duration
}

// Defaults of Config.
const (
	DefaultIdleTimeout         = 60 * time.Second
	DefaultAlarmPollInterval   = time.Second
	DefaultAlarmRetryBase      = 2 * time.Second
	DefaultMaxWebSocketMessage = 32 << 20
	DefaultAlarmMaxRetries     = 6
	DefaultAlarmConcurrency    = 16
)

// withDefaults returns c with every unset optional field filled in.
func (c Config) withDefaults() Config {
	if c.Placer == nil {
		c.Placer = Here{}
	}
	if c.Env == nil {
		c.Env = func(class string) *worker.Env { return worker.NewEnv(class, worker.Bindings{}) }
	}
	if c.Clock == nil {
		c.Clock = clock.System{}
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	if c.IdleTimeout == 0 {
		c.IdleTimeout = DefaultIdleTimeout
	}
	if c.MaxWebSocketMessage == 0 {
		c.MaxWebSocketMessage = DefaultMaxWebSocketMessage
	}
	if c.AlarmPollInterval == 0 {
		c.AlarmPollInterval = DefaultAlarmPollInterval
	}
	if c.AlarmRetryBase == 0 {
		c.AlarmRetryBase = DefaultAlarmRetryBase
	}
	if c.AlarmMaxRetries == 0 {
		c.AlarmMaxRetries = DefaultAlarmMaxRetries
	}
	if c.AlarmConcurrency == 0 {
		c.AlarmConcurrency = DefaultAlarmConcurrency
	}
	if c.MoveTimeout == 0 {
		c.MoveTimeout = config.DefaultForwardTimeout
	}
	return c
}

// Validate reports every problem of a config (after defaults) at once.
func (c Config) Validate() error {
	var errs []error
	if len(c.Secret) == 0 {
		errs = append(errs, errors.New("secret is required"))
	}
	if c.Store == nil {
		errs = append(errs, errors.New("store is required"))
	}
	if c.Alarms == nil {
		errs = append(errs, errors.New("alarm index is required"))
	}
	for name, d := range map[string]time.Duration{
		"idle timeout": c.IdleTimeout, "alarm poll interval": c.AlarmPollInterval, "alarm retry base": c.AlarmRetryBase,
	} {
		if d < 0 {
			errs = append(errs, fmt.Errorf("%s must not be negative, got %s", name, d))
		}
	}
	if c.AlarmMaxRetries < 0 {
		errs = append(errs, fmt.Errorf("alarm max retries must not be negative, got %d", c.AlarmMaxRetries))
	}
	if c.AlarmConcurrency < 0 {
		errs = append(errs, fmt.Errorf("alarm concurrency must not be negative, got %d", c.AlarmConcurrency))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("objects config: %w", err)
	}
	return nil
}
