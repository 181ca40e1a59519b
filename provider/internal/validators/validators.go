// Package validators holds the plan-time checks of the dwk provider's
// string attributes: names, addresses, durations, paths, URLs and SSH keys.
// Each is a validator.String whose error names the attribute and says what
// a valid value looks like. Unknown and null values pass (Terraform checks
// them again once they are known).
package validators

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"path"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/dwk/fleet/provider/internal/sshtarget"
)

// check turns a func into a validator.String.
type check struct {
	desc string
	fn   func(string) error
}

var _ validator.String = check{}

func (c check) Description(context.Context) string         { return c.desc }
func (c check) MarkdownDescription(context.Context) string { return c.desc }

func (c check) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := c.fn(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid "+lastStep(req.Path.String()), err.Error())
	}
}

func lastStep(p string) string {
	if i := strings.LastIndexAny(p, "."); i >= 0 {
		return p[i+1:]
	}
	return p
}

var (
	fleetNameRE = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	nsRE        = regexp.MustCompile(`^[a-z0-9_][a-z0-9_-]{0,62}$`)
	bucketRE    = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	memberRE    = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]{0,127}$`)
	hostRE      = regexp.MustCompile(`^[A-Za-z0-9]([A-Za-z0-9.-]{0,252})$`)
)

// FleetName accepts what dwk.json's fleet.name accepts: 1–63 characters of
// a-z, 0-9 and '-', not starting or ending with '-'.
func FleetName() validator.String {
	return check{"1-63 characters of a-z, 0-9 and '-', not starting or ending with '-'", CheckFleetName}
}

// CheckFleetName is FleetName's check, for the provider's functions: an
// error saying what a fleet name looks like when s is not one.
func CheckFleetName(s string) error {
	if !fleetNameRE.MatchString(s) {
		return fmt.Errorf("%q is not a fleet name: use 1-63 characters of a-z, 0-9 and '-', not starting or ending with '-'", s)
	}
	return nil
}

// NamespaceName accepts a libSQL namespace name as dwk libsql does (sqld is
// laxer): 1–63 characters of a-z, 0-9, '-' and '_', not starting with '-'.
func NamespaceName() validator.String {
	return check{"1-63 characters of a-z, 0-9, '-' and '_', not starting with '-'", func(s string) error {
		if !nsRE.MatchString(s) {
			return fmt.Errorf("%q is not a database (namespace) name: use 1-63 characters of a-z, 0-9, '-' and '_', not starting with '-'", s)
		}
		return nil
	}}
}

// BucketName accepts an S3 bucket name: 3–63 characters of a-z, 0-9, '.'
// and '-', starting and ending with a letter or digit, no "..", not an IP.
func BucketName() validator.String {
	return check{"an S3 bucket name (3-63 characters of a-z, 0-9, '.' and '-')", func(s string) error {
		if !bucketRE.MatchString(s) || strings.Contains(s, "..") || net.ParseIP(s) != nil {
			return fmt.Errorf("%q is not a bucket name: use 3-63 characters of a-z, 0-9, '.' and '-', starting and ending with a letter or digit", s)
		}
		return nil
	}}
}

// MemberName accepts a replica member name.
func MemberName() validator.String {
	return check{"1-128 characters of A-Z, a-z, 0-9, '.', '_', ':', '@' and '-'", func(s string) error {
		if !memberRE.MatchString(s) {
			return fmt.Errorf("%q is not a member name: use 1-128 characters of A-Z, a-z, 0-9, '.', '_', ':', '@' and '-'", s)
		}
		return nil
	}}
}

// HostAddress accepts "local" or a host name or IP address (no port).
func HostAddress() validator.String {
	return check{`"local", a host name or an IP address`, func(s string) error {
		if s == "local" || net.ParseIP(s) != nil || hostRE.MatchString(s) {
			return nil
		}
		return fmt.Errorf("%q is not \"local\", a host name or an IP address (give the SSH port in port)", s)
	}}
}

// ListenAddress accepts host:port with a port of 1-65535; the host may be
// empty or a wildcard.
func ListenAddress() validator.String {
	return check{"host:port, port 1-65535", func(s string) error {
		_, p, err := net.SplitHostPort(s)
		if err != nil {
			return fmt.Errorf("%q is not host:port: %v", s, err)
		}
		if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
			return fmt.Errorf("%q: the port must be a number from 1 to 65535", s)
		}
		return nil
	}}
}

// Duration accepts a Go duration string ("30s", "1m30s") of at least min.
func Duration(min time.Duration) validator.String {
	return check{fmt.Sprintf("a duration like \"30s\" or \"2m\", at least %s", min), func(s string) error {
		d, err := time.ParseDuration(s)
		if err != nil {
			return fmt.Errorf("%q is not a duration: write it like \"30s\", \"1m30s\" or \"500ms\"", s)
		}
		if d < min {
			return fmt.Errorf("%q is shorter than the minimum %s", s, min)
		}
		return nil
	}}
}

// AbsPath accepts a clean absolute path other than "/".
func AbsPath() validator.String {
	return check{"a clean absolute path other than /", func(s string) error {
		if !path.IsAbs(s) || path.Clean(s) != s || s == "/" {
			return fmt.Errorf("%q must be a clean absolute path other than / (e.g. /opt/dwk/prod)", s)
		}
		if strings.ContainsAny(s, "\n\x00") {
			return fmt.Errorf("%q contains a newline or NUL", s)
		}
		return nil
	}}
}

// URL accepts an absolute URL with one of schemes and a host.
func URL(schemes ...string) validator.String {
	return check{"a URL with scheme " + strings.Join(schemes, ", "), func(s string) error {
		u, err := url.Parse(s)
		if err != nil {
			return fmt.Errorf("%q is not a URL: %v", s, err)
		}
		for _, sc := range schemes {
			if u.Scheme == sc && u.Host != "" {
				return nil
			}
		}
		return fmt.Errorf("%q must be a URL like %s://host[:port]", s, schemes[0])
	}}
}

// SSHPublicKey accepts a public key in authorized_keys format.
func SSHPublicKey() validator.String {
	return check{`an SSH public key in authorized_keys format ("ssh-ed25519 AAAA...")`, func(s string) error {
		_, err := sshtarget.ParseHostKey(s)
		return err
	}}
}

// SSHPrivateKey accepts a PEM private key, encrypted or not.
func SSHPrivateKey() validator.String {
	return check{"an SSH private key (PEM)", sshtarget.CheckPrivateKey}
}
