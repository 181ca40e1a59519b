package provider

import (
	"context"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/provider/internal/deploy"
)

// fleetSecrets are dwk_fleet's write-only arguments. Only the
// configuration of a plan or an apply holds them; the plan and the state
// hold null. docs/state.md lists what is stored and what is not.
type fleetSecrets struct {
	Secret, AdminToken      string
	LibSQLAuth, LibSQLAdmin string
	S3Secret                string
	// Hosts holds each host's key, by index in hosts.
	Hosts []hostSecrets
	// Workers holds each worker's secrets, by index in workers.
	Workers []map[string]string
}

// hostSecrets are one host's write-only arguments.
type hostSecrets struct {
	PrivateKey, Passphrase string
}

// secretsOf reads the write-only arguments from a configuration. known is
// false while one of them is still unknown.
func secretsOf(ctx context.Context, cfg tfsdk.Config) (sec *fleetSecrets, known bool, diags diag.Diagnostics) {
	var m fleetModel
	if diags = cfg.Get(ctx, &m); diags.HasError() {
		return nil, false, diags
	}
	if !fullyKnown(ctx, m.Secret, m.AdminToken, m.LibSQL, m.S3, m.Hosts, m.Workers) {
		return nil, false, nil
	}
	sec = &fleetSecrets{Secret: m.Secret.ValueString(), AdminToken: m.AdminToken.ValueString()}
	if !m.LibSQL.IsNull() {
		var lm libsqlModel
		diags.Append(m.LibSQL.As(ctx, &lm, objectAsOptions)...)
		sec.LibSQLAuth, sec.LibSQLAdmin = lm.AuthToken.ValueString(), lm.AdminToken.ValueString()
	}
	if !m.S3.IsNull() {
		var sm fleetS3Model
		diags.Append(m.S3.As(ctx, &sm, objectAsOptions)...)
		sec.S3Secret = sm.SecretKey.ValueString()
	}
	hs, d := hostsOf(ctx, m.Hosts)
	diags.Append(d...)
	for _, h := range hs {
		sec.Hosts = append(sec.Hosts, hostSecrets{PrivateKey: h.PrivateKey.ValueString(), Passphrase: h.Passphrase.ValueString()})
	}
	if !m.Workers.IsNull() {
		var ws []workerModel
		diags.Append(m.Workers.ElementsAs(ctx, &ws, false)...)
		for _, w := range ws {
			sec.Workers = append(sec.Workers, w.Secrets)
		}
	}
	return sec, true, diags
}

// worker is the secrets of workers[i].
func (s *fleetSecrets) worker(i int) map[string]string {
	if s == nil || i >= len(s.Workers) {
		return nil
	}
	return s.Workers[i]
}

// host is the secrets of hosts[i].
func (s *fleetSecrets) host(i int) hostSecrets {
	if s == nil || i >= len(s.Hosts) {
		return hostSecrets{}
	}
	return s.Hosts[i]
}

// saltKey is the private-state key of a fleet's config hash salt.
const saltKey = "config_hash_salt"

// privateGetter reads private state (a request's Private).
type privateGetter interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
}

// privateSetter writes private state (a response's Private).
type privateSetter interface {
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}

// saltOf is the fleet's salt, "" when it has none yet.
func saltOf(ctx context.Context, p privateGetter) (string, diag.Diagnostics) {
	if p == nil {
		return "", nil
	}
	b, diags := p.GetKey(ctx, saltKey)
	var salt string
	if len(b) > 0 {
		if err := json.Unmarshal(b, &salt); err != nil {
			diags.AddError("Bad private state", fmt.Sprintf("%s: %v", saltKey, err))
		}
	}
	return salt, diags
}

// ensureSalt makes sure spec has a salt: the one in private state, else a
// new random one, which it stores.
func ensureSalt(ctx context.Context, spec *fleetSpec, get privateGetter, set privateSetter, diags *diag.Diagnostics) {
	spec.Salt = keepSalt(ctx, get, set, diags)
}

// keepSalt is a resource's config hash salt: the one in private state,
// else a new random one. It stores it in set; "" when it failed (diags
// says why).
func keepSalt(ctx context.Context, get privateGetter, set privateSetter, diags *diag.Diagnostics) string {
	salt, d := saltOf(ctx, get)
	diags.Append(d...)
	if salt == "" {
		b := make([]byte, 32)
		if _, err := rand.Read(b); err != nil {
			diags.AddError("Cannot generate the config hash salt", err.Error())
			return ""
		}
		salt = hex.EncodeToString(b)
	}
	v, _ := json.Marshal(salt)
	diags.Append(set.SetKey(ctx, saltKey, v)...)
	return salt
}

// recordedHash is the config_hash dwk_fleet records for c: an HMAC-SHA256
// keyed by the fleet's random salt over dwk's own hash of c without its
// admin token, and admin_token_version. The salt keeps the state from
// holding a plain digest of a config that holds the secrets; leaving the
// token out lets a plan compare configs without knowing a generated token
// (which only the hosts keep): admin_token_version rolls a new one.
func (s *fleetSpec) recordedHash(c *config.Config) string {
	if s.Salt == "" {
		return ""
	}
	cp := *c
	cp.Admin.Token = nil
	mac := hmac.New(sha256.New, []byte(s.Salt))
	mac.Write([]byte(cp.Hash()))
	mac.Write([]byte{0})
	mac.Write([]byte(s.AdminTokenVersion))
	return hex.EncodeToString(mac.Sum(nil))
}

// restartPending is the config_hash of a replica that runs a config other
// than its dwk.json; no configuration hashes to it, so the plan repairs it.
const restartPending = "restart-pending"

// observedHash is the config_hash to record for what Observe found.
func (s *fleetSpec) observedHash(o deploy.Observation) string {
	if o.File == nil {
		return o.ConfigHash // "", or "invalid"
	}
	if o.Reported != "" && o.Reported != o.File.Hash() {
		return restartPending
	}
	return s.recordedHash(o.File)
}

// adminTokenOf is the admin token dwk.json holds in o, "" when none.
func adminTokenOf(o deploy.Observation) string {
	if o.File == nil || o.File.Admin.Token == nil {
		return ""
	}
	return o.File.Admin.Token.Value
}

// readBackToken is the admin token the hosts hold, from the first that
// has one: the token is kept on the hosts only.
func readBackToken(ctx context.Context, d *deploy.Deployer, hosts []*deploy.Host) (string, error) {
	var errs []error
	for _, h := range hosts {
		o := d.Observe(ctx, h)
		if tok := adminTokenOf(o); tok != "" {
			return tok, nil
		}
		if o.Err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", h.Name, o.Err))
		}
	}
	return "", fmt.Errorf("no host has an admin token in its dwk.json to keep (set admin_token to give one): %v", errs)
}

// stringOrNull is a types.String of s, null when s is "".
func stringOrNull(s string) types.String {
	if s == "" {
		return types.StringNull()
	}
	return types.StringValue(s)
}
