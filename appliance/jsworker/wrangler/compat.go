package wrangler

// knownFlags are the compatibility flags this package gives a meaning to.
// Load keeps every flag in CompatibilityFlags, and warns about the others:
// the runtime may not implement them, so the worker may behave as if they
// were not set.
var knownFlags = map[string]bool{
	"nodejs_compat":       true, // Node.js APIs: NodeCompat
	"nodejs_compat_v2":    true, // the same, with polyfills: NodeCompat
	"no_nodejs_compat_v2": true, // opts out of v2 only; NodeCompat still holds with nodejs_compat
	"nodejs_als":          true, // node:async_hooks only: AsyncLocalStorage
}

// HasFlag reports whether compatibility_flags holds flag.
func (p *Project) HasFlag(flag string) bool {
	for _, f := range p.CompatibilityFlags {
		if f == flag {
			return true
		}
	}
	return false
}

// NodeCompat reports whether the worker asks for Node.js APIs:
// compatibility_flags holds "nodejs_compat" or "nodejs_compat_v2".
func (p *Project) NodeCompat() bool {
	return p.HasFlag("nodejs_compat") || p.HasFlag("nodejs_compat_v2")
}

// AsyncLocalStorage reports whether the worker may import node:async_hooks:
// with NodeCompat, or with "nodejs_als", which grants that module alone.
func (p *Project) AsyncLocalStorage() bool {
	return p.NodeCompat() || p.HasFlag("nodejs_als")
}
