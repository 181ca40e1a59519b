package node

import (
	"crypto/hmac"
	"crypto/md5"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha3"
	"crypto/sha512"
	"crypto/subtle"
	"encoding"
	"fmt"
	"hash"
	"strings"

	"github.com/dop251/goja"
	"golang.org/x/crypto/ripemd160" //nolint:staticcheck // Node still offers it and libraries (bitcoin, ssh) use it

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// hashes are the digests createHash, createHmac and the key derivations
// take, by the lower-case names Node (OpenSSL) gives them, aliases
// included.
var hashes = map[string]func() hash.Hash{
	"md5":        md5.New,
	"sha1":       sha1.New,
	"sha224":     sha256.New224,
	"sha256":     sha256.New,
	"sha384":     sha512.New384,
	"sha512":     sha512.New,
	"sha512-224": sha512.New512_224,
	"sha512-256": sha512.New512_256,
	"sha3-224":   func() hash.Hash { return sha3.New224() },
	"sha3-256":   func() hash.Hash { return sha3.New256() },
	"sha3-384":   func() hash.Hash { return sha3.New384() },
	"sha3-512":   func() hash.Hash { return sha3.New512() },
	"ripemd160":  ripemd160.New,
}

// hashAliases are other names OpenSSL accepts for the hashes.
var hashAliases = map[string]string{
	"rsa-md5": "md5", "rsa-sha1": "sha1", "rsa-sha224": "sha224", "rsa-sha256": "sha256",
	"rsa-sha384": "sha384", "rsa-sha512": "sha512", "sha-1": "sha1", "sha-224": "sha224",
	"sha-256": "sha256", "sha-384": "sha384", "sha-512": "sha512", "sha2-224": "sha224",
	"sha2-256": "sha256", "sha2-384": "sha384", "sha2-512": "sha512", "sha512/224": "sha512-224",
	"sha512/256": "sha512-256", "rsa-sha512/224": "sha512-224", "rsa-sha512/256": "sha512-256",
	"ripemd": "ripemd160", "ripemd-160": "ripemd160", "rmd160": "ripemd160", "rsa-ripemd160": "ripemd160",
	"rsa-sha3-224": "sha3-224", "rsa-sha3-256": "sha3-256", "rsa-sha3-384": "sha3-384", "rsa-sha3-512": "sha3-512",
	"md5-sha1": "", // listed by Node, not offered here
}

// hashNamed returns the constructor of the hash called name, or an error
// worded as Node's.
func hashNamed(name string) (func() hash.Hash, error) {
	key := strings.ToLower(name)
	if alias, ok := hashAliases[key]; ok {
		key = alias
	}
	if h, ok := hashes[key]; ok {
		return h, nil
	}
	return nil, jsrt.Errorf("Error", "Digest method not supported: %q (dwk offers %s)", name, strings.Join(hashNames(), ", "))
}

// hashNames are the names getHashes lists.
func hashNames() []string {
	return []string{"md5", "ripemd160", "sha1", "sha224", "sha256", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "sha384", "sha512", "sha512-224", "sha512-256"}
}

// hashState is a Hash or Hmac in progress.
type hashState struct {
	h       hash.Hash
	newHash func() hash.Hash // for copies; nil for an Hmac
	done    bool
}

// installHash adds the natives of createHash and createHmac: handles over
// a running hash.Hash.
func installHash(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	state := func(v goja.Value) *hashState {
		s, ok := v.Export().(*hashState)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "not a hash"))
		}
		if s.done {
			panic(codedError(iso, "Error", "ERR_CRYPTO_HASH_FINALIZED", "Digest already called"))
		}
		return s
	}
	n.Set("hashNames", func(goja.FunctionCall) goja.Value { return rt.ToValue(hashNames()) })
	n.Set("hashNew", func(c goja.FunctionCall) goja.Value {
		newHash, err := hashNamed(c.Argument(0).String())
		if err != nil {
			iso.Throw(err)
		}
		return rt.ToValue(&hashState{h: newHash(), newHash: newHash})
	})
	n.Set("hmacNew", func(c goja.FunctionCall) goja.Value {
		newHash, err := hashNamed(c.Argument(0).String())
		if err != nil {
			iso.Throw(err)
		}
		key, ok := iso.Bytes(c.Argument(1))
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "the HMAC key must be a string, a Buffer, a TypedArray or a DataView"))
		}
		return rt.ToValue(&hashState{h: hmac.New(newHash, key)})
	})
	// hashUpdate(handle, data, encoding) feeds a string in encoding, or
	// the bytes of a view.
	n.Set("hashUpdate", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		data := c.Argument(1)
		if b, ok := iso.Bytes(data); ok {
			s.h.Write(b)
		} else {
			s.h.Write(encodeString(data, c.Argument(2).String()))
		}
		return goja.Undefined()
	})
	// hashDigest(handle, encoding) ends the hash: its digest as a string
	// in encoding, or without one as an ArrayBuffer.
	n.Set("hashDigest", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		s.done = true
		sum := s.h.Sum(nil)
		if enc := c.Argument(1); !goja.IsUndefined(enc) {
			return decodeBytes(rt, sum, enc.String())
		}
		return iso.NewArrayBuffer(sum)
	})
	n.Set("timingSafeEqual", func(c goja.FunctionCall) goja.Value {
		a, ok1 := iso.Bytes(c.Argument(0))
		b, ok2 := iso.Bytes(c.Argument(1))
		if !ok1 || !ok2 {
			iso.Throw(jsrt.Errorf("TypeError", "timingSafeEqual takes two ArrayBuffers, Buffers, TypedArrays or DataViews"))
		}
		return rt.ToValue(subtle.ConstantTimeCompare(a, b) == 1)
	})
	n.Set("hashCopy", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		if s.newHash == nil {
			iso.Throw(jsrt.Errorf("Error", "an Hmac cannot be copied"))
		}
		fresh := s.newHash()
		m, ok := s.h.(encoding.BinaryMarshaler)
		u, ok2 := fresh.(encoding.BinaryUnmarshaler)
		if !ok || !ok2 {
			iso.Throw(jsrt.Errorf("Error", "this hash cannot be copied"))
		}
		b, err := m.MarshalBinary()
		if err == nil {
			err = u.UnmarshalBinary(b)
		}
		if err != nil {
			iso.Throw(fmt.Errorf("copy the hash: %w", err))
		}
		return rt.ToValue(&hashState{h: fresh, newHash: s.newHash})
	})
}
