package cronlease

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/cron"
	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// DefaultTTL is how long the record of a done tick lives.
const DefaultTTL = 24 * time.Hour

// DefaultClaimTTL is how long a claim lives unless its winner renews it
// (every third of it) or records the tick done.
const DefaultClaimTTL = 10 * time.Second

// Sentinel errors. Test with errors.Is.
var (
	// ErrConfig: New was given no store, no member id or a bad TTL.
	ErrConfig = errors.New("cronlease: invalid config")
)

// Options tune a Claimer. The zero value is the default.
type Options struct {
	// TTL is how long the record of a done tick lives, by the libSQL
	// server's clock. It must exceed how late any replica could still
	// claim a tick (cron.MaxGrace). Default: 24h.
	TTL time.Duration
	// ClaimTTL is how long a won claim lives, by the libSQL server's
	// clock, unless its winner renews it or records the tick done; once
	// it lapses another replica may take the tick over. Default: 10s.
	ClaimTTL time.Duration
}

// Claimer grants each tick to one replica of the fleet. It is safe for
// concurrent use and owns no goroutines.
type Claimer struct {
	store    *coord.Store
	member   string
	ttl      time.Duration
	claimTTL time.Duration
	// nonce makes this process's tokens its own: a claim of the same tick
	// again (the scheduler retries failed claims) carries the same token,
	// so it recognises an earlier claim of its own that landed, while a
	// restarted replica never mistakes its predecessor's claim for its own.
	nonce [16]byte
}

var _ cron.TickClaimer = (*Claimer)(nil)

// New returns the claimer of replica member over the fleet's coordination
// store.
func New(store *coord.Store, member string, o Options) (*Claimer, error) {
	switch {
	case store == nil:
		return nil, fmt.Errorf("%w: no coordination store", ErrConfig)
	case member == "":
		return nil, fmt.Errorf("%w: no member id", ErrConfig)
	case o.TTL < 0:
		return nil, fmt.Errorf("%w: ttl %s is negative", ErrConfig, o.TTL)
	case o.ClaimTTL < 0:
		return nil, fmt.Errorf("%w: claim ttl %s is negative", ErrConfig, o.ClaimTTL)
	}
	if o.TTL == 0 {
		o.TTL = DefaultTTL
	}
	if o.ClaimTTL == 0 {
		o.ClaimTTL = DefaultClaimTTL
	}
	if o.ClaimTTL >= o.TTL {
		return nil, fmt.Errorf("%w: claim ttl %s is not shorter than ttl %s", ErrConfig, o.ClaimTTL, o.TTL)
	}
	c := &Claimer{store: store, member: member, ttl: o.TTL, claimTTL: o.ClaimTTL}
	if _, err := rand.Read(c.nonce[:]); err != nil {
		return nil, fmt.Errorf("cronlease: random nonce: %w", err)
	}
	return c, nil
}

// Key is the coordination key of the lease of one tick of schedule (a
// cron.Entry.Key).
func Key(schedule string, tick time.Time) tuple.Key {
	return tuple.Key{"cron", "tick", schedule, tick.UnixMilli()}
}

// Lease is the value of a tick lease.
type Lease struct {
	// Member is the replica that won the tick.
	Member string `json:"member"`
	// Token identifies the winning claim.
	Token string `json:"token"`
	// Done is set once the winner ran the tick; the lease then lives for
	// the TTL, and no replica claims the tick again.
	Done bool `json:"done,omitempty"`
}

// maxAttempts bounds the commits of one Claim whose answers were lost.
const maxAttempts = 3

// Claim asks to run tick of schedule: one atomic round trip when it wins,
// two when the tick is taken (the lease is read back: it may be this
// process's own earlier claim, whose answer was lost, or a done tick).
// A claim lives for the ClaimTTL unless renewed; a lease that lapsed is
// absent to the check, so the same round trip takes the tick over. When
// a commit's answer is lost, Claim reads the lease back: if it holds this
// claim's token the tick is won; if there is no lease the commit is sent
// again with the same token. The token is the same for every Claim of
// one tick by this process, so a Claim that the scheduler repeats after
// an error finds a claim of its own that landed.
func (c *Claimer) Claim(ctx context.Context, schedule string, tick time.Time) (cron.Claim, error) {
	key := Key(schedule, tick)
	lease := c.lease(schedule, tick)
	value, err := json.Marshal(lease)
	if err != nil {
		return cron.Claim{}, c.errorf(schedule, tick, fmt.Errorf("encode lease: %w", err))
	}
	held := func(vs coord.Versionstamp) cron.Claim {
		return cron.Claim{Held: &heldTick{c: c, key: key, lease: lease, running: value, vs: vs}}
	}
	for attempt := 1; ; attempt++ {
		res, err := c.store.Atomic().Check(key, 0).Set(key, value, c.claimTTL).Commit(ctx)
		if err == nil && res.OK {
			return held(res.Versionstamp), nil
		}
		if err != nil && !errors.Is(err, coord.ErrOutcomeUnknown) {
			return cron.Claim{}, c.errorf(schedule, tick, err)
		}
		// The check failed (another replica's claim, or this process's
		// own earlier one, which landed late), or the answer was lost.
		l, e, rerr := c.holder(ctx, key)
		switch {
		case rerr != nil && err != nil:
			return cron.Claim{}, c.errorf(schedule, tick, fmt.Errorf("%w; reading the lease back: %w", err, rerr))
		case rerr != nil:
			return cron.Claim{}, c.errorf(schedule, tick, rerr)
		case e.Exists() && l.Token == lease.Token && !l.Done:
			return held(e.Versionstamp), nil
		case e.Exists() && l.Done:
			return cron.Claim{}, nil
		case e.Exists():
			return cron.Claim{Retry: c.claimTTL / 2}, nil
		case attempt == maxAttempts && err != nil:
			return cron.Claim{}, c.errorf(schedule, tick, fmt.Errorf("%d commits with lost answers: %w", attempt, err))
		case attempt == maxAttempts:
			return cron.Claim{Retry: c.claimTTL / 2}, nil
		}
		// Absent: the commit did not land, or the claim lapsed just now.
	}
}

func (c *Claimer) errorf(schedule string, tick time.Time, err error) error {
	return fmt.Errorf("claim cron tick %s of %q: %w", tick.UTC().Format(time.RFC3339Nano), schedule, err)
}

// Holder returns the lease of tick of schedule, if a replica won it.
func (c *Claimer) Holder(ctx context.Context, schedule string, tick time.Time) (Lease, bool, error) {
	l, e, err := c.holder(ctx, Key(schedule, tick))
	if err != nil {
		return Lease{}, false, fmt.Errorf("read cron tick lease of %q at %s: %w", schedule, tick.UTC().Format(time.RFC3339Nano), err)
	}
	return l, e.Exists(), nil
}

func (c *Claimer) holder(ctx context.Context, key tuple.Key) (Lease, coord.Entry, error) {
	e, err := c.store.Get(ctx, key)
	if err != nil || !e.Exists() {
		return Lease{}, e, err
	}
	var l Lease
	if err := json.Unmarshal(e.Value, &l); err != nil {
		return Lease{}, e, fmt.Errorf("decode lease: %w", err)
	}
	return l, e, nil
}

// lease returns this process's lease of one tick.
func (c *Claimer) lease(schedule string, tick time.Time) Lease {
	h := sha256.New()
	h.Write(c.nonce[:])
	fmt.Fprintf(h, "%s\x00%d", schedule, tick.UnixMilli())
	return Lease{Member: c.member, Token: hex.EncodeToString(h.Sum(nil)[:12])}
}
