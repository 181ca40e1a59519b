package coord

import (
	"encoding/binary"
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// Limits, as in Deno KV where it has them.
const (
	// MaxKeySize is the largest encoded key, in bytes.
	MaxKeySize = 2048
	// MaxValueSize is the largest value, in bytes. The libSQL server's
	// request limit (dwk libsql: --max-body-size, 10 MiB by default, with
	// values base64-encoded) may bind first.
	MaxValueSize = 25 << 20
	// MaxChecks and MaxMutations bound one atomic operation.
	MaxChecks    = 100
	MaxMutations = 1000
	// MaxGetMany bounds the keys of one GetMany or Watch.
	MaxGetMany = 1000
)

// Versionstamp identifies the commit that last wrote a key. Versionstamps
// increase strictly with every commit to the database; zero means the key
// is absent.
type Versionstamp uint64

// String returns the versionstamp in Deno's form: 20 hex digits, the
// counter big-endian followed by a zero 2-byte batch index.
func (v Versionstamp) String() string { return fmt.Sprintf("%016x0000", uint64(v)) }

// Entry is one key's state.
type Entry struct {
	// Key is the key read.
	Key tuple.Key
	// Value is the stored value, nil when the key is absent. For a u64
	// counter it is the 8-byte little-endian encoding of the counter.
	Value []byte
	// Versionstamp is the commit that wrote the value; zero when absent.
	Versionstamp Versionstamp
	// U64 is true when the value is a u64 counter (Sum, SetU64).
	U64 bool
	// Expires is when the key expires by the server's clock; zero if never.
	Expires time.Time
}

// Exists reports whether the key is present.
func (e Entry) Exists() bool { return e.Versionstamp != 0 }

// Uint64 returns the counter of a u64 entry; ok is false for other values
// and absent keys.
func (e Entry) Uint64() (v uint64, ok bool) {
	if !e.U64 || len(e.Value) != 8 {
		return 0, false
	}
	return binary.LittleEndian.Uint64(e.Value), true
}

// encodeKey encodes and checks a key for a point operation.
func encodeKey(k tuple.Key) ([]byte, error) {
	if len(k) == 0 {
		return nil, fmt.Errorf("%w: empty key", ErrInvalidKey)
	}
	b, err := tuple.Encode(k)
	if err != nil {
		return nil, fmt.Errorf("%w %v: %w", ErrInvalidKey, k, err)
	}
	if len(b) > MaxKeySize {
		return nil, fmt.Errorf("%w %.40v…: %d bytes encoded, limit %d", ErrInvalidKey, k, len(b), MaxKeySize)
	}
	return b, nil
}

// scanEntry turns a row of (selectEntry) into an Entry.
func scanEntry(row []hrana.Value) (Entry, error) {
	if len(row) != 4 || row[0].Kind != hrana.KindBlob || row[2].Kind != hrana.KindInteger {
		return Entry{}, fmt.Errorf("unexpected row shape %v", row)
	}
	k, err := tuple.Decode(row[0].Blob)
	if err != nil {
		return Entry{}, fmt.Errorf("stored key %x: %w", row[0].Blob, err)
	}
	e := Entry{Key: k, Versionstamp: Versionstamp(row[2].Int)}
	switch v := row[1]; v.Kind {
	case hrana.KindBlob:
		e.Value = v.Blob
	case hrana.KindInteger:
		e.Value = binary.LittleEndian.AppendUint64(make([]byte, 0, 8), uint64(v.Int))
		e.U64 = true
	default:
		return Entry{}, fmt.Errorf("stored value of %v has type %s", k, v.Kind)
	}
	if x := row[3]; x.Kind == hrana.KindInteger {
		e.Expires = time.UnixMilli(x.Int).UTC()
	}
	return e, nil
}
