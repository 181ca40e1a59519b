package libsql

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// batonCodec signs and checks batons. A baton is base64 (standard, no
// padding) of 48 bytes: the stream id and the expected sequence number
// (8 bytes each, big endian) followed by their HMAC-SHA256 under a key
// that is random per server start, as in sqld. Batons are therefore
// unforgeable, change with every request, and die with the server.
type batonCodec struct {
	key [32]byte
}

const batonLen = 48

func (c *batonCodec) encode(id, seq uint64) string {
	var b [batonLen]byte
	binary.BigEndian.PutUint64(b[0:8], id)
	binary.BigEndian.PutUint64(b[8:16], seq)
	mac := hmac.New(sha256.New, c.key[:])
	mac.Write(b[:16])
	copy(b[16:], mac.Sum(nil))
	return base64.RawStdEncoding.EncodeToString(b[:])
}

// errBatonInvalid is the protocol error for a baton this server did not
// issue.
func errBatonInvalid(why string) error {
	return hrana.Protocolf("Received an invalid baton: %s", why)
}

func (c *batonCodec) decode(baton string) (id, seq uint64, err error) {
	raw, derr := base64.RawStdEncoding.DecodeString(strings.TrimRight(baton, "="))
	if derr != nil {
		return 0, 0, errBatonInvalid("not base64")
	}
	if len(raw) != batonLen {
		return 0, 0, errBatonInvalid("wrong length")
	}
	mac := hmac.New(sha256.New, c.key[:])
	mac.Write(raw[:16])
	if !hmac.Equal(mac.Sum(nil), raw[16:]) {
		return 0, 0, errBatonInvalid("not issued by this server (or the server restarted)")
	}
	return binary.BigEndian.Uint64(raw[0:8]), binary.BigEndian.Uint64(raw[8:16]), nil
}
