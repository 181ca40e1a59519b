package dwkstorage

import (
	"path"
	"strings"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// keyRoot is the first part of every coordination key this storage
// writes; the second is the configured prefix.
const keyRoot = "caddy"

// Subspaces under (keyRoot, prefix).
const (
	spaceData = "data"
	spaceLock = "lock"
)

// keyspace maps storage keys and lock names to coordination keys.
type keyspace struct{ prefix string }

// data is the coordination key of the storage key with components parts;
// with no parts it is the prefix of every data key.
func (k keyspace) data(parts []string) tuple.Key {
	key := make(tuple.Key, 0, 3+len(parts))
	key = append(key, keyRoot, k.prefix, spaceData)
	for _, p := range parts {
		key = append(key, p)
	}
	return key
}

// lock is the coordination key of the lock named name.
func (k keyspace) lock(name string) tuple.Key {
	return tuple.Key{keyRoot, k.prefix, spaceLock, name}
}

// parts returns the components of the storage key of a data key, nil if
// key is not one.
func (k keyspace) parts(key tuple.Key) []string {
	if len(key) < 3 {
		return nil
	}
	out := make([]string, 0, len(key)-3)
	for _, p := range key[3:] {
		s, ok := p.(string)
		if !ok {
			return nil
		}
		out = append(out, s)
	}
	return out
}

// split returns the cleaned components of a storage key; none for the
// root.
func split(key string) []string {
	clean := strings.TrimPrefix(path.Clean("/"+key), "/")
	if clean == "" {
		return nil
	}
	return strings.Split(clean, "/")
}

// join is the storage key of parts.
func join(parts []string) string { return strings.Join(parts, "/") }
