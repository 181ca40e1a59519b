package node

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/dop251/goja"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// cipherNames are the ciphers createCipheriv takes: AES in CBC, ECB, CTR
// and GCM modes, with OpenSSL's aliases.
var cipherNames = func() map[string]cipherSpec {
	m := map[string]cipherSpec{}
	for _, bits := range []int{128, 192, 256} {
		for _, mode := range []string{"cbc", "ecb", "ctr", "gcm"} {
			m[fmt.Sprintf("aes-%d-%s", bits, mode)] = cipherSpec{keyLen: bits / 8, mode: mode}
		}
		m[fmt.Sprintf("aes%d", bits)] = cipherSpec{keyLen: bits / 8, mode: "cbc"}
		m[fmt.Sprintf("id-aes%d-gcm", bits)] = cipherSpec{keyLen: bits / 8, mode: "gcm"}
	}
	return m
}()

type cipherSpec struct {
	keyLen int
	mode   string
}

// cipherState is a Cipher or Decipher in progress.
type cipherState struct {
	mode    string
	decrypt bool
	block   cipher.Block
	done    bool

	// CBC and ECB.
	cbc     cipher.BlockMode // nil for ECB
	pending []byte           // bytes short of a block, or the held-back last block
	padding bool

	// CTR and GCM.
	stream cipher.Stream

	// GCM: the plaintext so far, for the tag computed at final.
	aead   cipher.AEAD
	iv     []byte
	aad    []byte
	plain  []byte
	tag    []byte // the tag to check (decrypt) or the tag made (encrypt)
	tagLen int
}

// installCipher adds the natives of createCipheriv and createDecipheriv.
func installCipher(iso *jsrt.Isolate, n *goja.Object) {
	rt := iso.Runtime()
	state := func(v goja.Value) *cipherState {
		s, ok := v.Export().(*cipherState)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "not a cipher"))
		}
		return s
	}
	bytesArg := func(v goja.Value, what string) []byte {
		b, ok := iso.Bytes(v)
		if !ok {
			iso.Throw(jsrt.Errorf("TypeError", "%s must be a Buffer, a TypedArray or a DataView", what))
		}
		return b
	}
	n.Set("cipherNames", func(goja.FunctionCall) goja.Value {
		names := make([]string, 0, len(cipherNames))
		for name := range cipherNames {
			names = append(names, name)
		}
		return rt.ToValue(names)
	})
	// cipherNew(name, key, iv, decrypt, authTagLength)
	n.Set("cipherNew", func(c goja.FunctionCall) goja.Value {
		s, err := newCipher(c.Argument(0).String(), bytesArg(c.Argument(1), "key"), ivArg(iso, c.Argument(2)),
			c.Argument(3).ToBoolean(), int(c.Argument(4).ToInteger()))
		if err != nil {
			panic(codedError(iso, err.class, err.code, err.msg))
		}
		return rt.ToValue(s)
	})
	n.Set("cipherUpdate", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		if s.done {
			panic(codedError(iso, "Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation update: the cipher is finalized"))
		}
		return iso.NewArrayBuffer(s.update(bytesArg(c.Argument(1), "data")))
	})
	n.Set("cipherFinal", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		if s.done {
			panic(codedError(iso, "Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation final: the cipher is finalized"))
		}
		s.done = true
		out, err := s.final()
		if err != nil {
			panic(codedError(iso, err.class, err.code, err.msg))
		}
		return iso.NewArrayBuffer(out)
	})
	n.Set("cipherSetAAD", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		if s.mode != "gcm" || s.done || len(s.plain) > 0 {
			panic(codedError(iso, "Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation setAAD: only GCM ciphers take it, before any data"))
		}
		s.aad = append(s.aad, bytesArg(c.Argument(1), "buffer")...)
		return goja.Undefined()
	})
	n.Set("cipherSetAutoPadding", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		s.padding = c.Argument(1).ToBoolean()
		return goja.Undefined()
	})
	n.Set("cipherSetAuthTag", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		tag := bytesArg(c.Argument(1), "buffer")
		if s.mode != "gcm" || !s.decrypt || s.done {
			panic(codedError(iso, "Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation setAuthTag: only a GCM Decipher takes it, before final"))
		}
		if l := len(tag); l != 4 && l != 8 && (l < 12 || l > 16) || s.tagLen != 0 && l != s.tagLen {
			panic(codedError(iso, "TypeError", "ERR_CRYPTO_INVALID_AUTH_TAG", fmt.Sprintf("Invalid authentication tag length: %d", l)))
		}
		s.tag = append([]byte(nil), tag...)
		return goja.Undefined()
	})
	n.Set("cipherGetAuthTag", func(c goja.FunctionCall) goja.Value {
		s := state(c.Argument(0))
		if s.mode != "gcm" || s.decrypt || !s.done {
			panic(codedError(iso, "Error", "ERR_CRYPTO_INVALID_STATE", "Invalid state for operation getAuthTag: only a GCM Cipher has one, after final"))
		}
		return iso.NewArrayBuffer(append([]byte(nil), s.tag...))
	})
}

