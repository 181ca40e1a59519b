// Package namespaces names the libSQL databases (sqld namespaces) of a fleet
// in one place, so replicas, the Terraform provider and its modules agree.
// sqld namespaces are 1–63 characters of a-z, 0-9, '-' and '_'; names that
// would be longer keep a readable prefix and end in a hash of the full name.
package namespaces

import (
	"crypto/sha256"
	"encoding/hex"

	"github.com/dwk/fleet/appliance/fleet/coord"
)

// MaxLen is the longest namespace name.
const MaxLen = 63

// Coord is the coordination database of fleet.
func Coord(fleet string) string { return fit(coord.NamespaceFor(fleet)) }

// Queues is the queue broker's database of fleet.
func Queues(fleet string) string { return fit("dwk-queues-" + fleet) }

// D1 is the database behind D1 database name of fleet.
func D1(fleet, name string) string { return fit("dwk-" + fleet + "-d1-" + name) }

// fit returns s when it is short enough, else a prefix of it followed by
// '-' and 16 hex digits of its SHA-256.
func fit(s string) string {
	if len(s) <= MaxLen {
		return s
	}
	sum := sha256.Sum256([]byte(s))
	h := hex.EncodeToString(sum[:8])
	return s[:MaxLen-len(h)-1] + "-" + h
}

// ObjectPrefix starts the database names of fleet's objects (at most 20
// characters, as objcentral requires): "do-<fleet>-" for fleet names of up
// to 16 characters, else "do-" and 8 hex digits of the name's hash.
func ObjectPrefix(fleet string) string {
	if len(fleet) <= 16 {
		return "do-" + fleet + "-"
	}
	sum := sha256.Sum256([]byte(fleet))
	return "do-" + hex.EncodeToString(sum[:4]) + "-"
}
