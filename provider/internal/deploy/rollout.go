package deploy

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"time"
)

// Plan is one deployment: hosts to add, hosts to roll to a new binary or
// config, and hosts to remove.
type Plan struct {
	Artifact Artifact
	// Add are new hosts: staged, then started all at once.
	Add []*Host
	// Roll are running hosts to update, in this order, MaxParallel at a
	// time: drain → replace → start → ready → healthy for MinHealthy.
	Roll []*Host
	// Remove are hosts to drain and uninstall, after Add and Roll succeed.
	Remove []*Host
	// Services holds the resolved service of hosts already installed,
	// keyed by *Host; hosts without an entry are resolved with
	// DetectService.
	Services map[*Host]string
	// Previous holds, for Roll hosts whose service manager changes (process
	// to systemd, say), the one the running replica was started with; it
	// is stopped and removed before the new one starts.
	Previous map[*Host]string
	// MaxParallel bounds how many Roll hosts are out of rotation at once.
	MaxParallel int
	// MinHealthy is how long a rolled host must stay ready before the
	// next batch starts.
	MinHealthy time.Duration
	// ReadyTimeout bounds the wait for /readyz after a start.
	ReadyTimeout time.Duration
	// AutoRevert puts the previous binary and config back on every rolled
	// host when the rollout fails.
	AutoRevert bool
	// SkipUnreachable leaves a host that cannot be reached (its connection
	// fails, as opposed to a command failing on it) out of Add and Roll,
	// with Skipped and Err set, and counts a Remove host that cannot be
	// reached as removed (Dropped): the deployment goes on with the rest.
	SkipUnreachable bool
}

// Outcome is what happened to one host.
type Outcome struct {
	// Service is the resolved service manager ("" when the host was never
	// reached).
	Service string
	// Installed says something of the deployer's is on the host now.
	Installed bool
	// Updated says the host runs the plan's binary and config.
	Updated bool
	// Reverted says the host was put back to its previous binary and config.
	Reverted bool
	// Removed says the host was uninstalled.
	Removed bool
	// Version is the version the replica reported after it became ready.
	Version string
	// Err is why the host failed.
	Err error
	// Skipped says the host could not be reached and was left out
	// (Plan.SkipUnreachable); Err says why.
	Skipped bool
	// Dropped says a host to remove could not be reached and was let go
	// (Plan.SkipUnreachable): whatever it runs is still there.
	Dropped bool
}

// HostError is the failure of one host.
type HostError struct {
	Host string
	Step string
	Err  error
}

// Error is "host <name>: <step>: <cause>".
func (e *HostError) Error() string { return fmt.Sprintf("host %s: %s: %v", e.Host, e.Step, e.Err) }

// Unwrap returns the cause.
func (e *HostError) Unwrap() error { return e.Err }

// Apply carries out p. It returns every host's outcome and the first
// failure; a failure stops the deployment where it is (Remove runs only
// when everything else succeeded).
func (d *Deployer) Apply(ctx context.Context, p Plan) (map[*Host]*Outcome, error) {
	out := map[*Host]*Outcome{}
	for _, hs := range [][]*Host{p.Add, p.Roll, p.Remove} {
		for _, h := range hs {
			out[h] = &Outcome{Service: p.Services[h]}
		}
	}
	for _, h := range p.Roll {
		out[h].Installed = true
	}
	for _, h := range p.Remove {
		out[h].Installed = true
	}
	maxPar := max(p.MaxParallel, 1)

	// New hosts are staged, then start together: they carry no traffic yet.
	var down error // the first host that could not be reached
	if err := d.stageBatch(ctx, p.Add, out, p, &down); err != nil {
		return out, err
	}
	if err := parallel(reachable(p.Add, out), len(p.Add), func(h *Host) error {
		return d.replace(ctx, h, out[h], p, false)
	}, out); err != nil {
		return out, err
	}

	// Running hosts: each batch is staged, then rolled. A bad binary or
	// config fails the first batch's staging, before any of its replicas
	// stops; a host that cannot be reached fails only its own batch, and
	// the other batches go on.
	var rolled []*Host
	for i := 0; i < len(p.Roll); i += maxPar {
		batch := p.Roll[i:min(i+maxPar, len(p.Roll))]
		err := d.stageBatch(ctx, batch, out, p, &down)
		if err == nil {
			batch = reachable(batch, out)
			rolled = append(rolled, batch...)
			err = parallel(batch, len(batch), func(h *Host) error {
				return d.replace(ctx, h, out[h], p, true)
			}, out)
		}
		if err != nil {
			if p.AutoRevert {
				d.revert(ctx, rolled, out, p)
			}
			return out, err
		}
	}
	if down != nil {
		// Removals wait for a rollout that reached every host.
		return out, down
	}

	for i := 0; i < len(p.Remove); i += maxPar {
		batch := p.Remove[i:min(i+maxPar, len(p.Remove))]
		if err := parallel(batch, len(batch), func(h *Host) error {
			if err := d.Remove(ctx, h, out[h].Service); err != nil {
				if p.SkipUnreachable && unreachable(ctx, err) {
					d.logf(ctx, h, "unreachable: dropped without uninstalling (remove_unreachable)", "error", err.Error())
					out[h].Removed, out[h].Dropped = true, true
					return nil
				}
				return err
			}
			out[h].Removed, out[h].Installed = true, false
			return nil
		}, out); err != nil {
			return out, err
		}
	}
	return out, nil
}

