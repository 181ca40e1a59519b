package webcrypto

import (
	"crypto"
	_ "crypto/md5" // MD5 for digest, as Cloudflare has it
	_ "crypto/sha1"
	_ "crypto/sha256"
	_ "crypto/sha512"
	"hash"
	"hash/crc32"
	"hash/crc64"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// hashes are the digest algorithms by normalized name.
var hashes = map[string]crypto.Hash{
	"SHA-1":   crypto.SHA1,
	"SHA-256": crypto.SHA256,
	"SHA-384": crypto.SHA384,
	"SHA-512": crypto.SHA512,
	"MD5":     crypto.MD5,
}

// hashOf returns the hash a normalized name stands for.
func hashOf(name string) (crypto.Hash, error) {
	h, ok := hashes[name]
	if !ok {
		return 0, jsrt.Errorf(notSupported, "unrecognized hash algorithm %q", name)
	}
	return h, nil
}

// digest hashes data with the named hash.
func digest(name string, data []byte) ([]byte, error) {
	h, err := hashOf(name)
	if err != nil {
		return nil, err
	}
	w := h.New()
	w.Write(data)
	return w.Sum(nil), nil
}

// crc64NVMe is the CRC-64/NVME table (polynomial 0xad93d23594c935a9,
// reflected), which workerd's DigestStream offers as "crc64nvme".
var crc64NVMe = crc64.MakeTable(0x9a6c9329ac4bc9b5)

// newStreamHash returns the hash a DigestStream computes: a digest
// algorithm by normalized name, or workerd's "crc32", "crc32c" and
// "crc64nvme". The CRCs' sums are big-endian.
func newStreamHash(name string) (hash.Hash, error) {
	switch name {
	case "crc32":
		return crc32.NewIEEE(), nil
	case "crc32c":
		return crc32.New(crc32.MakeTable(crc32.Castagnoli)), nil
	case "crc64nvme":
		return crc64.New(crc64NVMe), nil
	}
	h, err := hashOf(name)
	if err != nil {
		return nil, err
	}
	return h.New(), nil
}

// streamHash is the opaque handle of a DigestStream's running hash.
type streamHash struct {
	h hash.Hash
}
