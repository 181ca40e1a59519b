package webcrypto

import (
	"crypto/ecdsa"
	"crypto/rand"
	"math/big"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// sign signs with ECDSA and returns the signature as r||s (IEEE P1363),
// each padded to the curve's size.
func (s ecScheme) sign(p *params, k *key, data []byte) ([]byte, error) {
	if s.name != "ECDSA" {
		return nil, jsrt.Errorf(notSupported, "%s does not sign", s.name)
	}
	d, err := digest(p.hash, data)
	if err != nil {
		return nil, err
	}
	priv := k.priv.(*ecdsa.PrivateKey)
	r, ss, err := ecdsa.Sign(rand.Reader, priv, d)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "ECDSA: %v", err)
	}
	size := coordSize(priv.Curve)
	sig := make([]byte, 2*size)
	r.FillBytes(sig[:size])
	ss.FillBytes(sig[size:])
	return sig, nil
}

// verify checks an r||s signature; one of the wrong length is invalid.
func (s ecScheme) verify(p *params, k *key, sig, data []byte) (bool, error) {
	if s.name != "ECDSA" {
		return false, jsrt.Errorf(notSupported, "%s does not verify", s.name)
	}
	d, err := digest(p.hash, data)
	if err != nil {
		return false, err
	}
	pub := k.pub.(*ecdsa.PublicKey)
	size := coordSize(pub.Curve)
	if len(sig) != 2*size {
		return false, nil
	}
	r := new(big.Int).SetBytes(sig[:size])
	ss := new(big.Int).SetBytes(sig[size:])
	return ecdsa.Verify(pub, d, r, ss), nil
}

// deriveBits is ECDH: the shared secret's x coordinate, cut to length
// bits.
func (s ecScheme) deriveBits(_ *params, k, peer *key, length int) ([]byte, error) {
	if s.name != "ECDH" {
		return nil, jsrt.Errorf(notSupported, "%s does not derive bits", s.name)
	}
	if err := checkPeer(k, peer); err != nil {
		return nil, err
	}
	if peer.curve != k.curve {
		return nil, jsrt.Errorf(invalidAccess, "the public key is on %s, the private key on %s", peer.curve, k.curve)
	}
	priv, err := k.priv.(*ecdsa.PrivateKey).ECDH()
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "ECDH: %v", err)
	}
	pub, err := peer.pub.(*ecdsa.PublicKey).ECDH()
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "ECDH: %v", err)
	}
	secret, err := priv.ECDH(pub)
	if err != nil {
		return nil, jsrt.Errorf(operationErr, "ECDH: %v", err)
	}
	return truncateBits(secret, length)
}

// truncateBits returns the first length bits of secret (all of it for
// -1), the unused bits of the last byte zero.
func truncateBits(secret []byte, length int) ([]byte, error) {
	if length < 0 {
		return secret, nil
	}
	if length > len(secret)*8 {
		return nil, jsrt.Errorf(operationErr, "the shared secret has %d bits, fewer than the %d asked for", len(secret)*8, length)
	}
	out := secret[:(length+7)/8]
	if r := length % 8; r != 0 {
		out[len(out)-1] &= 0xff << (8 - r)
	}
	return out, nil
}

// checkPeer fails unless peer is a public key of k's algorithm.
func checkPeer(k, peer *key) error {
	if peer == nil || peer.typ != publicKey || peer.alg != k.alg {
		return jsrt.Errorf(invalidAccess, "%s needs the other party's %s public key", k.alg, k.alg)
	}
	return nil
}
