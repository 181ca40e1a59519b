package webcrypto

import (
	"crypto/cipher"
	"crypto/subtle"
	"encoding/binary"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// kwIV is RFC 3394's default initial value.
var kwIV = []byte{0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6, 0xa6}

// keyWrap wraps data with the AES key wrap of RFC 3394 (section 2.2.1).
func keyWrap(block cipher.Block, data []byte) ([]byte, error) {
	if len(data) < 16 || len(data)%8 != 0 {
		return nil, jsrt.Errorf(operationErr, "AES-KW wraps a key of at least 16 bytes and a multiple of 8 bytes, not %d", len(data))
	}
	n := len(data) / 8
	out := make([]byte, len(data)+8)
	copy(out, kwIV)
	copy(out[8:], data)
	var b [16]byte
	for j := range 6 {
		for i := 1; i <= n; i++ {
			copy(b[:8], out[:8])
			copy(b[8:], out[8*i:8*i+8])
			block.Encrypt(b[:], b[:])
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(out[:8], binary.BigEndian.Uint64(b[:8])^t)
			copy(out[8*i:8*i+8], b[8:])
		}
	}
	return out, nil
}

// keyUnwrap undoes keyWrap and checks the integrity value (section
// 2.2.2).
func keyUnwrap(block cipher.Block, data []byte) ([]byte, error) {
	if len(data) < 24 || len(data)%8 != 0 {
		return nil, jsrt.Errorf(operationErr, "an AES-KW wrapped key is at least 24 bytes and a multiple of 8 bytes, not %d", len(data))
	}
	n := len(data)/8 - 1
	a := make([]byte, 8)
	copy(a, data[:8])
	r := make([]byte, len(data)-8)
	copy(r, data[8:])
	var b [16]byte
	for j := 5; j >= 0; j-- {
		for i := n; i >= 1; i-- {
			t := uint64(n*j + i)
			binary.BigEndian.PutUint64(b[:8], binary.BigEndian.Uint64(a)^t)
			copy(b[8:], r[8*(i-1):8*i])
			block.Decrypt(b[:], b[:])
			copy(a, b[:8])
			copy(r[8*(i-1):8*i], b[8:])
		}
	}
	if subtle.ConstantTimeCompare(a, kwIV) != 1 {
		return nil, jsrt.Errorf(operationErr, "AES-KW unwrap failed: wrong key or corrupted data")
	}
	return r, nil
}
