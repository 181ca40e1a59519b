package kvcentral

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/bindings/kv"
)

// A record is the stored form of one key:
//
//	byte 0      version (1)
//	byte 1      flags: 1 = has metadata, 2 = has expiration
//	8 bytes     expiration, Unix ms big-endian        (if flag 2)
//	uvarint n   metadata length, then n bytes of JSON  (if flag 1)
//	rest        the value
//
// The header is at most maxHeader bytes, which List reads instead of the
// whole record.
const (
	recordVersion = 1
	flagMetadata  = 1
	flagExpires   = 2
	maxHeader     = 2 + 8 + binary.MaxVarintLen64 + kv.MaxMetadataLen
)

// errRecord reports a stored record this package cannot read.
var errRecord = errors.New("kvcentral: malformed stored record")

type record struct {
	value    []byte
	metadata json.RawMessage // nil when none
	expires  time.Time       // zero when none
}

func encodeRecord(p kv.Put) []byte {
	b := make([]byte, 0, 2+8+binary.MaxVarintLen64+len(p.Metadata)+len(p.Value))
	flags := byte(0)
	if p.Metadata != nil {
		flags |= flagMetadata
	}
	if !p.Expires.IsZero() {
		flags |= flagExpires
	}
	b = append(b, recordVersion, flags)
	if !p.Expires.IsZero() {
		b = binary.BigEndian.AppendUint64(b, uint64(p.Expires.UnixMilli()))
	}
	if p.Metadata != nil {
		b = binary.AppendUvarint(b, uint64(len(p.Metadata)))
		b = append(b, p.Metadata...)
	}
	return append(b, p.Value...)
}

// decodeRecord parses b. With headerOnly, b may be truncated after the
// header and the value is not returned.
func decodeRecord(b []byte, headerOnly bool) (record, error) {
	if len(b) < 2 || b[0] != recordVersion || b[1]&^(flagMetadata|flagExpires) != 0 {
		return record{}, fmt.Errorf("%w: bad header", errRecord)
	}
	var r record
	flags, rest := b[1], b[2:]
	if flags&flagExpires != 0 {
		if len(rest) < 8 {
			return record{}, fmt.Errorf("%w: short expiration", errRecord)
		}
		r.expires = time.UnixMilli(int64(binary.BigEndian.Uint64(rest))).UTC()
		rest = rest[8:]
	}
	if flags&flagMetadata != 0 {
		n, w := binary.Uvarint(rest)
		if w <= 0 || n > uint64(len(rest)-w) {
			return record{}, fmt.Errorf("%w: bad metadata length", errRecord)
		}
		r.metadata = json.RawMessage(rest[w : w+int(n)])
		rest = rest[w+int(n):]
	}
	if !headerOnly {
		r.value = rest
		if r.value == nil {
			r.value = []byte{}
		}
	}
	return r, nil
}
