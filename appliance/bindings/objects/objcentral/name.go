package objcentral

import (
	"crypto/sha256"
	"encoding/base32"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/dwk/fleet/appliance/worker"
)

// Database names are sqld namespace names, which dwk libsql restricts to
// one DNS label: 1–63 characters from a-z, 0-9, '-' and '_', not starting
// with '-'. An object's database is named
//
//	<prefix><class slug>-<hash>
//
// where hash is the first 40 characters of the lowercase base32 SHA-256 of
// class, a zero byte and the id's 32 bytes (200 bits: collision-free in
// practice), and the class slug is the class name lowercased with other
// characters replaced by '_', shortened to fit — there for operators
// reading namespace lists, not for uniqueness. Objects made by this
// version have no database of their own: the name keys their rows in
// their pack,
//
//	<prefix>pack-<nn>
//
// where nn, two decimal digits, is packOf the object (packs.go). A pack
// name never ends in a 40-character hash, so it is never an object's
// database name.
const (
	maxNamespaceLen = 63
	hashLen         = 40
	// maxPrefixLen leaves room for the hash, a dash and a two-letter slug.
	maxPrefixLen = maxNamespaceLen - hashLen - 1 - 2
)

// DefaultNamespacePrefix starts object database names when
// StoreConfig.NamespacePrefix is empty.
const DefaultNamespacePrefix = "do-"

var nameEncoding = base32.NewEncoding("abcdefghijklmnopqrstuvwxyz234567").WithPadding(base32.NoPadding)

// validPrefix checks a namespace prefix.
func validPrefix(p string) error {
	if p == "" || len(p) > maxPrefixLen {
		return fmt.Errorf("namespace prefix %q must be 1 to %d characters", p, maxPrefixLen)
	}
	if p[0] == '-' {
		return fmt.Errorf("namespace prefix %q must not start with '-'", p)
	}
	for i := 0; i < len(p); i++ {
		if !nameChar(p[i]) {
			return fmt.Errorf("namespace prefix %q contains %q; allowed are a-z, 0-9, '-' and '_'", p, p[i])
		}
	}
	return nil
}

func nameChar(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_'
}

// objectHash is the SHA-256 of id's class, a zero byte and id's bytes.
func objectHash(id worker.ObjectID) []byte {
	raw := id.Bytes()
	h := sha256.New()
	h.Write([]byte(id.Namespace()))
	h.Write([]byte{0})
	h.Write(raw[:])
	return h.Sum(nil)
}

// namespaceName is the database name of id under prefix.
func namespaceName(prefix string, id worker.ObjectID) string {
	hash := nameEncoding.EncodeToString(objectHash(id))[:hashLen]
	room := maxNamespaceLen - len(prefix) - hashLen - 1
	var slug strings.Builder
	for _, c := range []byte(strings.ToLower(id.Namespace())) {
		if slug.Len() == room {
			break
		}
		if !nameChar(c) {
			c = '_'
		}
		slug.WriteByte(c)
	}
	if slug.Len() == 0 {
		return prefix + hash
	}
	return prefix + slug.String() + "-" + hash
}

// packsPerShard is how many packs each shard has. It never changes: an
// object's pack is derived from it.
const packsPerShard = 32

// packOf is the pack of id: a number below packsPerShard, from bytes of
// its hash the database name does not use.
func packOf(id worker.ObjectID) int {
	return int(binary.BigEndian.Uint32(objectHash(id)[28:]) % packsPerShard)
}

// packName is the database name of pack n under prefix.
func packName(prefix string, n int) string { return fmt.Sprintf("%spack-%02d", prefix, n) }
