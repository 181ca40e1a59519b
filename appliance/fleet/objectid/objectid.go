// Package objectid derives, checks and places Durable Object ids.
//
// It has no dependencies outside the standard library so that every part of
// the fleet that must agree on ids — the object runtime, the Caddy affinity
// policy, the Terraform provider's id function — computes them identically.
//
// # Id scheme
//
// An id is 32 bytes, written as 64 lowercase hex digits:
//
//	id[0:16]  = body: the name hash (FromName) or 16 random bytes (New)
//	id[16:32] = tag:  HMAC-SHA256(secret, "dwk/objectid/tag\x00" || lp(namespace) || body)[:16]
//
// where the body of a named id is
//
//	HMAC-SHA256(secret, "dwk/objectid/name\x00" || lp(namespace) || name)[:16]
//
// and lp(s) is the byte length of s as a 4-byte big-endian unsigned integer
// followed by the bytes of s (so that no namespace/name split is ambiguous).
// secret is the fleet secret; namespace is the object namespace (the object
// class name).
//
// Consequences: the same secret, namespace and name always give the same id;
// without the secret nobody can compute the id of a name or forge an id that
// Parse accepts; an id of one namespace fails Parse in every other namespace
// (except with probability 2^-128). Named and random ids are not
// distinguishable from each other.
package objectid

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
)

// Size is the length of an id in bytes.
const Size = 32

// bodySize is the length of the name hash or random part; the rest is the tag.
const bodySize = 16

// Domain-separation labels of the two HMAC uses.
const (
	nameLabel = "dwk/objectid/name\x00"
	tagLabel  = "dwk/objectid/tag\x00"
)

// ErrInvalid is returned by Parse for text that is not an id of the
// namespace.
var ErrInvalid = errors.New("invalid object id")

// ID is a 256-bit object id.
type ID [Size]byte

// String is the id as 64 lowercase hex digits.
func (id ID) String() string { return hex.EncodeToString(id[:]) }

// FromName returns the deterministic id of name in namespace.
func FromName(secret []byte, namespace, name string) ID {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(nameLabel))
	writeLP(m, namespace)
	m.Write([]byte(name))
	var id ID
	copy(id[:bodySize], m.Sum(nil))
	seal(&id, secret, namespace)
	return id
}

// New returns a random id in namespace, reading 16 bytes from rand
// (crypto/rand.Reader in production).
func New(secret []byte, namespace string, rand io.Reader) (ID, error) {
	var id ID
	if _, err := io.ReadFull(rand, id[:bodySize]); err != nil {
		return ID{}, fmt.Errorf("new object id: %w", err)
	}
	seal(&id, secret, namespace)
	return id, nil
}

// Parse decodes the hex form of an id and checks that it belongs to
// namespace. Upper-case hex digits are accepted.
func Parse(secret []byte, namespace, s string) (ID, error) {
	var id ID
	if len(s) != 2*Size {
		return ID{}, fmt.Errorf("%w: want %d hex digits, got %d characters", ErrInvalid, 2*Size, len(s))
	}
	if _, err := hex.Decode(id[:], []byte(s)); err != nil {
		return ID{}, fmt.Errorf("%w: %v", ErrInvalid, err)
	}
	if !Valid(secret, namespace, id) {
		return ID{}, fmt.Errorf("%w: not an id of namespace %q", ErrInvalid, namespace)
	}
	return id, nil
}

// Valid reports whether id carries the tag of namespace under secret.
func Valid(secret []byte, namespace string, id ID) bool {
	want := tag(secret, namespace, id[:bodySize])
	return hmac.Equal(want, id[bodySize:])
}

func seal(id *ID, secret []byte, namespace string) {
	copy(id[bodySize:], tag(secret, namespace, id[:bodySize]))
}

func tag(secret []byte, namespace string, body []byte) []byte {
	m := hmac.New(sha256.New, secret)
	m.Write([]byte(tagLabel))
	writeLP(m, namespace)
	m.Write(body)
	return m.Sum(nil)[:Size-bodySize]
}

func writeLP(w io.Writer, s string) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(s)))
	w.Write(n[:])
	w.Write([]byte(s))
}
