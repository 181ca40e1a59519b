package project

import (
	"fmt"
	"strings"
)

// StoreName is name as a dwk store name (see the package doc): lower
// case, characters outside a-z, 0-9, '_' and '-' replaced by '-', at
// most 63 long. It fails for a name with no letter or digit.
func StoreName(name string) (string, error) {
	var b strings.Builder
	for _, r := range strings.ToLower(name) {
		switch {
		case 'a' <= r && r <= 'z', '0' <= r && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('-')
		}
	}
	s := strings.TrimLeft(b.String(), "_-")
	if len(s) > 63 {
		s = s[:63]
	}
	if s == "" {
		return "", fmt.Errorf("%q has no letter or digit to name a store by", name)
	}
	return s, nil
}
