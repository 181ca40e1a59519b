package provider

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
)

// targets hands out one connection per host for one operation and closes
// them all at its end.
type targets struct {
	mu   sync.Mutex
	open map[string]*sshtarget.Lazy
}

func newTargets() *targets { return &targets{open: map[string]*sshtarget.Lazy{}} }

func (ts *targets) get(h *hostSpec) deploy.Target {
	if h.Local() {
		return deploy.Local{}
	}
	ts.mu.Lock()
	defer ts.mu.Unlock()
	k := h.SSH.Name()
	if t, ok := ts.open[k]; ok {
		return t
	}
	t := sshtarget.NewLazy(h.SSH)
	ts.open[k] = t
	return t
}

func (ts *targets) close() {
	ts.mu.Lock()
	defer ts.mu.Unlock()
	for _, t := range ts.open {
		t.Close()
	}
}

// deployer returns a deployer for fleet that logs through tflog and shows
// its steps on the provider's progress.
func (r *fleetResource) deployer(fleet string) *deploy.Deployer {
	d := r.newDeployer()
	d.Log = func(ctx context.Context, msg string, fields map[string]any) {
		tflog.Info(ctx, "dwk_fleet: "+msg, fields)
		if r.data != nil {
			r.data.progress.line(fleet, msg, fields)
		}
	}
	return d
}

func newAdminToken() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("generate admin token: %w", err)
	}
	return hex.EncodeToString(b), nil
}

// beginApply opens Create and Update: the plan, and the spec to apply,
// where everything is known, with the write-only arguments from the
// configuration. spec.AdminToken is the configured token or "" (Create
// generates one, Update reads it back from the hosts). ok is false when
// it failed; diags says why.
func (r *fleetResource) beginApply(ctx context.Context, src getter, cfg tfsdk.Config, diags *diag.Diagnostics) (plan fleetModel, spec *fleetSpec, ok bool) {
	if plan, ok = decode[fleetModel](ctx, src, diags); !ok {
		return plan, nil, false
	}
	sec, known, d := secretsOf(ctx, cfg)
	diags.Append(d...)
	if diags.HasError() {
		return plan, nil, false
	}
	projects, pknown, d := planProjects(ctx, &plan, true)
	diags.Append(d...)
	known = known && pknown
	if known && !diags.HasError() {
		spec, known, d = resolve(ctx, &plan, sec, r.data)
		diags.Append(d...)
	}
	if spec != nil {
		spec.Projects = projects
	}
	if !known && !diags.HasError() {
		diags.AddError("Unknown values at apply", "dwk_fleet got a configuration with unknown values at apply time; this is a bug in the provider.")
	}
	return plan, spec, !diags.HasError()
}

// beginState opens Read and Delete, and Update's side of what is
// deployed: the state, its spec and its replicas. ok is false when they
// cannot be had (a decoding error, or a state with unknown values).
func (r *fleetResource) beginState(ctx context.Context, src getter, private privateGetter, diags *diag.Diagnostics) (state fleetModel, spec *fleetSpec, replicas []replicaModel, ok bool) {
	if state, ok = decode[fleetModel](ctx, src, diags); !ok {
		return state, nil, nil, false
	}
	spec, known, d := resolve(ctx, &state, nil, r.data)
	diags.Append(d...)
	if spec != nil {
		spec.Salt, d = saltOf(ctx, private)
		diags.Append(d...)
	}
	if diags.HasError() || !known {
		return state, nil, nil, false
	}
	replicas, d = replicasOf(ctx, state.Replicas)
	diags.Append(d...)
	return state, spec, replicas, !diags.HasError()
}

// hostsOn returns the deployer's hosts of spec, each reached through ts.
// ok is false when a host's dwk.json cannot be rendered; diags says why.
func hostsOn(spec *fleetSpec, ts *targets, diags *diag.Diagnostics) (hosts []*deploy.Host, ok bool) {
	hosts = make([]*deploy.Host, len(spec.Hosts))
	for i, h := range spec.Hosts {
		dh, err := spec.deployHost(h, ts.get(h))
		if err != nil {
			diags.AddError("Cannot render dwk.json", err.Error())
			return nil, false
		}
		hosts[i] = dh
	}
	return hosts, true
}

