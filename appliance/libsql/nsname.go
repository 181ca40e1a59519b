package libsql

import (
	"encoding/base64"
	"fmt"
	"net"
	"net/http"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// DefaultNamespace is the namespace that always exists and receives
// requests that name no other.
const DefaultNamespace = "default"

// maxNamespaceLen is the longest namespace name: one DNS label.
const maxNamespaceLen = 63

// ValidateNamespace checks a namespace name. dwk is stricter than sqld
// (which only refuses empty names) because names become directory names
// and host labels: 1 to 63 characters from a-z, 0-9, '-' and '_', not
// starting with '-'.
func ValidateNamespace(name string) error {
	if name == "" {
		return fmt.Errorf("namespace name is empty")
	}
	if len(name) > maxNamespaceLen {
		return fmt.Errorf("namespace name %.20q... is longer than %d characters", name, maxNamespaceLen)
	}
	if name[0] == '-' {
		return fmt.Errorf("namespace name %q starts with '-'", name)
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("namespace name %q contains %q; allowed are a-z, 0-9, '-' and '_'", name, rune(c))
		}
	}
	return nil
}

// Request headers that name a namespace, checked in this order before the
// Host header, as sqld does.
const (
	headerNamespaceBin = "x-namespace-bin" // base64 (standard, no padding)
	headerNamespace    = "x-namespace"
)

// namespaceFromRequest returns the namespace a user API request addresses:
// x-namespace-bin, then x-namespace, then the first label of a DNS Host
// ("ns1.db.example.com" -> "ns1"). A Host that is an IP address or a single
// label ("localhost") addresses the default namespace. sqld would take
// "127" from "127.0.0.1"; dwk does not, so plain IP URLs keep working.
func namespaceFromRequest(r *http.Request, disabled bool) (string, *hrana.Error) {
	if disabled {
		return DefaultNamespace, nil
	}
	if v := r.Header.Get(headerNamespaceBin); v != "" {
		raw, err := base64.RawStdEncoding.DecodeString(strings.TrimRight(v, "="))
		if err != nil {
			return "", hrana.Errorf(hrana.CodeInvalidNamespace, "Invalid namespace bytes: `%s` header is not base64: %v", headerNamespaceBin, err)
		}
		return checkedNamespace(string(raw))
	}
	if v := r.Header.Get(headerNamespace); v != "" {
		return checkedNamespace(v)
	}
	return namespaceFromHost(r.Host)
}

// namespaceFromHost applies the Host rule of namespaceFromRequest.
func namespaceFromHost(host string) (string, *hrana.Error) {
	if h, _, err := net.SplitHostPort(host); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.Trim(host, "[]"), ".")
	if host == "" || net.ParseIP(host) != nil {
		return DefaultNamespace, nil
	}
	label, _, found := strings.Cut(host, ".")
	if !found {
		return DefaultNamespace, nil
	}
	return checkedNamespace(strings.ToLower(label))
}

func checkedNamespace(name string) (string, *hrana.Error) {
	if err := ValidateNamespace(name); err != nil {
		return "", hrana.Errorf(hrana.CodeInvalidNamespace, "Invalid namespace: %v", err)
	}
	return name, nil
}
