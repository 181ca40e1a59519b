package provider

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
)

// ValidateConfig checks what the attribute validators cannot: SSH hosts
// need keys, and no two hosts may share an install directory or a member
// name.
func (r *fleetResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	var m fleetModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.Hosts.IsUnknown() {
		return
	}
	hs, diags := hostsOf(ctx, m.Hosts)
	resp.Diagnostics.Append(diags...)
	name := "<name>"
	if !m.Name.IsUnknown() {
		name = m.Name.ValueString()
	}
	dirs, members := map[string]int{}, map[string]int{}
	for i, h := range hs {
		p := path.Root("hosts").AtListIndex(i)
		if h.Address.IsUnknown() {
			continue
		}
		addr := h.Address.ValueString()
		if addr != localAddress {
			// The key may come from the provider's ssh (or an agent), which
			// validation cannot see: a missing one fails the dial, saying so.
			if h.HostKey.IsNull() {
				resp.Diagnostics.AddAttributeError(p.AtName("host_key"), "Missing SSH host key",
					fmt.Sprintf("Host %s is reached over SSH and needs host_key, its public host key in authorized_keys format, so that the "+
						"provider can verify it is talking to the right machine. Get it from the machine itself (/etc/ssh/ssh_host_ed25519_key.pub) "+
						"or, on a trusted network, with `ssh-keyscan -t ed25519 %s`.", addr, addr))
			}
		}
		if h.InstallDir.IsUnknown() || h.Member.IsUnknown() {
			continue
		}
		dir := orDefault(h.InstallDir, defaults.InstallDir(name))
		if j, dup := dirs[addr+"|"+dir]; dup {
			resp.Diagnostics.AddAttributeError(p, "Two hosts share an install directory",
				fmt.Sprintf("hosts[%d] and hosts[%d] both install to %s on %s; give them different install_dir values.", j, i, dir, addr))
		}
		dirs[addr+"|"+dir] = i
		if !h.Member.IsNull() {
			if j, dup := members[h.Member.ValueString()]; dup {
				resp.Diagnostics.AddAttributeError(p.AtName("member"), "Two hosts share a member name",
					fmt.Sprintf("hosts[%d] and hosts[%d] are both member %q.", j, i, h.Member.ValueString()))
			}
			members[h.Member.ValueString()] = i
		}
	}
}

