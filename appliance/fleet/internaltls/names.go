package internaltls

import (
	"crypto/x509"
	"net/url"
	"strings"
)

// uriScheme is the scheme of member URI SANs.
const uriScheme = "dwk"

// MemberURI is the URI SAN naming member of fleet.
func MemberURI(fleet, member string) *url.URL {
	return &url.URL{Scheme: uriScheme, Host: fleet, Path: "/member/" + member, RawPath: "/member/" + url.PathEscape(member)}
}

// MemberOf returns the member of fleet that cert names, if it names one.
func MemberOf(cert *x509.Certificate, fleet string) (string, bool) {
	for _, u := range cert.URIs {
		if u.Scheme != uriScheme || u.Host != fleet {
			continue
		}
		if m, ok := strings.CutPrefix(u.Path, "/member/"); ok && m != "" {
			return m, true
		}
	}
	return "", false
}

// names lists the dwk URIs cert carries, for error messages.
func names(cert *x509.Certificate) string {
	var out []string
	for _, u := range cert.URIs {
		out = append(out, u.String())
	}
	if len(out) == 0 {
		return "no dwk:// URI SAN (subject " + cert.Subject.String() + ")"
	}
	return strings.Join(out, ", ")
}

// anyMember reports whether cert names a member of any fleet.
func anyMember(cert *x509.Certificate) bool {
	for _, u := range cert.URIs {
		if u.Scheme == uriScheme && strings.HasPrefix(u.Path, "/member/") && len(u.Path) > len("/member/") {
			return true
		}
	}
	return false
}