// stageBatch stages hosts in parallel. A host that cannot be reached is
// left out of the batch (its Err set): with SkipUnreachable that is all
// (Skipped), otherwise the first such failure is kept in *down for the end
// of the rollout. Any other failure (a command that failed: a bad binary or
// config) is returned.
func (d *Deployer) stageBatch(ctx context.Context, hosts []*Host, out map[*Host]*Outcome, p Plan, down *error) error {
	var mu sync.Mutex
	return parallel(hosts, 4, func(h *Host) error {
		err := d.stageHost(ctx, h, out[h], p)
		if err == nil || !unreachable(ctx, err) {
			return err
		}
		if p.SkipUnreachable {
			out[h].Skipped = true
			d.logf(ctx, h, "unreachable: left out of the rollout (remove_unreachable)", "error", err.Error())
			out[h].Err = err
			return nil
		}
		d.logf(ctx, h, "unreachable: left out of its batch; the rollout goes on and then fails naming it", "error", err.Error())
		out[h].Err = err
		mu.Lock()
		if *down == nil {
			*down = err
		}
		mu.Unlock()
		return nil
	}, out)
}

// stageHost resolves h's service manager when it is not known yet and
// stages the release on it.
func (d *Deployer) stageHost(ctx context.Context, h *Host, o *Outcome, p Plan) error {
	if o.Service == "" {
		s, err := d.DetectService(ctx, h)
		if err != nil {
			return &HostError{h.Name, "connect", err}
		}
		o.Service = s
	}
	o.Installed = true
	if err := d.Stage(ctx, h, p.Artifact); err != nil {
		return &HostError{h.Name, "stage", err}
	}
	d.logf(ctx, h, "staged", "artifact", "dwk-"+p.Artifact.ID())
	return nil
}

// replace stops the host's replica (when running), activates the staged
// binary and config, starts it and waits until it is ready — and, for a
// rolled host, healthy for MinHealthy.
func (d *Deployer) replace(ctx context.Context, h *Host, o *Outcome, p Plan, rolling bool) error {
	m := manager(o.Service)
	if rolling {
		d.logf(ctx, h, "draining "+h.program().Kind)
		d.event(ctx, h, EventDrain, "")
	}
	if prev := p.Previous[h]; prev != "" && prev != o.Service {
		if err := manager(prev).remove(ctx, h); err != nil {
			d.event(ctx, h, EventFailed, err.Error())
			return &HostError{h.Name, "drain", err}
		}
	}
	// A new host may still run a replica of an earlier, failed attempt.
	if err := m.stop(ctx, h); err != nil {
		d.event(ctx, h, EventFailed, err.Error())
		return &HostError{h.Name, "drain", err}
	}
	if rolling {
		d.event(ctx, h, EventStopped, "")
	}
	if err := d.activate(ctx, h, p.Artifact); err != nil {
		return &HostError{h.Name, "install", err}
	}
	o.Updated = true
	d.logf(ctx, h, "starting "+h.program().Kind, "service", o.Service)
	d.event(ctx, h, EventStart, o.Service)
	if err := m.start(ctx, h); err != nil {
		d.event(ctx, h, EventFailed, err.Error())
		return &HostError{h.Name, "start", fmt.Errorf("%w%s", err, logTail(ctx, h, o.Service))}
	}
	if err := d.WaitReady(ctx, h, o.Service, p.ReadyTimeout); err != nil {
		d.event(ctx, h, EventFailed, "not ready")
		return &HostError{h.Name, "wait for /readyz", err}
	}
	d.event(ctx, h, EventReady, "")
	d.logf(ctx, h, h.program().Kind+" ready")
	if rolling {
		if err := d.WaitHealthy(ctx, h, o.Service, p.MinHealthy); err != nil {
			d.event(ctx, h, EventFailed, "unhealthy")
			return &HostError{h.Name, "min_healthy_time", err}
		}
		d.event(ctx, h, EventHealthy, p.MinHealthy.String())
		d.logf(ctx, h, "healthy", "min_healthy_time", p.MinHealthy.String())
	}
	if r, err := d.Status(ctx, h); err == nil {
		o.Version = r.Version
	}
	d.prune(ctx, h)
	return nil
}