// ivArg reads an IV that may be null (ECB).
func ivArg(iso *jsrt.Isolate, v goja.Value) []byte {
	if goja.IsNull(v) || goja.IsUndefined(v) {
		return nil
	}
	b, ok := iso.Bytes(v)
	if !ok {
		iso.Throw(jsrt.Errorf("TypeError", "the iv must be a Buffer, a TypedArray, a DataView or null"))
	}
	return append([]byte(nil), b...)
}

// cipherError is an error to throw with a Node.js code.
type cipherError struct{ class, code, msg string }

func newCipher(name string, key, iv []byte, decrypt bool, tagLen int) (*cipherState, *cipherError) {
	spec, ok := cipherNames[strings.ToLower(name)]
	if !ok {
		return nil, &cipherError{"Error", "ERR_CRYPTO_UNKNOWN_CIPHER", fmt.Sprintf("Unknown cipher %q: dwk offers aes-128, aes-192 and aes-256 in cbc, ecb, ctr and gcm modes", name)}
	}
	if len(key) != spec.keyLen {
		return nil, &cipherError{"RangeError", "ERR_CRYPTO_INVALID_KEYLEN", fmt.Sprintf("Invalid key length: %s takes a %d-byte key, not %d bytes", name, spec.keyLen, len(key))}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, &cipherError{"RangeError", "ERR_CRYPTO_INVALID_KEYLEN", "Invalid key length"}
	}
	s := &cipherState{mode: spec.mode, decrypt: decrypt, block: block, padding: true}
	badIV := &cipherError{"TypeError", "ERR_CRYPTO_INVALID_IV", fmt.Sprintf("Invalid initialization vector: %s takes a %d-byte iv, not %d bytes", name, aes.BlockSize, len(iv))}
	switch spec.mode {
	case "ecb":
		if len(iv) != 0 {
			badIV.msg = "Invalid initialization vector: ECB takes none (pass null)"
			return nil, badIV
		}
	case "cbc":
		if len(iv) != aes.BlockSize {
			return nil, badIV
		}
		if decrypt {
			s.cbc = cipher.NewCBCDecrypter(block, iv)
		} else {
			s.cbc = cipher.NewCBCEncrypter(block, iv)
		}
	case "ctr":
		if len(iv) != aes.BlockSize {
			return nil, badIV
		}
		s.stream = cipher.NewCTR(block, iv)
	case "gcm":
		if len(iv) == 0 {
			badIV.msg = "Invalid initialization vector: GCM takes a non-empty iv (12 bytes is usual)"
			return nil, badIV
		}
		if tagLen != 0 && tagLen != 4 && tagLen != 8 && (tagLen < 12 || tagLen > 16) {
			return nil, &cipherError{"TypeError", "ERR_CRYPTO_INVALID_AUTH_TAG", fmt.Sprintf("Invalid authentication tag length: %d", tagLen)}
		}
		if s.aead, err = cipher.NewGCMWithNonceSize(block, len(iv)); err != nil {
			return nil, badIV
		}
		s.iv, s.tagLen = iv, tagLen
		s.stream = newGCMStream(block, iv)
	}
	return s, nil
}

func (s *cipherState) update(in []byte) []byte {
	switch s.mode {
	case "ctr":
		out := make([]byte, len(in))
		s.stream.XORKeyStream(out, in)
		return out
	case "gcm":
		out := make([]byte, len(in))
		s.stream.XORKeyStream(out, in)
		if s.decrypt {
			s.plain = append(s.plain, out...)
		} else {
			s.plain = append(s.plain, in...)
		}
		return out
	}
	// CBC and ECB: whole blocks; a Decipher with padding holds the last
	// block back for final.
	data := append(s.pending, in...)
	n := len(data) - len(data)%aes.BlockSize
	if s.decrypt && s.padding && n == len(data) && n > 0 {
		n -= aes.BlockSize
	}
	out := make([]byte, n)
	s.crypt(out, data[:n])
	s.pending = append([]byte(nil), data[n:]...)
	return out
}

func (s *cipherState) crypt(dst, src []byte) {
	if s.cbc != nil {
		s.cbc.CryptBlocks(dst, src)
		return
	}
	for k := 0; k < len(src); k += aes.BlockSize {
		if s.decrypt {
			s.block.Decrypt(dst[k:], src[k:])
		} else {
			s.block.Encrypt(dst[k:], src[k:])
		}
	}
}

var errBadDecrypt = &cipherError{"Error", "ERR_OSSL_BAD_DECRYPT", "bad decrypt"}

