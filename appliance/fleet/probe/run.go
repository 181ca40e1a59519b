package probe

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// step is one check: what it needs to have passed before it, and what it
// does. fn returns a detail for the report, or an *Error, or errSkip
// wrapped with a reason.
type step struct {
	name  string
	needs []string
	fn    func(ctx context.Context) (string, error)
}

// errSkip marks a check that did not apply (no admin URL configured).
var errSkip = errors.New("skipped")

// prober holds one Run's state: the config, the report under
// construction, and what earlier checks found for later ones.
type prober struct {
	cfg    Config
	report Report

	nsMissing bool // libsql: the coordination namespace does not exist
	store     *coord.Store
}

// Run runs the checks in order and returns the report; the error is the
// first failure (an *Error), or a Config problem wrapping ErrConfig.
// Without cfg.Diagnose it stops at the first failure and reports the rest
// as skipped.
func Run(ctx context.Context, cfg Config) (Report, error) {
	cfg, err := cfg.withDefaults()
	if err != nil {
		return Report{}, err
	}
	p := &prober{cfg: cfg}
	defer p.close()
	start := cfg.Now()
	steps := []step{
		{CheckLibSQL, nil, p.checkLibSQL},
		{CheckLibSQLAdmin, nil, p.checkAdmin},
		{CheckMarker, []string{CheckLibSQL}, p.checkMarker},
		{CheckFleet, []string{CheckMarker}, p.checkFleet},
		{CheckSchema, []string{CheckMarker}, p.checkSchema},
		{CheckBucket, nil, p.checkBucket},
		{CheckBucketMarker, []string{CheckMarker, CheckBucket}, p.checkBucketMarker},
		{CheckClock, []string{CheckLibSQL}, p.checkClock},
	}
	if cfg.Diagnose {
		steps = append(steps, step{CheckCAS, []string{CheckLibSQL}, p.checkCAS})
	}
	var failed string
	for _, s := range steps {
		if failed != "" && !cfg.Diagnose {
			p.add(Result{Check: s.name, Status: Skipped, Detail: "not run: " + failed + " failed"})
			continue
		}
		if unmet := p.unmet(s.needs); unmet != "" {
			p.add(Result{Check: s.name, Status: Skipped, Detail: "not run: " + unmet + " did not pass"})
			continue
		}
		res := p.run(ctx, s)
		if res.Status == Failed && failed == "" {
			failed = s.name
		}
		p.add(res)
	}
	p.report.Took = cfg.Now().Sub(start)
	return p.report, p.report.Err()
}

// run runs one step under the check timeout.
func (p *prober) run(ctx context.Context, s step) Result {
	ctx, cancel := context.WithTimeout(ctx, p.cfg.Timeout)
	defer cancel()
	start := p.cfg.Now()
	detail, err := s.fn(ctx)
	res := Result{Check: s.name, Took: p.cfg.Now().Sub(start), Detail: detail, Status: Passed}
	var pe *Error
	switch {
	case err == nil:
	case errors.Is(err, errSkip):
		res.Status, res.Detail = Skipped, detail
	case errors.As(err, &pe):
		pe.Check = s.name
		res.Status, res.Err = Failed, pe
	default:
		// A check returned an unclassified error: still name the check.
		res.Status, res.Err = Failed, &Error{Check: s.name, Problem: fmt.Sprintf("check %s failed (%v)", s.name, err),
			Fix: "report this as a bug in dwk", Err: err}
	}
	return res
}

func (p *prober) add(r Result) { p.report.Results = append(p.report.Results, r) }

// unmet returns the first of needs that did not pass, or "".
func (p *prober) unmet(needs []string) string {
	for _, n := range needs {
		if r, ok := p.report.Result(n); !ok || r.Status != Passed {
			return n
		}
	}
	return ""
}

// close closes the coordination store the marker check opened.
func (p *prober) close() {
	if p.store == nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), p.cfg.Timeout)
	defer cancel()
	p.store.Close(ctx) // owns no goroutines: the sweeper is off
}

// fail builds an *Error wrapping sentinel and cause.
func fail(sentinel, cause error, fix, format string, args ...any) *Error {
	err := sentinel
	if cause != nil {
		err = fmt.Errorf("%w: %w", sentinel, cause)
	}
	return &Error{Problem: fmt.Sprintf(format, args...), Fix: fix, Err: err}
}

// ms formats a latency for details.
func ms(d time.Duration) string { return round(d).String() }
