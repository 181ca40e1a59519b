package webcrypto

import (
	"crypto/cipher"
	"crypto/subtle"
	"math/big"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// maxGCMPlaintext is the most AES-GCM encrypts at once: 2^39 - 256 bytes.
const maxGCMPlaintext = 1<<39 - 256

var errDecrypt = jsrt.Errorf(operationErr, "decryption failed: wrong key, iv, counter or additional data, or corrupted data")

func gcmAEAD(block cipher.Block, p *params) (cipher.AEAD, int, error) {
	if len(p.iv) == 0 {
		return nil, 0, jsrt.Errorf(operationErr, "AES-GCM needs a non-empty iv")
	}
	tag := p.tagLength
	if tag < 0 {
		tag = 128
	}
	switch tag {
	case 32, 64, 96, 104, 112, 120, 128:
	default:
		return nil, 0, jsrt.Errorf(operationErr, "the AES-GCM tagLength must be 32, 64, 96, 104, 112, 120 or 128, not %d", tag)
	}
	var aead cipher.AEAD
	var err error
	if len(p.iv) == 12 {
		aead, err = cipher.NewGCM(block)
	} else {
		aead, err = cipher.NewGCMWithNonceSize(block, len(p.iv))
	}
	if err != nil {
		return nil, 0, jsrt.Errorf(operationErr, "AES-GCM: %v", err)
	}
	return aead, tag / 8, nil
}

// gcmSeal encrypts data and appends the tag, truncated to tagLength.
func gcmSeal(block cipher.Block, p *params, data []byte) ([]byte, error) {
	if len(data) > maxGCMPlaintext {
		return nil, jsrt.Errorf(operationErr, "AES-GCM encrypts at most 2^39 - 256 bytes at once")
	}
	aead, tag, err := gcmAEAD(block, p)
	if err != nil {
		return nil, err
	}
	out := aead.Seal(nil, p.iv, data, p.additionalData)
	return out[:len(data)+tag], nil
}

// gcmOpen checks the tag at the end of data and decrypts the rest. Go's
// GCM checks only full 16-byte tags, so a shorter one is checked by
// decrypting (GCM's keystream XOR: sealing the ciphertext yields the
// plaintext) and sealing the plaintext again to recompute the full tag.
func gcmOpen(block cipher.Block, p *params, data []byte) ([]byte, error) {
	aead, tag, err := gcmAEAD(block, p)
	if err != nil {
		return nil, err
	}
	if len(data) < tag {
		return nil, jsrt.Errorf(operationErr, "the AES-GCM ciphertext (%d bytes) is shorter than its tag (%d bytes)", len(data), tag)
	}
	if tag == aead.Overhead() {
		out, err := aead.Open(nil, p.iv, data, p.additionalData)
		if err != nil {
			return nil, errDecrypt
		}
		return out, nil
	}
	body, got := data[:len(data)-tag], data[len(data)-tag:]
	plain := aead.Seal(nil, p.iv, body, p.additionalData)[:len(body)]
	full := aead.Seal(nil, p.iv, plain, p.additionalData)
	if subtle.ConstantTimeCompare(full[len(plain):len(plain)+tag], got) != 1 {
		return nil, errDecrypt
	}
	return plain, nil
}

func cbcEncrypt(block cipher.Block, p *params, data []byte) ([]byte, error) {
	if len(p.iv) != block.BlockSize() {
		return nil, jsrt.Errorf(operationErr, "the AES-CBC iv must be 16 bytes long, not %d", len(p.iv))
	}
	pad := block.BlockSize() - len(data)%block.BlockSize()
	out := make([]byte, len(data)+pad)
	copy(out, data)
	for i := len(data); i < len(out); i++ {
		out[i] = byte(pad)
	}
	cipher.NewCBCEncrypter(block, p.iv).CryptBlocks(out, out)
	return out, nil
}

func cbcDecrypt(block cipher.Block, p *params, data []byte) ([]byte, error) {
	bs := block.BlockSize()
	if len(p.iv) != bs {
		return nil, jsrt.Errorf(operationErr, "the AES-CBC iv must be 16 bytes long, not %d", len(p.iv))
	}
	if len(data) == 0 || len(data)%bs != 0 {
		return nil, jsrt.Errorf(operationErr, "the AES-CBC ciphertext must be a non-zero multiple of 16 bytes long, not %d", len(data))
	}
	out := make([]byte, len(data))
	cipher.NewCBCDecrypter(block, p.iv).CryptBlocks(out, data)
	pad := int(out[len(out)-1])
	if pad == 0 || pad > bs {
		return nil, errDecrypt
	}
	for _, b := range out[len(out)-pad:] {
		if int(b) != pad {
			return nil, errDecrypt
		}
	}
	return out[:len(out)-pad], nil
}

// ctrXOR runs AES-CTR with a counter whose low length bits count and wrap
// around, the rest of the counter block staying fixed. It fails rather
// than reuse a counter value.
func ctrXOR(block cipher.Block, p *params, data []byte) ([]byte, error) {
	if len(p.counter) != block.BlockSize() {
		return nil, jsrt.Errorf(operationErr, "the AES-CTR counter must be 16 bytes long, not %d", len(p.counter))
	}
	if p.length <= 0 || p.length > 128 {
		return nil, jsrt.Errorf(operationErr, "the AES-CTR length must be between 1 and 128 bits, not %d", p.length)
	}
	blocks := big.NewInt(int64((len(data) + block.BlockSize() - 1) / block.BlockSize()))
	values := new(big.Int).Lsh(big.NewInt(1), uint(p.length))
	if blocks.Cmp(values) > 0 {
		return nil, jsrt.Errorf(operationErr, "a %d-bit AES-CTR counter cannot count the %v blocks of this input without repeating", p.length, blocks)
	}
	full := new(big.Int).SetBytes(p.counter)
	low := new(big.Int).Mod(full, values)
	left := new(big.Int).Sub(values, low) // blocks before the counter wraps
	out := make([]byte, len(data))
	if left.Cmp(blocks) >= 0 {
		cipher.NewCTR(block, p.counter).XORKeyStream(out, data)
		return out, nil
	}
	n := int(left.Int64()) * block.BlockSize()
	cipher.NewCTR(block, p.counter).XORKeyStream(out[:n], data[:n])
	wrapped := new(big.Int).Sub(full, low).FillBytes(make([]byte, block.BlockSize()))
	cipher.NewCTR(block, wrapped).XORKeyStream(out[n:], data[n:])
	return out, nil
}