// hostOutcome adds the diagnostic of a host's outcome: an error when it
// failed, a warning when it was left out because it could not be reached.
func hostOutcome(diags *diag.Diagnostics, label string, o *deploy.Outcome) {
	switch {
	case o.Skipped:
		diags.AddWarning("dwk_fleet: host "+label+" is unreachable and was left out",
			fmt.Sprintf("remove_unreachable is set, so the rollout went on without it: %v. It stays in hosts and the next apply tries it again; remove it from hosts to drop it.", o.Err))
	case o.Err != nil:
		hostFailed(diags, label, o.Err)
	}
}

// hostFailed adds the diagnostic of a failed host.
func hostFailed(diags *diag.Diagnostics, label string, err error) {
	var he *deploy.HostError
	summary := "dwk_fleet: host " + label + " failed"
	if errors.As(err, &he) {
		summary = fmt.Sprintf("dwk_fleet: host %s failed at %s", label, he.Step)
	}
	diags.AddError(summary, err.Error())
}

func (r *fleetResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, spec, ok := r.beginApply(ctx, req.Plan, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	if spec.AdminToken == "" {
		tok, err := newAdminToken()
		if err != nil {
			resp.Diagnostics.AddError("Cannot generate the admin token", err.Error())
			return
		}
		spec.AdminToken = tok
	}
	ensureSalt(ctx, spec, nil, resp.Private, &resp.Diagnostics)
	ts := newTargets()
	defer ts.close()
	hosts, ok := hostsOn(spec, ts, &resp.Diagnostics)
	if !ok {
		return
	}
	d := r.deployer(spec.Name)
	opCtx, cancel, timeout := opContext(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	d.Log(ctx, "creating", map[string]any{"fleet": spec.Name, "hosts": len(hosts)})
	out, applyErr := d.Apply(opCtx, deploy.Plan{
		Artifact: spec.Artifact, Add: hosts, MaxParallel: spec.MaxParallel,
		MinHealthy: spec.MinHealthy, ReadyTimeout: spec.ReadyTimeout, SkipUnreachable: spec.RemoveUnreachable,
	})
	obsCtx, cancelObs := observeContext(ctx)
	defer cancelObs()
	ended(opCtx, "create", timeout, &resp.Diagnostics)
	planned, diags := replicasOf(ctx, plan.Replicas)
	resp.Diagnostics.Append(diags...)
	replicas := make([]replicaModel, len(hosts))
	installed := false
	for i, dh := range hosts {
		o := out[dh]
		installed = installed || o.Installed
		replicas[i] = spec.replicaAfter(obsCtx, d, spec.Hosts[i], dh, o, plannedAt(planned, i), nil)
		hostOutcome(&resp.Diagnostics, dh.Name, o)
	}
	if applyErr != nil && !installed {
		// Nothing was written anywhere: the fleet does not exist.
		return
	}
	resp.Diagnostics.Append(setList(ctx, &plan.Replicas, replicas)...)
	plan.ID = plan.Name
	plan.InternalCA = spec.CACertificate()
	// A failed create is saved too (Terraform marks it tainted), so that
	// destroy or the next apply cleans up what was installed.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.writeRecord(ctx, spec, resp.State, &resp.Diagnostics)
	}
}

// plannedAt is planned[i], or an empty model.
func plannedAt(planned []replicaModel, i int) replicaModel {
	if i < len(planned) {
		return planned[i]
	}
	return replicaModel{}
}

// replicaAfter is the replica to record after an apply touched h: the
// planned values with the unknowns filled in when the host was updated, or
// what Observe finds on the host when it was not (or failed). prior is the
// replica before the apply, nil for a new host.
func (s *fleetSpec) replicaAfter(ctx context.Context, d *deploy.Deployer, h *hostSpec, dh *deploy.Host, o *deploy.Outcome, planned replicaModel, prior *replicaModel) replicaModel {
	r := replicaModel{
		Address: types.StringValue(h.Address), InstallDir: types.StringValue(h.InstallDir),
		Member: types.StringValue(h.Member), URL: types.StringValue(h.URL()), Service: types.StringValue(o.Service),
	}
	if o.Updated && o.Err == nil {
		r.State = types.StringValue(deploy.StateRunning)
		r.ConfigHash = types.StringValue(s.configHash(h))
		r.ArtifactSHA256 = types.StringValue(s.Artifact.SHA256)
		r.Version = types.StringValue(o.Version)
		if !planned.Version.IsNull() && !planned.Version.IsUnknown() {
			r.Version = planned.Version
		}
		return r
	}
	// Not (or no longer) updated: record what is there.
	obs := d.Observe(ctx, dh)
	r.State = types.StringValue(obs.State)
	r.Version = types.StringValue(obs.Version)
	r.ConfigHash = types.StringValue(s.observedHash(obs))
	shas := []string{s.Artifact.SHA256}
	if prior != nil {
		shas = append(shas, prior.ArtifactSHA256.ValueString())
	}
	r.ArtifactSHA256 = types.StringValue(expandSHA(obs.ArtifactID, shas...))
	return r
}

// expandSHA returns the full sha256 among known whose prefix is id, else id.
func expandSHA(id string, known ...string) string {
	if id == "" {
		return ""
	}
	for _, k := range known {
		if strings.HasPrefix(k, id) {
			return k
		}
	}
	return id
}

func (r *fleetResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, spec, prior, ok := r.beginState(ctx, req.State, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	ts := newTargets()
	defer ts.close()
	hosts, ok := hostsOn(spec, ts, &resp.Diagnostics)
	if !ok {
		return
	}
	d := r.deployer(spec.Name)
	obs := make([]deploy.Observation, len(hosts))
	var wg sync.WaitGroup
	for i, dh := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			obs[i] = d.Observe(ctx, dh)
		}()
	}
	wg.Wait()
	replicas := make([]replicaModel, len(hosts))
	missing := 0
	for i, h := range spec.Hosts {
		r := plannedAt(prior, i)
		if r.Address.IsNull() || r.Address.ValueString() != h.Address || r.InstallDir.ValueString() != h.InstallDir {
			r = replicaModel{Service: types.StringValue("")}
		}
		r.Address, r.InstallDir = types.StringValue(h.Address), types.StringValue(h.InstallDir)
		r.Member, r.URL = types.StringValue(h.Member), types.StringValue(h.URL())
		o := obs[i]
		if errors.Is(o.Err, sshtarget.ErrNoCredentials) {
			// Not refreshed: keep what the last apply recorded.
			resp.Diagnostics.AddWarning("dwk_fleet: host "+hosts[i].Name+" was not refreshed",
				fmt.Sprintf("%v. Refresh sees only the state, where hosts[].private_key is never stored: give the provider's "+
					"ssh.private_key or an ssh-agent to have it checked.", o.Err))
			replicas[i] = fillNull(r)
			continue
		}
		r.State = types.StringValue(o.State)
		switch o.State {
		case deploy.StateUnreachable:
			resp.Diagnostics.AddWarning("dwk_fleet: host "+hosts[i].Name+" is unreachable",
				fmt.Sprintf("Its replica's state is unknown: %v. The plan shows it as not running; the next apply tries to reach it again.", o.Err))
		default:
			if o.State == deploy.StateMissing {
				missing++
			}
			r.Version = types.StringValue(o.Version)
			r.ConfigHash = types.StringValue(spec.observedHash(o))
			r.ArtifactSHA256 = types.StringValue(expandSHA(o.ArtifactID, r.ArtifactSHA256.ValueString(), spec.Artifact.SHA256))
		}
		replicas[i] = fillNull(r)
	}
	if missing == len(hosts) {
		resp.Diagnostics.AddWarning("dwk_fleet "+spec.Name+" is gone",
			"No host has the fleet installed any more; it is removed from the state and will be deployed again on the next apply.")
		resp.State.RemoveResource(ctx)
		return
	}
	resp.Diagnostics.Append(setList(ctx, &state.Replicas, replicas)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// fillNull makes null strings empty: a computed attribute is known after
// an operation.
func fillNull(r replicaModel) replicaModel {
	for _, p := range []*types.String{&r.Address, &r.InstallDir, &r.Member, &r.Service, &r.State, &r.Version, &r.ConfigHash, &r.ArtifactSHA256, &r.URL} {
		if p.IsNull() || p.IsUnknown() {
			*p = types.StringValue("")
		}
	}
	return r
}

func (r *fleetResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, spec, ok := r.beginApply(ctx, req.Plan, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	state, old, prior, ok := r.beginState(ctx, req.State, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	ensureSalt(ctx, spec, req.Private, resp.Private, &resp.Diagnostics)
	planned, diags := replicasOf(ctx, plan.Replicas)
	resp.Diagnostics.Append(diags...)
	ts := newTargets()
	defer ts.close()
	// The old hosts carry the old credentials: those this apply's
	// configuration gives for the same host.
	for _, oh := range old.Hosts {
		for _, nh := range spec.Hosts {
			if nh.Key() == oh.Key() {
				oh.SSH = nh.SSH
			}
		}
	}
	oldHosts, ok := hostsOn(old, ts, &resp.Diagnostics)
	if !ok {
		return
	}
	if spec.AdminToken == "" {
		obsCtx, cancelObs := observeContext(ctx)
		tok, err := readBackToken(obsCtx, r.deployer(spec.Name), oldHosts)
		cancelObs()
		if err != nil {
			resp.Diagnostics.AddError("dwk_fleet: cannot read the admin token back", err.Error())
			return
		}
		spec.AdminToken = tok
	}
	hosts, ok := hostsOn(spec, ts, &resp.Diagnostics)
	if !ok {
		return
	}

	priorByKey := map[string]int{}
	for i, h := range old.Hosts {
		priorByKey[h.Key()] = i
	}
	p := deploy.Plan{
		Artifact: spec.Artifact, MaxParallel: spec.MaxParallel, MinHealthy: spec.MinHealthy,
		ReadyTimeout: spec.ReadyTimeout, AutoRevert: spec.AutoRevert, SkipUnreachable: spec.RemoveUnreachable,
		Services: map[*deploy.Host]string{}, Previous: map[*deploy.Host]string{},
	}
	kept := map[string]bool{}
	priorOf := make([]*replicaModel, len(hosts))
	for i, h := range spec.Hosts {
		j, had := priorByKey[h.Key()]
		if !had || j >= len(prior) {
			p.Add = append(p.Add, hosts[i])
			continue
		}
		kept[h.Key()] = true
		pr := prior[j]
		priorOf[i] = &pr
		if svc := pr.Service.ValueString(); svc == deploy.ServiceSystemd || svc == deploy.ServiceProcess {
			if spec.Service == deploy.ServiceAuto || spec.Service == svc {
				p.Services[hosts[i]] = svc
			} else {
				p.Previous[hosts[i]] = svc
			}
		}
		if pr.State.ValueString() != deploy.StateRunning || pr.ConfigHash.ValueString() != spec.configHash(h) ||
			pr.ArtifactSHA256.ValueString() != spec.Artifact.SHA256 || p.Services[hosts[i]] == "" {
			p.Roll = append(p.Roll, hosts[i])
		}
	}
	var removed []int
	for j, h := range old.Hosts {
		if !kept[h.Key()] {
			removed = append(removed, j)
			p.Remove = append(p.Remove, oldHosts[j])
			if j < len(prior) {
				p.Services[oldHosts[j]] = prior[j].Service.ValueString()
			}
		}
	}
	d := r.deployer(spec.Name)
	d.Log(ctx, "rolling out", map[string]any{
		"fleet": spec.Name, "add": len(p.Add), "roll": len(p.Roll), "remove": len(p.Remove), "max_parallel": spec.MaxParallel,
	})
	opCtx, cancel, timeout := opContext(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	out, applyErr := d.Apply(opCtx, p)
	obsCtx, cancelObs := observeContext(ctx)
	defer cancelObs()
	ended(opCtx, "update", timeout, &resp.Diagnostics)

	replicas := make([]replicaModel, len(hosts))
	for i, dh := range hosts {
		o, touched := out[dh]
		switch {
		case !touched:
			// Unchanged: the plan already holds its values.
			rp := plannedAt(planned, i)
			if priorOf[i] != nil {
				rp = mergeKnown(rp, *priorOf[i])
			}
			replicas[i] = fillNull(rp)
		default:
			replicas[i] = spec.replicaAfter(obsCtx, d, spec.Hosts[i], dh, o, plannedAt(planned, i), priorOf[i])
			hostOutcome(&resp.Diagnostics, dh.Name, o)
		}
	}
	// Hosts whose removal failed stay in the state, so that the next plan
	// removes them again.
	if len(removed) > 0 {
		var stateHostList []attr.Value
		stateHostList = append(stateHostList, plan.Hosts.Elements()...)
		for _, j := range removed {
			o := out[oldHosts[j]]
			if o.Dropped {
				resp.Diagnostics.AddWarning("dwk_fleet: host "+oldHosts[j].Name+" dropped without uninstalling",
					"It could not be reached and remove_unreachable is set: it is no longer in the state, and whatever it runs is still there.")
			}
			if o.Removed {
				continue
			}
			if o.Err != nil {
				hostFailed(&resp.Diagnostics, oldHosts[j].Name, o.Err)
			}
			stateHostList = append(stateHostList, state.Hosts.Elements()[j])
			replicas = append(replicas, fillNull(plannedAt(prior, j)))
		}
		if len(stateHostList) != len(plan.Hosts.Elements()) {
			l, diags := types.ListValue(plan.Hosts.ElementType(ctx), stateHostList)
			resp.Diagnostics.Append(diags...)
			plan.Hosts = l
		}
	}
	if applyErr != nil && !resp.Diagnostics.HasError() {
		resp.Diagnostics.AddError("dwk_fleet: rollout failed", applyErr.Error())
	}
	resp.Diagnostics.Append(setList(ctx, &plan.Replicas, replicas)...)
	plan.ID = plan.Name
	plan.InternalCA = spec.CACertificate()
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
	if !resp.Diagnostics.HasError() {
		r.writeRecord(ctx, spec, resp.State, &resp.Diagnostics)
	}
}

// mergeKnown fills the unknown values of planned from prior.
func mergeKnown(planned, prior replicaModel) replicaModel {
	pairs := []struct{ dst, src *types.String }{
		{&planned.Service, &prior.Service}, {&planned.Version, &prior.Version},
		{&planned.ConfigHash, &prior.ConfigHash}, {&planned.ArtifactSHA256, &prior.ArtifactSHA256},
		{&planned.State, &prior.State},
	}
	for _, p := range pairs {
		if p.dst.IsUnknown() || p.dst.IsNull() {
			*p.dst = *p.src
		}
	}
	return planned
}

func (r *fleetResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, spec, prior, ok := r.beginState(ctx, req.State, req.Private, &resp.Diagnostics)
	if !ok {
		return
	}
	if spec.Mode == config.ModeLocal && refuseDeletion(state.Protected, "dwk_fleet", spec.Name, &resp.Diagnostics) {
		return
	}
	ts := newTargets()
	defer ts.close()
	hosts, ok := hostsOn(spec, ts, &resp.Diagnostics)
	if !ok {
		return
	}
	d := r.deployer(spec.Name)
	opCtx, cancel, timeout := opContext(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	errs, dropped := make([]error, len(hosts)), make([]error, len(hosts))
	var wg sync.WaitGroup
	for i, dh := range hosts {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pr := plannedAt(prior, i)
			errs[i] = d.Remove(opCtx, dh, pr.Service.ValueString())
			if errs[i] != nil && spec.RemoveUnreachable && !deploy.IsCommandError(errs[i]) && opCtx.Err() == nil {
				dropped[i], errs[i] = errs[i], nil
			}
			if errs[i] != nil && pr.State.ValueString() == deploy.StateMissing && !deploy.IsCommandError(errs[i]) {
				// Never installed (a create that failed before writing
				// anything) and unreachable: nothing to remove.
				tflog.Warn(ctx, "dwk_fleet: skipping unreachable host with nothing installed", map[string]any{"host": dh.Name, "error": errs[i].Error()})
				errs[i] = nil
			}
		}()
	}
	wg.Wait()
	for i, err := range dropped {
		if err != nil {
			resp.Diagnostics.AddWarning("dwk_fleet: host "+hosts[i].Name+" dropped without uninstalling",
				fmt.Sprintf("It could not be reached and remove_unreachable is set: %v. Whatever it runs is still there.", err))
		}
	}
	ended(opCtx, "delete", timeout, &resp.Diagnostics)
	for i, err := range errs {
		if err != nil {
			hostFailed(&resp.Diagnostics, hosts[i].Name, err)
		}
	}
	if !resp.Diagnostics.HasError() {
		r.deleteRecord(ctx, spec, &resp.Diagnostics)
	}
}
