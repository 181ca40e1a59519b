package node

import (
	"context"
	"crypto/hkdf"
	"crypto/pbkdf2"
	"fmt"

	"github.com/dop251/goja"
	"golang.org/x/crypto/scrypt"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// installKDF adds the natives of pbkdf2, hkdf and scrypt. Each takes its
// inputs already validated by the prelude and a last argument async: when
// true it returns a promise of the key (the work runs off the loop), else
// the key itself, as an ArrayBuffer.
func installKDF(iso *jsrt.Isolate, n *goja.Object) {
	bytesArg := func(v goja.Value, what string) []byte {
		b, ok := iso.Bytes(v)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "%s must be a string, an ArrayBuffer, a Buffer, a TypedArray or a DataView", what))
		}
		return append([]byte(nil), b...) // the work may run after JavaScript changed them
	}
	// run derives a key; a zero length, which Go's functions refuse,
	// gives an empty key as in Node.
	run := func(async bool, keylen int, derive func() ([]byte, error)) goja.Value {
		if keylen == 0 {
			derive = func() ([]byte, error) { return []byte{}, nil }
		}
		if !async {
			key, err := derive()
			if err != nil {
				iso.Throw(err)
			}
			return iso.NewArrayBuffer(key)
		}
		return iso.Async(func(context.Context) (jsrt.Settle, error) {
			key, err := derive()
			if err != nil {
				return nil, err
			}
			return func(*goja.Runtime) (goja.Value, error) { return iso.NewArrayBuffer(key), nil }, nil
		})
	}
	// pbkdf2(password, salt, iterations, keylen, digest, async)
	n.Set("pbkdf2", func(c goja.FunctionCall) goja.Value {
		pass, salt := bytesArg(c.Argument(0), "password"), bytesArg(c.Argument(1), "salt")
		iter, keylen := int(c.Argument(2).ToInteger()), int(c.Argument(3).ToInteger())
		newHash, err := hashNamed(c.Argument(4).String())
		if err != nil {
			panic(codedError(iso, "TypeError", "ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: "+c.Argument(4).String()))
		}
		return run(c.Argument(5).ToBoolean(), keylen, func() ([]byte, error) {
			return pbkdf2.Key(newHash, string(pass), salt, iter, keylen)
		})
	})
	// hkdf(digest, ikm, salt, info, keylen, async)
	n.Set("hkdf", func(c goja.FunctionCall) goja.Value {
		newHash, err := hashNamed(c.Argument(0).String())
		if err != nil {
			panic(codedError(iso, "TypeError", "ERR_CRYPTO_INVALID_DIGEST", "Invalid digest: "+c.Argument(0).String()))
		}
		ikm, salt, info := bytesArg(c.Argument(1), "ikm"), bytesArg(c.Argument(2), "salt"), bytesArg(c.Argument(3), "info")
		keylen := int(c.Argument(4).ToInteger())
		if max := 255 * newHash().Size(); keylen > max {
			panic(codedError(iso, "RangeError", "ERR_CRYPTO_INVALID_KEYLEN", fmt.Sprintf("Invalid key length: hkdf with %s gives at most %d bytes", c.Argument(0).String(), max)))
		}
		return run(c.Argument(5).ToBoolean(), keylen, func() ([]byte, error) {
			return hkdf.Key(newHash, ikm, salt, string(info), keylen)
		})
	})
	// scrypt(password, salt, keylen, N, r, p, maxmem, async)
	n.Set("scrypt", func(c goja.FunctionCall) goja.Value {
		pass, salt := bytesArg(c.Argument(0), "password"), bytesArg(c.Argument(1), "salt")
		keylen := int(c.Argument(2).ToInteger())
		N, r, p := int(c.Argument(3).ToInteger()), int(c.Argument(4).ToInteger()), int(c.Argument(5).ToInteger())
		maxmem := c.Argument(6).ToInteger()
		if N < 2 || N&(N-1) != 0 || r < 1 || p < 1 || int64(128)*int64(N)*int64(r) > maxmem {
			panic(codedError(iso, "RangeError", "ERR_CRYPTO_INVALID_SCRYPT_PARAMS",
				fmt.Sprintf("Invalid scrypt params: N must be a power of two above 1, r and p positive, and 128*N*r (%d) at most maxmem (%d)", 128*int64(N)*int64(r), maxmem)))
		}
		return run(c.Argument(7).ToBoolean(), keylen, func() ([]byte, error) {
			return scrypt.Key(pass, salt, N, r, p, keylen)
		})
	})
}
