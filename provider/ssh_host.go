package provider

import (
	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/provider/internal/defaults"
	"github.com/dwk/fleet/provider/internal/sshtarget"
	"github.com/dwk/fleet/provider/internal/validators"
)

// sshHostModel is how a resource reaches a host over SSH: dwk_fleet's
// hosts[] embed it, and it is dwk_libsql_server's host.
type sshHostModel struct {
	Address    types.String `tfsdk:"address"`
	Port       types.Int64  `tfsdk:"port"`
	User       types.String `tfsdk:"user"`
	PrivateKey types.String `tfsdk:"private_key"`
	Passphrase types.String `tfsdk:"private_key_passphrase"`
	HostKey    types.String `tfsdk:"host_key"`
}

// config is how the host is reached: with its own key when it has one,
// else with the provider's ssh credentials; port and user default.
func (h sshHostModel) config(ssh sshDefaults) sshtarget.Config {
	c := sshtarget.Config{
		Address: h.Address.ValueString(), Port: int(intOr(h.Port, defaults.SSHPort)), User: orDefault(h.User, defaults.SSHUser),
		PrivateKey: pick(h.PrivateKey, ssh.PrivateKey), HostKey: h.HostKey.ValueString(), Agent: ssh.Agent, Passphrase: ssh.Passphrase,
	}
	if !h.PrivateKey.IsNull() {
		c.Passphrase = h.Passphrase.ValueString()
	}
	return c
}

// sshHostAttributes is the schema of sshHostModel's attributes, for a
// resource that adds its own: address and host_key are the resource's,
// since what they accept and whether changing them replaces differ.
func sshHostAttributes(address, hostKey schema.StringAttribute) map[string]schema.Attribute {
	address.Validators = append(address.Validators, validators.HostAddress())
	hostKey.Validators = append(hostKey.Validators, validators.SSHPublicKey())
	return map[string]schema.Attribute{
		"address": address,
		"port": schema.Int64Attribute{
			MarkdownDescription: "SSH port. Default: `" + itoa(defaults.SSHPort) + "`.",
			Optional:            true,
			Validators:          []validator.Int64{int64validator.Between(1, 65535)},
		},
		"user": schema.StringAttribute{
			MarkdownDescription: "SSH user. Default: `\"" + defaults.SSHUser + "\"`. With systemd, a user other than root needs passwordless `sudo`.",
			Optional:            true,
		},
		"private_key": schema.StringAttribute{
			MarkdownDescription: "SSH private key (PEM; encrypted keys need `private_key_passphrase`). **Write-only**: used by " +
				"create and update only, never stored. Refresh, import and destroy see only the state, so they use the provider's " +
				"`ssh` credentials (a key, or ssh-agent); give those instead of this when possible. Default: the provider's.",
			Optional: true, Sensitive: true, WriteOnly: true,
			Validators: []validator.String{validators.SSHPrivateKey()},
		},
		"private_key_passphrase": schema.StringAttribute{
			MarkdownDescription: "Passphrase of an encrypted `private_key`. **Write-only**.",
			Optional:            true, Sensitive: true, WriteOnly: true,
		},
		"host_key": hostKey,
	}
}

// withKey is h with the write-only key and passphrase that an apply reads
// from the configuration ("" for none).
func (h sshHostModel) withKey(key, passphrase string) sshHostModel {
	h.PrivateKey, h.Passphrase = stringOrNull(key), stringOrNull(passphrase)
	return h
}
