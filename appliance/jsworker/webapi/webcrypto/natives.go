package webcrypto

import (
	"context"
	"crypto/rand"
	"crypto/subtle"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// natives are the Go functions the prelude calls, on host.webcrypto. The
// prelude has converted and checked their arguments; a native throws
// (with throw) for what only Go can check.
type natives struct {
	iso *jsrt.Isolate
}

func install(iso *jsrt.Isolate, host *goja.Object) error {
	n := &natives{iso: iso}
	o := iso.Runtime().NewObject()
	for name, fn := range map[string]func(goja.FunctionCall) goja.Value{
		"fillRandom":      n.fillRandom,
		"randomUUID":      n.randomUUID,
		"digest":          n.digest,
		"hashNew":         n.hashNew,
		"hashWrite":       n.hashWrite,
		"hashSum":         n.hashSum,
		"timingSafeEqual": n.timingSafeEqual,
		"utf8Encode":      n.utf8Encode,
		"utf8Decode":      n.utf8Decode,
		"importKey":       n.importKey,
		"exportKey":       n.exportKey,
		"generateKey":     n.generateKey,
		"sign":            n.sign,
		"verify":          n.verify,
		"encrypt":         n.encrypt,
		"decrypt":         n.decrypt,
		"deriveBits":      n.deriveBits,
	} {
		if err := o.Set(name, fn); err != nil {
			return err
		}
	}
	return host.Set("webcrypto", o)
}

func (n *natives) bytes(v goja.Value, what string) []byte {
	b, ok := n.iso.Bytes(v)
	if !ok {
		throw(n.iso, jsrt.Errorf(typeError, "%s must be an ArrayBuffer or an ArrayBuffer view", what))
	}
	return b
}

func (n *natives) check(err error) {
	if err != nil {
		throw(n.iso, err)
	}
}

// fillRandom(view) fills an integer typed array with random bytes.
func (n *natives) fillRandom(c goja.FunctionCall) goja.Value {
	b := n.bytes(c.Argument(0), "getRandomValues' argument")
	if len(b) > MaxRandomBytes {
		throw(n.iso, jsrt.Errorf("QuotaExceededError", "getRandomValues fills at most %d bytes, not %d", MaxRandomBytes, len(b)))
	}
	rand.Read(b)
	return goja.Undefined()
}

func (n *natives) randomUUID(goja.FunctionCall) goja.Value {
	return n.iso.Runtime().ToValue(randomUUID())
}

// digest(name, data) → ArrayBuffer.
func (n *natives) digest(c goja.FunctionCall) goja.Value {
	out, err := digest(c.Argument(0).String(), n.bytes(c.Argument(1), "data"))
	n.check(err)
	return n.iso.NewArrayBuffer(out)
}

// hashNew(name) → a running hash's handle, for DigestStream.
func (n *natives) hashNew(c goja.FunctionCall) goja.Value {
	h, err := newStreamHash(c.Argument(0).String())
	n.check(err)
	return n.iso.Runtime().ToValue(&streamHash{h: h})
}

// hashWrite(handle, chunk) hashes a chunk (bytes, or a string as UTF-8)
// and returns its length in bytes.
func (n *natives) hashWrite(c goja.FunctionCall) goja.Value {
	sh, ok := c.Argument(0).Export().(*streamHash)
	if !ok {
		throw(n.iso, jsrt.Errorf(typeError, "not a DigestStream hash"))
	}
	chunk := c.Argument(1)
	if s, ok := chunk.Export().(string); ok {
		sh.h.Write([]byte(s))
		return n.iso.Runtime().ToValue(len(s))
	}
	b := n.bytes(chunk, "a DigestStream chunk")
	sh.h.Write(b)
	return n.iso.Runtime().ToValue(len(b))
}

// hashSum(handle) → ArrayBuffer.
func (n *natives) hashSum(c goja.FunctionCall) goja.Value {
	sh, ok := c.Argument(0).Export().(*streamHash)
	if !ok {
		throw(n.iso, jsrt.Errorf(typeError, "not a DigestStream hash"))
	}
	return n.iso.NewArrayBuffer(sh.h.Sum(nil))
}

// timingSafeEqual(a, b) compares in time that depends only on the length.
func (n *natives) timingSafeEqual(c goja.FunctionCall) goja.Value {
	a, b := n.bytes(c.Argument(0), "a"), n.bytes(c.Argument(1), "b")
	if len(a) != len(b) {
		throw(n.iso, jsrt.Errorf(typeError, "Input buffers must have the same byte length"))
	}
	return n.iso.Runtime().ToValue(subtle.ConstantTimeCompare(a, b) == 1)
}

func (n *natives) utf8Encode(c goja.FunctionCall) goja.Value {
	return n.iso.NewArrayBuffer([]byte(c.Argument(0).String()))
}

func (n *natives) utf8Decode(c goja.FunctionCall) goja.Value {
	return n.iso.Runtime().ToValue(string(n.bytes(c.Argument(0), "data")))
}

// importKey(format, data, alg, extractable, usages) → {handle, type,
// algorithm}. data is bytes, or for jwk the JSON of the JsonWebKey.
func (n *natives) importKey(c goja.FunctionCall) goja.Value {
	format := c.Argument(0).String()
	p, err := readParams(n.iso, c.Argument(2))
	n.check(err)
	s, err := schemeOf(p.name)
	n.check(err)
	in := keyData{extractable: c.Argument(3).ToBoolean()}
	n.check(n.iso.Runtime().ExportTo(c.Argument(4), &in.usages))
	if format == "jwk" {
		in.jwk, err = parseJWK(c.Argument(1).String())
		n.check(err)
	} else {
		in.bytes = n.bytes(c.Argument(1), "keyData")
	}
	k, err := s.importKey(format, in, p)
	n.check(err)
	return keyResult(n.iso, k)
}

// exportKey(format, handle, usages) → ArrayBuffer, or for jwk the JSON of
// the JsonWebKey (usages become its key_ops).
func (n *natives) exportKey(c goja.FunctionCall) goja.Value {
	format := c.Argument(0).String()
	k, s := n.key(c.Argument(1))
	var usages []string
	n.check(n.iso.Runtime().ExportTo(c.Argument(2), &usages))
	b, j, err := s.exportKey(format, k)
	n.check(err)
	if j != nil {
		return n.iso.Runtime().ToValue(string(marshalJWK(j, usages)))
	}
	return n.iso.NewArrayBuffer(b)
}

// generateKey(alg) → a key result, {publicKey, privateKey} of them, or a
// promise of either for schemes that generate off the loop.
func (n *natives) generateKey(c goja.FunctionCall) goja.Value {
	p, err := readParams(n.iso, c.Argument(0))
	n.check(err)
	s, err := schemeOf(p.name)
	n.check(err)
	if sg, ok := s.(slowGenerator); ok {
		n.check(sg.checkGenerate(p))
		own := *p
		own.publicExponent = clone(p.publicExponent)
		return n.iso.Async(func(context.Context) (jsrt.Settle, error) {
			secret, pub, priv, err := s.generate(&own)
			return func(*goja.Runtime) (goja.Value, error) {
				if err != nil {
					return nil, &jsrt.Error{Value: errorValue(n.iso, err)}
				}
				return n.generated(secret, pub, priv), nil
			}, nil
		})
	}
	secret, pub, priv, err := s.generate(p)
	n.check(err)
	return n.generated(secret, pub, priv)
}

func (n *natives) generated(secret, pub, priv *key) goja.Value {
	if secret != nil {
		return keyResult(n.iso, secret)
	}
	o := n.iso.Runtime().NewObject()
	o.Set("publicKey", keyResult(n.iso, pub))
	o.Set("privateKey", keyResult(n.iso, priv))
	return o
}

// key returns the key behind a handle and its scheme.
func (n *natives) key(v goja.Value) (*key, scheme) {
	k, err := handleOf(v)
	n.check(err)
	s, err := schemeOf(k.alg)
	n.check(err)
	return k, s
}

// operation reads the (alg, handle) arguments every key operation starts
// with.
func (n *natives) operation(c goja.FunctionCall) (*params, *key, scheme) {
	p, err := readParams(n.iso, c.Argument(0))
	n.check(err)
	k, s := n.key(c.Argument(1))
	return p, k, s
}

func (n *natives) unsupported(k *key, op string) {
	throw(n.iso, jsrt.Errorf(notSupported, "%s keys cannot %s", k.alg, op))
}

// sign(alg, handle, data) → ArrayBuffer.
func (n *natives) sign(c goja.FunctionCall) goja.Value {
	p, k, s := n.operation(c)
	sg, ok := s.(signer)
	if !ok {
		n.unsupported(k, "sign")
	}
	out, err := sg.sign(p, k, n.bytes(c.Argument(2), "data"))
	n.check(err)
	return n.iso.NewArrayBuffer(out)
}

// verify(alg, handle, signature, data) → boolean.
func (n *natives) verify(c goja.FunctionCall) goja.Value {
	p, k, s := n.operation(c)
	sg, ok := s.(signer)
	if !ok {
		n.unsupported(k, "verify")
	}
	valid, err := sg.verify(p, k, n.bytes(c.Argument(2), "signature"), n.bytes(c.Argument(3), "data"))
	n.check(err)
	return n.iso.Runtime().ToValue(valid)
}

// encrypt(alg, handle, data) → ArrayBuffer; AES-KW wraps.
func (n *natives) encrypt(c goja.FunctionCall) goja.Value {
	p, k, s := n.operation(c)
	e, ok := s.(encrypter)
	if !ok {
		n.unsupported(k, "encrypt")
	}
	out, err := e.encrypt(p, k, n.bytes(c.Argument(2), "data"))
	n.check(err)
	return n.iso.NewArrayBuffer(out)
}

// decrypt(alg, handle, data) → ArrayBuffer; AES-KW unwraps.
func (n *natives) decrypt(c goja.FunctionCall) goja.Value {
	p, k, s := n.operation(c)
	e, ok := s.(encrypter)
	if !ok {
		n.unsupported(k, "decrypt")
	}
	out, err := e.decrypt(p, k, n.bytes(c.Argument(2), "data"))
	n.check(err)
	return n.iso.NewArrayBuffer(out)
}

// deriveBits(alg, handle, peerHandle, length) → ArrayBuffer. peerHandle
// is the public key's handle for ECDH and X25519, else undefined; length
// is a number of bits or null.
func (n *natives) deriveBits(c goja.FunctionCall) goja.Value {
	p, k, s := n.operation(c)
	d, ok := s.(deriver)
	if !ok {
		n.unsupported(k, "derive bits")
	}
	var peer *key
	if !absent(c.Argument(2)) {
		var err error
		peer, err = handleOf(c.Argument(2))
		n.check(err)
	}
	length := -1
	if !absent(c.Argument(3)) {
		length = int(c.Argument(3).ToInteger())
	}
	out, err := d.deriveBits(p, k, peer, length)
	n.check(err)
	return n.iso.NewArrayBuffer(out)
}