func (s *cipherState) final() ([]byte, *cipherError) {
	switch s.mode {
	case "ctr":
		return nil, nil
	case "gcm":
		sealed := s.aead.Seal(nil, s.iv, s.plain, s.aad)
		full := sealed[len(sealed)-s.aead.Overhead():]
		if !s.decrypt {
			n := s.tagLen
			if n == 0 {
				n = len(full)
			}
			s.tag = full[:n]
			return nil, nil
		}
		if len(s.tag) == 0 || subtle.ConstantTimeCompare(full[:len(s.tag)], s.tag) != 1 {
			return nil, &cipherError{"Error", "ERR_CRYPTO_INVALID_AUTH_TAG", "Unsupported state or unable to authenticate data"}
		}
		return nil, nil
	}
	if !s.padding {
		if len(s.pending) != 0 {
			return nil, &cipherError{"Error", "ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH", "wrong final block length: without auto padding the data must be a whole number of 16-byte blocks"}
		}
		return nil, nil
	}
	if !s.decrypt {
		pad := aes.BlockSize - len(s.pending)
		block := append(s.pending, make([]byte, pad)...)
		for k := len(s.pending); k < len(block); k++ {
			block[k] = byte(pad)
		}
		out := make([]byte, aes.BlockSize)
		s.crypt(out, block)
		return out, nil
	}
	if len(s.pending) != aes.BlockSize {
		return nil, &cipherError{"Error", "ERR_OSSL_WRONG_FINAL_BLOCK_LENGTH", "wrong final block length"}
	}
	out := make([]byte, aes.BlockSize)
	s.crypt(out, s.pending)
	pad := int(out[len(out)-1])
	if pad == 0 || pad > aes.BlockSize {
		return nil, errBadDecrypt
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			return nil, errBadDecrypt
		}
	}
	return out[:len(out)-pad], nil
}

// gcmStream is GCM's counter mode: the keystream that encrypts the data,
// from inc32(J0) on, as NIST SP 800-38D defines it (the counter wraps in
// its low 32 bits).
type gcmStream struct {
	block   cipher.Block
	counter [16]byte
	ks      [16]byte
	used    int // bytes of ks consumed
}

func newGCMStream(block cipher.Block, iv []byte) *gcmStream {
	g := &gcmStream{block: block, used: aes.BlockSize}
	if len(iv) == 12 {
		copy(g.counter[:], iv)
		g.counter[15] = 1
	} else {
		var h [16]byte
		block.Encrypt(h[:], h[:])
		g.counter = ghash(h, iv)
	}
	g.inc()
	return g
}

func (g *gcmStream) inc() {
	binary.BigEndian.PutUint32(g.counter[12:], binary.BigEndian.Uint32(g.counter[12:])+1)
}

func (g *gcmStream) XORKeyStream(dst, src []byte) {
	for k := range src {
		if g.used == aes.BlockSize {
			g.block.Encrypt(g.ks[:], g.counter[:])
			g.inc()
			g.used = 0
		}
		dst[k] = src[k] ^ g.ks[g.used]
		g.used++
	}
}

// ghash computes J0 for an IV that is not 12 bytes: GHASH_H(IV, zero
// padding, the IV's bit length in 128 bits).
func ghash(h [16]byte, iv []byte) [16]byte {
	hHi, hLo := binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])
	var yHi, yLo uint64
	absorb := func(b []byte) {
		var blk [16]byte
		copy(blk[:], b)
		yHi ^= binary.BigEndian.Uint64(blk[:8])
		yLo ^= binary.BigEndian.Uint64(blk[8:])
		yHi, yLo = gfMul(yHi, yLo, hHi, hLo)
	}
	for k := 0; k < len(iv); k += 16 {
		end := min(k+16, len(iv))
		absorb(iv[k:end])
	}
	var lens [16]byte
	binary.BigEndian.PutUint64(lens[8:], uint64(len(iv))*8)
	absorb(lens[:])
	var out [16]byte
	binary.BigEndian.PutUint64(out[:8], yHi)
	binary.BigEndian.PutUint64(out[8:], yLo)
	return out
}

// gfMul multiplies in GF(2^128) with GCM's bit order.
func gfMul(xHi, xLo, yHi, yLo uint64) (uint64, uint64) {
	var zHi, zLo uint64
	vHi, vLo := yHi, yLo
	for i := 0; i < 128; i++ {
		var bit uint64
		if i < 64 {
			bit = xHi >> (63 - i) & 1
		} else {
			bit = xLo >> (127 - i) & 1
		}
		if bit == 1 {
			zHi ^= vHi
			zLo ^= vLo
		}
		lsb := vLo & 1
		vLo = vLo>>1 | vHi<<63
		vHi >>= 1
		if lsb == 1 {
			vHi ^= 0xe1 << 56
		}
	}
	return zHi, zLo
}
