package provider

import (
	"os"

	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/validators"
)

// sshModel is the provider's ssh attribute: the credentials every
// operation on SSH hosts may use. Provider configuration never lands in
// the state, so this is the one place a key can serve Read and Delete,
// which see only the state (hosts[].private_key is write-only).
type sshModel struct {
	PrivateKey types.String `tfsdk:"private_key"`
	Passphrase types.String `tfsdk:"private_key_passphrase"`
	Agent      types.Bool   `tfsdk:"agent"`
}

// sshDefaults is the resolved ssh attribute.
type sshDefaults struct {
	PrivateKey, Passphrase string
	Agent                  bool
}

// sshFromEnv: the agent is used when SSH_AUTH_SOCK names one.
func sshFromEnv() sshDefaults { return sshDefaults{Agent: os.Getenv("SSH_AUTH_SOCK") != ""} }

// with applies the provider's ssh attribute.
func (d sshDefaults) with(m *sshModel) sshDefaults {
	if m == nil {
		return d
	}
	d.PrivateKey, d.Passphrase = pick(m.PrivateKey, d.PrivateKey), pick(m.Passphrase, d.Passphrase)
	if !m.Agent.IsNull() && !m.Agent.IsUnknown() {
		d.Agent = m.Agent.ValueBool()
	}
	return d
}

func sshSchema() schema.SingleNestedAttribute {
	return schema.SingleNestedAttribute{
		MarkdownDescription: "SSH credentials for `dwk_fleet` and `dwk_fleet_status` hosts that do not bring their own. Unlike " +
			"`dwk_fleet`'s write-only `hosts[].private_key`, which only a create or update sees, these serve every operation — refresh and " +
			"destroy too — and, being provider configuration, are never stored in the state.",
		Optional: true,
		Attributes: map[string]schema.Attribute{
			"private_key": schema.StringAttribute{
				MarkdownDescription: "SSH private key (PEM; OpenSSH, PKCS#1 or PKCS#8), e.g. `file(\"~/.ssh/dwk_deploy\")`.",
				Optional:            true, Sensitive: true,
				Validators: []validator.String{validators.SSHPrivateKey()},
			},
			"private_key_passphrase": schema.StringAttribute{
				MarkdownDescription: "Passphrase of an encrypted `private_key`.",
				Optional:            true, Sensitive: true,
			},
			"agent": schema.BoolAttribute{
				MarkdownDescription: "Offer the keys of the ssh-agent at `$SSH_AUTH_SOCK` too. Default: `true` when `SSH_AUTH_SOCK` is set.",
				Optional:            true,
			},
		},
	}
}