// ModifyPlan plans the computed replicas: every host "running" with the
// binary and config hash the configuration gives. When a replica is
// stopped, runs another binary or config, or a host was added or removed,
// the planned replicas differ from the state and Terraform plans an
// update. It also checks each host's rendered dwk.json with dwk's own
// validation.
func (r *fleetResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	var plan fleetModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	sec, secKnown, diags := secretsOf(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	var prior []replicaModel
	var priorHosts []*hostSpec
	var state fleetModel
	if !req.State.Raw.IsNull() {
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		var diags = stateHosts(ctx, &state, &prior, &priorHosts)
		resp.Diagnostics.Append(diags...)
	}
	if !plan.Name.IsUnknown() {
		plan.ID = plan.Name
	}
	var spec *fleetSpec
	projects, known, diags := planProjects(ctx, &plan, false)
	resp.Diagnostics.Append(diags...)
	known = known && secKnown
	if known {
		spec, known, diags = resolve(ctx, &plan, sec, r.data)
		resp.Diagnostics.Append(diags...)
	}
	if spec != nil {
		spec.Projects = projects
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if spec != nil {
		spec.Salt, diags = saltOf(ctx, req.Private)
		resp.Diagnostics.Append(diags...)
	}
	if !known {
		plan.Replicas = types.ListUnknown(replicaType)
		plan.URLs = types.ListUnknown(types.StringType)
		plan.InternalCA = types.StringUnknown()
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	for _, h := range spec.Hosts {
		c := spec.render(h)
		if spec.AdminToken == "" {
			// The token is generated at apply; validate with a stand-in.
			c.Admin.Token = secretOrNil("0123456789abcdef0123456789abcdef")
		}
		// The TLS files (and the copies of libsql.ca_file and
		// tls.acme_ca_root, read by resolve) are written at apply, where
		// the host's dwk validate checks them.
		c.Listen.InternalTLS = nil
		// Secret files are on the hosts: dwk validate reads them there.
		// (A copy: the workers are the spec's.)
		ws := append([]config.Worker(nil), c.Workers...)
		for i := range ws {
			if len(ws[i].Bindings.Secrets) == 0 {
				continue
			}
			stand := map[string]*config.Secret{}
			for name := range ws[i].Bindings.Secrets {
				stand[name] = config.Literal("checked on the host")
			}
			ws[i].Bindings.Secrets = stand
		}
		c.Workers = ws
		if c.Storage.LibSQL != nil {
			lib := *c.Storage.LibSQL
			lib.CAFile = ""
			c.Storage.LibSQL = &lib
		}
		if c.Listen.TLS != nil {
			t := *c.Listen.TLS
			t.ACMECARoot = ""
			c.Listen.TLS = &t
		}
		c.ApplyDefaults()
		if err := c.Validate(nil); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("hosts").AtListIndex(h.Index), "Invalid fleet configuration",
				fmt.Sprintf("The dwk.json rendered for %s is invalid:\n%v", h.Label(), err))
		}
	}
	if resp.Diagnostics.HasError() {
		return
	}
	refuseLocalRemoval(&state, priorHosts, spec, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	byKey := map[string]replicaModel{}
	for i, h := range priorHosts {
		if i < len(prior) {
			byKey[h.Key()] = prior[i]
		}
	}
	replicas := make([]replicaModel, len(spec.Hosts))
	urls := make([]string, len(spec.Hosts))
	for i, h := range spec.Hosts {
		replicas[i] = spec.desiredReplica(h, byKey)
		if p, had := byKey[h.Key()]; spec.RemoveUnreachable && (!had || !sameReplica(p, replicas[i])) {
			// The apply may leave this host out: what it will run is
			// known only after it.
			replicas[i].State, replicas[i].ConfigHash = types.StringUnknown(), types.StringUnknown()
			replicas[i].ArtifactSHA256, replicas[i].Version = types.StringUnknown(), types.StringUnknown()
		}
		urls[i] = h.URL()
	}
	var d2 = setList(ctx, &plan.Replicas, replicas)
	resp.Diagnostics.Append(d2...)
	urlList, d3 := types.ListValueFrom(ctx, types.StringType, urls)
	resp.Diagnostics.Append(d3...)
	plan.URLs = urlList
	plan.InternalCA = spec.CACertificate()
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// sameReplica reports whether a prior replica already is what desired
// wants (unknown desired values match anything).
func sameReplica(prior, desired replicaModel) bool {
	for _, pair := range [][2]types.String{
		{prior.State, desired.State}, {prior.ConfigHash, desired.ConfigHash}, {prior.ArtifactSHA256, desired.ArtifactSHA256},
	} {
		if !pair[1].IsUnknown() && !pair[0].Equal(pair[1]) {
			return false
		}
	}
	return true
}

// desiredReplica is what h should be after an apply. Values that only the
// apply can tell (a generated token's hash, a new binary's version, the
// service "auto" resolves to on a new host) are unknown.
func (s *fleetSpec) desiredReplica(h *hostSpec, prior map[string]replicaModel) replicaModel {
	r := replicaModel{
		Address: types.StringValue(h.Address), InstallDir: types.StringValue(h.InstallDir),
		Member: types.StringValue(h.Member), State: types.StringValue(deploy.StateRunning),
		ArtifactSHA256: types.StringValue(s.Artifact.SHA256), URL: types.StringValue(h.URL()),
		ConfigHash: types.StringUnknown(), Version: types.StringUnknown(), Service: types.StringUnknown(),
	}
	if s.Salt != "" {
		r.ConfigHash = types.StringValue(s.configHash(h))
	}
	p, had := prior[h.Key()]
	if s.Service != deploy.ServiceAuto {
		r.Service = types.StringValue(s.Service)
	} else if had && p.Service.ValueString() != "" && !p.Service.IsUnknown() {
		r.Service = p.Service
	}
	if had && p.State.ValueString() == deploy.StateRunning && p.ArtifactSHA256.ValueString() == s.Artifact.SHA256 &&
		!p.Version.IsNull() && !p.Version.IsUnknown() && p.Version.ValueString() != "" {
		r.Version = p.Version
	}
	return r
}

// stateHosts decodes the replicas and resolved hosts of a state.
func stateHosts(ctx context.Context, state *fleetModel, replicas *[]replicaModel, hosts *[]*hostSpec) (diags diag.Diagnostics) {
	rs, d := replicasOf(ctx, state.Replicas)
	diags.Append(d...)
	hs, d := hostsOf(ctx, state.Hosts)
	diags.Append(d...)
	ports := [3]int64{intOr(state.PublicPort, defaults.PublicPort), intOr(state.InternalPort, defaults.InternalPort), intOr(state.AdminPort, defaults.AdminPort)}
	*replicas = rs
	*hosts = resolveHosts(state.Name.ValueString(), hs, ports, sshDefaults{})
	return diags
}

func setList(ctx context.Context, dst *types.List, rs []replicaModel) diag.Diagnostics {
	l, diags := replicaList(ctx, rs)
	*dst = l
	return diags
}

// refuseLocalRemoval fails a plan that removes hosts of a local-mode fleet
// whose state has deletion_protection: removing a host deletes the data in
// its install directory.
func refuseLocalRemoval(state *fleetModel, priorHosts []*hostSpec, spec *fleetSpec, diags *diag.Diagnostics) {
	if !boolValue(state.Protected) || orDefault(state.StorageMode, defaults.StorageMode) != config.ModeLocal {
		return
	}
	kept := map[string]bool{}
	for _, h := range spec.Hosts {
		kept[h.Key()] = true
	}
	var gone []string
	for _, h := range priorHosts {
		if !kept[h.Key()] {
			gone = append(gone, h.Label())
		}
	}
	if len(gone) > 0 {
		diags.AddError("dwk_fleet "+spec.Name+" has deletion_protection = true",
			fmt.Sprintf("Removing %s from hosts would delete the local-mode data there, so it is refused. To remove it, set "+
				"deletion_protection = false and apply first.", strings.Join(gone, ", ")))
	}
}