// revert puts the previous binary and config back on the rolled hosts, in
// reverse order. Failures are recorded in the outcomes, not returned: the
// rollout's own error is the one to report.
func (d *Deployer) revert(ctx context.Context, hosts []*Host, out map[*Host]*Outcome, p Plan) {
	for i := len(hosts) - 1; i >= 0; i-- {
		h, o := hosts[i], out[hosts[i]]
		if !o.Updated {
			continue
		}
		d.logf(ctx, h, "auto_revert: restoring the previous binary and config")
		m := manager(o.Service)
		err := m.stop(ctx, h)
		var restored bool
		if err == nil {
			restored, err = d.restorePrevious(ctx, h)
		}
		if err == nil && restored {
			d.event(ctx, h, EventRevert, "")
			err = m.start(ctx, h)
			if err == nil {
				err = d.WaitReady(ctx, h, o.Service, p.ReadyTimeout)
			}
		}
		if err != nil {
			o.Err = errors.Join(o.Err, fmt.Errorf("auto_revert failed: %w", err))
			continue
		}
		o.Updated, o.Reverted, o.Version = false, restored, ""
		if restored {
			if r, err := d.Status(ctx, h); err == nil {
				o.Version = r.Version
			}
		}
	}
}

// Remove drains the host's replica, removes its service and deletes
// everything in the install directory that the deployer put there.
func (d *Deployer) Remove(ctx context.Context, h *Host, service string) error {
	if service == "" {
		s, err := d.DetectService(ctx, h)
		if err != nil {
			return &HostError{h.Name, "connect", err}
		}
		service = s
	}
	d.logf(ctx, h, "removing "+h.program().Kind, "service", service)
	if err := manager(service).remove(ctx, h); err != nil {
		return &HostError{h.Name, "drain", err}
	}
	if service != ServiceProcess {
		// A replica installed as a process before the host got systemd
		// (or the other way round) is stopped too.
		if err := manager(ServiceProcess).remove(ctx, h); err != nil {
			return &HostError{h.Name, "drain", err}
		}
	}
	if err := d.removeFiles(ctx, h); err != nil {
		return &HostError{h.Name, "remove files", err}
	}
	return nil
}

// parallel runs fn for hosts, at most n at once, records each failure in
// its outcome and returns the first (in host order).
func parallel(hosts []*Host, n int, fn func(*Host) error, out map[*Host]*Outcome) error {
	if len(hosts) == 0 {
		return nil
	}
	errs := make([]error, len(hosts))
	sem := make(chan struct{}, max(n, 1))
	var wg sync.WaitGroup
	for i, h := range hosts {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			errs[i] = fn(h)
		}()
	}
	wg.Wait()
	for i, err := range errs {
		if err != nil {
			out[hosts[i]].Err = err
		}
	}
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}

// unreachable reports whether err is a host that could not be reached
// (not a command that failed on it, nor the operation ending).
func unreachable(ctx context.Context, err error) bool {
	return !IsCommandError(err) && ctx.Err() == nil
}

// reachable is hosts without the ones staging left out.
func reachable(hosts []*Host, out map[*Host]*Outcome) []*Host {
	var r []*Host
	for _, h := range hosts {
		if out[h].Err == nil {
			r = append(r, h)
		}
	}
	return r
}
