// Package buildinfo tells which dwk this is: its version and the newest
// central-store schema it understands.
package buildinfo

import (
	"runtime/debug"
	"sync"
)

// version is set at link time with
// -ldflags "-X github.com/dwk/fleet/appliance/process/buildinfo.version=v1.2.3".
var version string

// SchemaVersion is the newest layout of the central stores this binary reads
// and writes. A mode marker naming a newer schema makes a replica refuse to
// start.
const SchemaVersion = 1

var fallback = sync.OnceValue(func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	if v := bi.Main.Version; v != "" && v != "(devel)" {
		return v
	}
	rev, dirty := "", false
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			dirty = s.Value == "true"
		}
	}
	if rev == "" {
		return "devel"
	}
	if len(rev) > 12 {
		rev = rev[:12]
	}
	if dirty {
		rev += "-dirty"
	}
	return "devel-" + rev
})

// Version is the dwk version string.
func Version() string {
	if version != "" {
		return version
	}
	return fallback()
}
