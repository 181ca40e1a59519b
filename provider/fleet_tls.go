package provider

import (
	"context"
	"crypto/x509"
	"net"
	"os"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	tfpath "github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/config"
)

// resolveTLS sets s.TLS and s.ACMERoot from the tls attribute.
func (s *fleetSpec) resolveTLS(ctx context.Context, v types.Object) diag.Diagnostics {
	var diags diag.Diagnostics
	if v.IsNull() {
		return diags
	}
	if s.Mode != config.ModeCentral {
		diags.AddAttributeError(tfpath.Root("tls"), "HTTPS needs central mode",
			`The front door that obtains and serves certificates runs in central mode: set storage_mode = "central", or put a TLS-terminating proxy in front of a local-mode fleet.`)
		return diags
	}
	var tm fleetTLSModel
	if diags.Append(v.As(ctx, &tm, objectAsOptions)...); diags.HasError() {
		return diags
	}
	s.TLS = &config.TLS{Domains: tm.Domains, Email: tm.Email.ValueString(), ACMECA: tm.ACMECA.ValueString()}
	if !tm.Shared.IsNull() {
		shared := tm.Shared.ValueBool()
		s.TLS.Shared = &shared
	}
	if f := tm.ACMECARoot.ValueString(); f != "" {
		at := tfpath.Root("tls").AtName("acme_ca_root")
		b, err := os.ReadFile(f)
		switch {
		case err != nil:
			diags.AddAttributeError(at, "Cannot read the ACME CA's root", err.Error())
		case !x509.NewCertPool().AppendCertsFromPEM(b):
			diags.AddAttributeError(at, "Not a CA certificate", f+" holds no PEM certificate.")
		default:
			s.ACMERoot = b
		}
	}
	return diags
}

// redirectPort is the port a front door on 443 with tls redirects plain
// HTTP from.
const redirectPort = "80"

// listens is every address h's replica binds: its listeners and, with
// tls on 443, the redirect from port 80.
func (s *fleetSpec) listens(h *hostSpec) []string {
	addrs := []string{h.Public, h.Admin}
	if s.Mode == config.ModeCentral {
		addrs = append(addrs, h.Internal)
	}
	if host, port, err := net.SplitHostPort(h.Public); err == nil && s.TLS != nil && port == "443" {
		addrs = append(addrs, net.JoinHostPort(host, redirectPort))
	}
	return addrs
}
