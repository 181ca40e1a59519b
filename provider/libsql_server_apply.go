package provider

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	tfpath "github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/deploy"
	"github.com/dwk/fleet/provider/internal/sshtarget"
)

// serverType names the resource in messages.
const serverType = "dwk_libsql_server"

// deployer returns a deployer that logs through tflog and the provider's
// progress.
func (r *libsqlServerResource) deployer(name string) *deploy.Deployer {
	d := r.newDeployer()
	d.Log = func(ctx context.Context, msg string, fields map[string]any) {
		tflog.Info(ctx, serverType+": "+msg, fields)
		if r.data != nil {
			r.data.progress.resourceLine(serverType, name, msg, fields)
		}
	}
	return d
}

// serverFailed adds the diagnostic of a failed deployer operation.
func serverFailed(diags *diag.Diagnostics, host string, err error) {
	summary := serverType + ": host " + host + " failed"
	var he *deploy.HostError
	if errors.As(err, &he) {
		summary += " at " + he.Step
	}
	diags.AddError(summary, err.Error())
}

// ValidateConfig checks what the attribute validators cannot.
func (r *libsqlServerResource) ValidateConfig(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	m, ok := decode[libsqlServerModel](ctx, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	if !m.TLSCertFile.IsUnknown() && !m.TLSKeyFile.IsUnknown() && m.TLSCertFile.IsNull() != m.TLSKeyFile.IsNull() {
		resp.Diagnostics.AddAttributeError(tfpath.Root("tls_cert_file"), "Give both TLS files or neither",
			"tls_cert_file and tls_key_file go together: the certificate the server presents and its private key.")
	}
	if b := m.Backup; b != nil && !b.SecretKey.IsUnknown() && !b.AccessKey.IsUnknown() && b.SecretKey.IsNull() != b.AccessKey.IsNull() {
		resp.Diagnostics.AddAttributeError(tfpath.Root("backup").AtName("secret_key"), "Give both S3 keys or neither",
			"backup.access_key and backup.secret_key go together; without both, dwk libsql uses the AWS credential chain on the host.")
	}
}

// ModifyPlan fills the defaults that depend on other arguments, and plans
// the computed state: a running server with the config hash and binary
// the configuration gives, the keys kept or renewed (rotateKeys).
func (r *libsqlServerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	plan, ok := decode[libsqlServerModel](ctx, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	var state *libsqlServerModel
	if !req.State.Raw.IsNull() {
		st, ok := decode[libsqlServerModel](ctx, req.State, &resp.Diagnostics)
		if !ok {
			return
		}
		state = &st
	}
	sec, secKnown, diags := serverSecretsOf(ctx, req.Config)
	resp.Diagnostics.Append(diags...)
	if plan.InstallDir.IsUnknown() && !plan.Name.IsUnknown() {
		plan.InstallDir = types.StringValue(defaults.InstallDir(plan.Name.ValueString()))
	}
	if plan.DataDir.IsUnknown() && !plan.InstallDir.IsUnknown() {
		plan.DataDir = types.StringValue(path.Join(plan.InstallDir.ValueString(), "data"))
	}

	if rotateKeys(state, &plan, r.now()) {
		plan.JWTPublicKey, plan.AuthToken, plan.ReadOnlyToken, plan.TokensExpire = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
	} else {
		plan.JWTPublicKey, plan.AuthToken, plan.ReadOnlyToken, plan.TokensExpire = state.JWTPublicKey, state.AuthToken, state.ReadOnlyToken, state.TokensExpire
	}
	var cfgKey types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, tfpath.Root("admin_key"), &cfgKey)...)
	switch {
	case !cfgKey.IsNull():
		plan.AdminToken = types.StringNull()
	case state != nil && !state.AdminToken.IsNull() && state.AdminKeyVersion.Equal(plan.AdminKeyVersion):
		plan.AdminToken = state.AdminToken
	default:
		plan.AdminToken = types.StringUnknown()
	}

	var spec *serverSpec
	known := secKnown
	if known {
		spec, known, diags = resolveServer(ctx, &plan, sec, r.data)
		resp.Diagnostics.Append(diags...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	plan.State = types.StringValue(deploy.StateRunning)
	plan.ServiceManager = types.StringUnknown()
	if state != nil {
		if svc := state.ServiceManager.ValueString(); svc != "" && (plan.Service.ValueString() == deploy.ServiceAuto || plan.Service.ValueString() == svc) {
			plan.ServiceManager = state.ServiceManager
		}
	}
	if !known {
		plan.ID, plan.URL, plan.AdminURL, plan.ConfigHash = types.StringUnknown(), types.StringUnknown(), types.StringUnknown(), types.StringUnknown()
		resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
		return
	}
	plan.ID = types.StringValue(spec.id())
	plan.URL, plan.AdminURL = types.StringValue(spec.urlOf(spec.Listen)), types.StringValue(spec.urlOf(spec.AdminListen))
	if spec.AdminKey == "" {
		spec.AdminKey = plan.AdminToken.ValueString()
	}
	spec.Salt, diags = saltOf(ctx, req.Private)
	resp.Diagnostics.Append(diags...)
	plan.ConfigHash = strOrUnknown(spec.hash())
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// beginApply opens Create and Update: the plan and its spec, with the
// write-only arguments from the configuration.
func (r *libsqlServerResource) beginApply(ctx context.Context, src getter, cfg tfsdk.Config, diags *diag.Diagnostics) (plan libsqlServerModel, spec *serverSpec, ok bool) {
	if plan, ok = decode[libsqlServerModel](ctx, src, diags); !ok {
		return plan, nil, false
	}
	sec, known, d := serverSecretsOf(ctx, cfg)
	diags.Append(d...)
	if known && !diags.HasError() {
		spec, known, d = resolveServer(ctx, &plan, sec, r.data)
		diags.Append(d...)
	}
	if !known && !diags.HasError() {
		diags.AddError("Unknown values at apply", serverType+" got a configuration with unknown values at apply time; this is a bug in the provider.")
	}
	return plan, spec, !diags.HasError()
}

// keys gives spec and plan the admin key and, when the plan has no
// public key (a create or a rotation), a new key pair and its tokens.
func (r *libsqlServerResource) keys(plan *libsqlServerModel, spec *serverSpec, diags *diag.Diagnostics) bool {
	if spec.AdminKey == "" {
		if !plan.AdminToken.IsUnknown() && !plan.AdminToken.IsNull() {
			spec.AdminKey = plan.AdminToken.ValueString()
		} else {
			k, err := newAdminToken()
			if err != nil {
				diags.AddError("Cannot generate the admin key", err.Error())
				return false
			}
			spec.AdminKey = k
			plan.AdminToken = types.StringValue(k)
		}
	} else {
		plan.AdminToken = types.StringNull()
	}
	if plan.JWTPublicKey.IsUnknown() || plan.JWTPublicKey.IsNull() {
		t, err := newServerTokens(r.now(), spec.TokenLifetime)
		if err != nil {
			diags.AddError("Cannot make the JWT keys", err.Error())
			return false
		}
		plan.JWTPublicKey, plan.AuthToken, plan.ReadOnlyToken = types.StringValue(t.PublicKeyPEM), types.StringValue(t.Full), types.StringValue(t.ReadOnly)
		plan.TokensExpire = types.StringValue(t.Expires.Format(time.RFC3339))
	}
	spec.JWTPublicKey = plan.JWTPublicKey.ValueString()
	return true
}

func (r *libsqlServerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, spec, ok := r.beginApply(ctx, req.Plan, req.Config, &resp.Diagnostics)
	if !ok || !r.keys(&plan, spec, &resp.Diagnostics) {
		return
	}
	spec.Salt = keepSalt(ctx, nil, resp.Private, &resp.Diagnostics)
	t, h, ok := spec.connect(&resp.Diagnostics)
	if !ok {
		return
	}
	defer t.Close()
	d := r.deployer(spec.Name)
	opCtx, cancel, timeout := opContext(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	out, applyErr := d.Apply(opCtx, deploy.Plan{Artifact: spec.Artifact, Add: []*deploy.Host{h}, ReadyTimeout: spec.ReadyTimeout})
	endedAs(opCtx, serverType, "create", timeout, &resp.Diagnostics)
	o := out[h]
	if applyErr != nil {
		serverFailed(&resp.Diagnostics, h.Name, applyErr)
		if !o.Installed {
			return
		}
	}
	r.record(ctx, d, spec, h, o, &plan)
	// A failed create is saved too (Terraform marks it tainted), so that
	// destroy or the next apply cleans up what was installed.
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// record sets the computed state after an apply touched h: the plan's
// when the server was updated, else what Observe finds.
func (r *libsqlServerResource) record(ctx context.Context, d *deploy.Deployer, spec *serverSpec, h *deploy.Host, o *deploy.Outcome, plan *libsqlServerModel) {
	plan.ID = types.StringValue(spec.id())
	plan.ServiceManager = types.StringValue(o.Service)
	if o.Updated && o.Err == nil {
		plan.State, plan.ConfigHash = types.StringValue(deploy.StateRunning), types.StringValue(spec.hash())
		return
	}
	obsCtx, cancel := observeContext(ctx)
	defer cancel()
	obs := d.Observe(obsCtx, h)
	plan.State = types.StringValue(obs.State)
	plan.ConfigHash = types.StringValue(configHash(spec.Salt, obs.Raw))
	plan.ArtifactSHA256 = types.StringValue(expandSHA(obs.ArtifactID, spec.Artifact.SHA256))
}

func (r *libsqlServerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, spec, ok := r.beginApply(ctx, req.Plan, req.Config, &resp.Diagnostics)
	if !ok {
		return
	}
	state, ok := decode[libsqlServerModel](ctx, req.State, &resp.Diagnostics)
	if !ok || !r.keys(&plan, spec, &resp.Diagnostics) {
		return
	}
	spec.Salt = keepSalt(ctx, req.Private, resp.Private, &resp.Diagnostics)
	prev := state.ServiceManager.ValueString()
	roll := state.State.ValueString() != deploy.StateRunning || state.ConfigHash.ValueString() != spec.hash() ||
		state.ArtifactSHA256.ValueString() != spec.Artifact.SHA256 || prev == "" ||
		(spec.Service != deploy.ServiceAuto && spec.Service != prev)
	if !roll {
		plan.ServiceManager, plan.State, plan.ConfigHash = state.ServiceManager, state.State, state.ConfigHash
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	t, h, ok := spec.connect(&resp.Diagnostics)
	if !ok {
		return
	}
	defer t.Close()
	p := deploy.Plan{
		Artifact: spec.Artifact, Roll: []*deploy.Host{h}, ReadyTimeout: spec.ReadyTimeout,
		Services: map[*deploy.Host]string{}, Previous: map[*deploy.Host]string{},
	}
	if prev == deploy.ServiceSystemd || prev == deploy.ServiceProcess {
		if spec.Service == deploy.ServiceAuto || spec.Service == prev {
			p.Services[h] = prev
		} else {
			p.Previous[h] = prev
		}
	}
	d := r.deployer(spec.Name)
	opCtx, cancel, timeout := opContext(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	out, applyErr := d.Apply(opCtx, p)
	endedAs(opCtx, serverType, "update", timeout, &resp.Diagnostics)
	if applyErr != nil {
		serverFailed(&resp.Diagnostics, h.Name, applyErr)
	}
	r.record(ctx, d, spec, h, out[h], &plan)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *libsqlServerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := decode[libsqlServerModel](ctx, req.State, &resp.Diagnostics)
	if !ok || state.Host == nil {
		return
	}
	salt := keepSalt(ctx, req.Private, resp.Private, &resp.Diagnostics)
	var adoptedCert []byte
	if state.Artifact.IsNull() {
		// Imported: the settings come from the host.
		if adoptedCert, ok = r.adopt(ctx, &state, &resp.Diagnostics); !ok {
			return
		}
	}
	spec, known, diags := resolveServer(ctx, &state, serverSecrets{}, r.data)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || !known {
		return
	}
	if spec.TLSCert == nil {
		spec.TLSCert = adoptedCert
	}
	spec.Salt = salt
	t, h, ok := spec.connect(&resp.Diagnostics)
	if !ok {
		return
	}
	defer t.Close()
	o := r.deployer(spec.Name).Observe(ctx, h)
	switch {
	case errors.Is(o.Err, sshtarget.ErrNoCredentials):
		resp.Diagnostics.AddWarning(serverType+": host "+h.Name+" was not refreshed",
			fmt.Sprintf("%v. Refresh sees only the state, where host.private_key is never stored: give the provider's ssh.private_key or an ssh-agent.", o.Err))
		return
	case o.State == deploy.StateMissing:
		resp.Diagnostics.AddWarning(serverType+" on "+h.Name+" is gone",
			"Nothing is installed in "+spec.InstallDir+" any more; it is removed from the state and will be deployed again on the next apply (a kept data dir is served again).")
		resp.State.RemoveResource(ctx)
		return
	case o.State == deploy.StateUnreachable:
		resp.Diagnostics.AddWarning(serverType+": host "+h.Name+" is unreachable",
			fmt.Sprintf("The server's state is unknown: %v. The plan shows it as not running; the next apply tries to reach it again.", o.Err))
		state.State = types.StringValue(o.State)
	default:
		state.State = types.StringValue(o.State)
		state.ConfigHash = types.StringValue(configHash(salt, o.Raw))
		state.ArtifactSHA256 = types.StringValue(expandSHA(o.ArtifactID, state.ArtifactSHA256.ValueString()))
	}
	state.ID = types.StringValue(spec.id())
	state.URL, state.AdminURL = types.StringValue(spec.urlOf(spec.Listen)), types.StringValue(spec.urlOf(spec.AdminListen))
	for _, p := range []*types.String{&state.ConfigHash, &state.ArtifactSHA256, &state.ServiceManager} {
		if p.IsNull() {
			*p = types.StringValue("")
		}
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

func (r *libsqlServerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := decode[libsqlServerModel](ctx, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	spec, known, diags := resolveServer(ctx, &state, serverSecrets{}, r.data)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() || !known {
		return
	}
	t, h, ok := spec.connect(&resp.Diagnostics)
	if !ok {
		return
	}
	defer t.Close()
	opCtx, cancel, timeout := opContext(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	err := r.deployer(spec.Name).Remove(opCtx, h, state.ServiceManager.ValueString())
	if !endedAs(opCtx, serverType, "delete", timeout, &resp.Diagnostics) && err != nil {
		serverFailed(&resp.Diagnostics, h.Name, err)
	}
}

// ImportState takes ssh://USER@ADDRESS:PORT/INSTALL_DIR?host_key=KEY[&name=NAME];
// Read then reads the rest back from the host.
func (r *libsqlServerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id, err := parseServerID(req.ID)
	if err != nil {
		resp.Diagnostics.AddError("Bad import id", err.Error())
		return
	}
	name := id.Name
	if name == "" {
		name = defaults.LibSQLName
	}
	host := sshHostModel{
		Address: types.StringValue(id.Address), Port: types.Int64Value(int64(id.Port)), User: types.StringValue(id.User),
		HostKey: types.StringValue(id.HostKey), PrivateKey: types.StringNull(), Passphrase: types.StringNull(),
	}
	for _, a := range []struct {
		p tfpath.Path
		v any
	}{
		{tfpath.Root("id"), types.StringValue(id.String())},
		{tfpath.Root("name"), types.StringValue(name)},
		{tfpath.Root("host"), host},
		{tfpath.Root("install_dir"), types.StringValue(id.InstallDir)},
	} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, a.p, a.v)...)
	}
}

// adopt fills an imported state from the host: the settings from its
// libsql.json, the JWT public key, the binary's sha256 and the service
// manager, and the defaults of what the host cannot say. It returns the
// server's TLS certificate, nil without TLS.
func (r *libsqlServerResource) adopt(ctx context.Context, state *libsqlServerModel, diags *diag.Diagnostics) ([]byte, bool) {
	spec, known, d := resolveServer(ctx, state, serverSecrets{}, r.data)
	diags.Append(d...)
	if diags.HasError() || !known {
		return nil, false
	}
	t := sshtarget.NewLazy(spec.SSH)
	defer t.Close()
	h, _ := spec.deployHost(t)
	dep := r.deployer(spec.Name)
	fail := func(err error) ([]byte, bool) {
		diags.AddError("Cannot import "+serverType+" from "+h.Name, err.Error())
		return nil, false
	}
	raw, err := t.Run(ctx, "cat "+deploy.Quote(path.Join(spec.InstallDir, deploy.LibSQLServer.ConfigFile)), nil)
	if err != nil {
		return fail(fmt.Errorf("read %s: %w", deploy.LibSQLServer.ConfigFile, err))
	}
	var flags map[string]any
	if err := json.Unmarshal(raw, &flags); err != nil {
		return fail(fmt.Errorf("%s: %w", deploy.LibSQLServer.ConfigFile, err))
	}
	str := func(k string) types.String {
		if v, ok := flags[k].(string); ok && v != "" {
			return types.StringValue(v)
		}
		return types.StringNull()
	}
	state.Listen, state.AdminListen, state.DataDir = str("http-listen-addr"), str("admin-listen-addr"), str("db-path")
	state.AdminToken = str("admin-auth-key")
	if b := str("backup-s3-bucket"); !b.IsNull() {
		state.Backup = &libsqlBackupModel{
			Bucket: b, Prefix: str("backup-s3-prefix"), Endpoint: str("backup-s3-endpoint"), Region: str("backup-s3-region"),
			AccessKey: str("backup-s3-access-key"), SecretKey: types.StringNull(), PathStyle: types.BoolNull(),
			Lag: str("backup-lag"), SnapshotInterval: str("backup-snapshot-interval"), Retention: str("backup-retention"),
		}
		if ps, ok := flags["backup-s3-path-style"].(bool); ok && ps {
			state.Backup.PathStyle = types.BoolValue(true)
		}
	}
	pub, err := t.Run(ctx, "cat "+deploy.Quote(str("auth-jwt-key-file").ValueString()), nil)
	if err != nil {
		return fail(fmt.Errorf("read the JWT public key: %w", err))
	}
	state.JWTPublicKey = types.StringValue(string(pub))
	var cert []byte
	if f := str("tls-cert-file"); !f.IsNull() {
		if cert, err = t.Run(ctx, "cat "+deploy.Quote(f.ValueString()), nil); err != nil {
			return fail(fmt.Errorf("read the TLS certificate: %w", err))
		}
	}
	sum, err := dep.InstalledSHA256(ctx, h)
	if err != nil {
		return fail(err)
	}
	svc, err := dep.DetectService(ctx, h)
	if err != nil {
		return fail(err)
	}
	state.ArtifactSHA256, state.ServiceManager = types.StringValue(sum), types.StringValue(svc)
	state.Service, state.ReadyTimeout = types.StringValue(defaults.Service), types.StringValue(defaults.ReadyTimeout)
	state.TokenLifetime, state.JWTKeyVersion = types.StringValue(defaults.LibSQLTokenLifetime), types.StringValue("1")
	state.ForceDestroy = types.BoolValue(false)
	state.AuthToken, state.ReadOnlyToken, state.TokensExpire = types.StringNull(), types.StringNull(), types.StringNull()
	return cert, true
}
