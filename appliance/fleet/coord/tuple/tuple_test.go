package tuple

import (
	"bytes"
	"errors"
	"math"
	"sort"
	"testing"
)

func TestEncodeGolden(t *testing.T) {
	tests := []struct {
		key  Key
		want []byte
	}{
		{Key{}, []byte{}},
		{Key{[]byte{0, 1}}, []byte{0x01, 0x00, 0xFF, 0x01, 0x00}},
		{Key{"a\x00b"}, []byte{0x02, 'a', 0x00, 0xFF, 'b', 0x00}},
		{Key{int64(0)}, []byte{0x14}},
		{Key{1}, []byte{0x15, 0x01}},
		{Key{int64(-1)}, []byte{0x13, 0xFE}},
		{Key{int64(256)}, []byte{0x16, 0x01, 0x00}},
		{Key{int64(-256)}, []byte{0x12, 0xFE, 0xFF}},
		{Key{int64(math.MaxInt64)}, []byte{0x1C, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{Key{int64(math.MinInt64)}, []byte{0x0C, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{Key{1.0}, []byte{0x21, 0xBF, 0xF0, 0, 0, 0, 0, 0, 0}},
		{Key{-1.0}, []byte{0x21, 0x40, 0x0F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF}},
		{Key{false, true}, []byte{0x26, 0x27}},
		{Key{"kv", int64(7)}, []byte{0x02, 'k', 'v', 0x00, 0x15, 0x07}},
	}
	for _, tt := range tests {
		got, err := Encode(tt.key)
		if err != nil || !bytes.Equal(got, tt.want) {
			t.Errorf("Encode(%v) = % x, %v; want % x", tt.key, got, err, tt.want)
		}
		back, err := Decode(tt.want)
		if err != nil || !Equal(back, normalize(tt.key)) {
			t.Errorf("Decode(% x) = %v, %v; want %v", tt.want, back, err, tt.key)
		}
	}
}

// normalize turns int parts into int64, as Decode returns them.
func normalize(k Key) Key {
	out := make(Key, len(k))
	for i, p := range k {
		if v, ok := p.(int); ok {
			p = int64(v)
		}
		out[i] = p
	}
	return out
}

func TestOrder(t *testing.T) {
	// Sorted by tuple order.
	keys := []Key{
		{},
		{[]byte{}},
		{[]byte{0}},
		{[]byte{0}, "x"},
		{[]byte{0, 0}},
		{[]byte{1}},
		{""},
		{"a"},
		{"a", []byte{}},
		{"a", true},
		{"a\x00"},
		{"a\x00", int64(1)},
		{"a\x01"},
		{"b"},
		{"é"},
		{int64(math.MinInt64)},
		{int64(-257)},
		{int64(-256)},
		{int64(-1)},
		{int64(0)},
		{int64(1)},
		{int64(255)},
		{int64(256)},
		{int64(math.MaxInt64)},
		{math.Inf(-1)},
		{-1.5},
		{math.Copysign(0, -1)},
		{0.0},
		{math.SmallestNonzeroFloat64},
		{math.Inf(1)},
		{math.NaN()},
		{false},
		{true},
		{true, false},
	}
	enc := make([][]byte, len(keys))
	for i, k := range keys {
		enc[i] = MustEncode(k)
	}
	for i := range keys {
		for j := range keys {
			want := 0
			if i < j {
				want = -1
			} else if i > j {
				want = 1
			}
			if got := Compare(keys[i], keys[j]); got != want {
				t.Errorf("Compare(%v, %v) = %d, want %d", keys[i], keys[j], got, want)
			}
			if got := bytes.Compare(enc[i], enc[j]); got != want {
				t.Errorf("bytes.Compare(enc %v, enc %v) = %d, want %d", keys[i], keys[j], got, want)
			}
		}
	}
}

func TestInvalidPart(t *testing.T) {
	for _, p := range []any{int32(1), uint64(1), nil, []string{"a"}, float32(1)} {
		if _, err := Encode(Key{"ok", p}); !errors.Is(err, ErrInvalidPart) {
			t.Errorf("Encode with %T part: err = %v, want ErrInvalidPart", p, err)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	for _, b := range [][]byte{
		{0x03},                            // unknown tag
		{0x02, 'a'},                       // unterminated
		{0x15},                            // int without bytes
		{0x16, 0x00, 0x01},                // non-minimal positive
		{0x12, 0xFF, 0x00},                // non-minimal negative
		{0x1C, 0x80, 0, 0, 0, 0, 0, 0, 0}, // > MaxInt64
		{0x0C, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFE}, // < MinInt64
		{0x21, 0xBF},                         // short float
		{0x21, 0xFF, 0xF8, 0, 0, 0, 0, 0, 2}, // non-canonical NaN
	} {
		if k, err := Decode(b); !errors.Is(err, ErrMalformed) {
			t.Errorf("Decode(% x) = %v, %v; want ErrMalformed", b, k, err)
		}
	}
}

func TestPrefixRange(t *testing.T) {
	prefix := Key{"users", int64(7)}
	begin, end, err := PrefixRange(prefix)
	if err != nil {
		t.Fatal(err)
	}
	in := func(k Key) bool {
		e := MustEncode(k)
		return bytes.Compare(e, begin) >= 0 && bytes.Compare(e, end) < 0
	}
	for _, k := range []Key{{"users", int64(7), []byte{}}, {"users", int64(7), "a", "b"}, {"users", int64(7), true}} {
		if !in(k) {
			t.Errorf("%v not in prefix range of %v", k, prefix)
		}
	}
	for _, k := range []Key{prefix, {"users", int64(6), "z"}, {"users", int64(8)}, {"users"}, {"users\x00"}} {
		if in(k) {
			t.Errorf("%v in prefix range of %v", k, prefix)
		}
	}
	if b, e, _ := PrefixRange(Key{}); !bytes.Equal(b, []byte{0}) || !bytes.Equal(e, []byte{0xFF}) {
		t.Errorf("PrefixRange(()) = % x, % x", b, e)
	}
}

func TestStrinc(t *testing.T) {
	tests := []struct {
		in, want []byte
		ok       bool
	}{
		{nil, nil, false},
		{[]byte{0xFF, 0xFF}, nil, false},
		{[]byte{1, 2}, []byte{1, 3}, true},
		{[]byte{1, 0xFF}, []byte{2}, true},
	}
	for _, tt := range tests {
		got, ok := Strinc(tt.in)
		if !bytes.Equal(got, tt.want) || ok != tt.ok {
			t.Errorf("Strinc(% x) = % x, %v; want % x, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestString(t *testing.T) {
	got := Key{"kv", []byte{1, 0xFF}, int64(-3), 2.0, 1.5, true}.String()
	if want := `("kv", 0x01ff, -3, 2.0, 1.5, true)`; got != want {
		t.Errorf("String = %s, want %s", got, want)
	}
}

func TestSortByEncoding(t *testing.T) {
	keys := []Key{{"b"}, {int64(2)}, {"a", int64(1)}, {[]byte("z")}, {"a"}, {false}}
	sort.Slice(keys, func(i, j int) bool { return bytes.Compare(MustEncode(keys[i]), MustEncode(keys[j])) < 0 })
	for i := 1; i < len(keys); i++ {
		if Compare(keys[i-1], keys[i]) >= 0 {
			t.Errorf("encoded order puts %v before %v", keys[i-1], keys[i])
		}
	}
}
