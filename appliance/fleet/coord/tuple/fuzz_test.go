package tuple

import (
	"bytes"
	"encoding/binary"
	"math"
	"testing"
)

// keyFromBytes builds a key from fuzzer input: each part is a selector byte
// followed by its content, biased towards edge cases (zero bytes, integer
// length boundaries, special floats).
func keyFromBytes(data []byte) Key {
	k := Key{}
	next := func(n int) []byte {
		if n > len(data) {
			n = len(data)
		}
		b := data[:n]
		data = data[n:]
		return b
	}
	for len(data) > 0 && len(k) < 8 {
		sel := next(1)[0]
		switch sel % 7 {
		case 0:
			n := 0
			if len(data) > 0 {
				n = int(next(1)[0] % 6)
			}
			k = append(k, append([]byte{}, next(n)...))
		case 1:
			n := 0
			if len(data) > 0 {
				n = int(next(1)[0] % 6)
			}
			k = append(k, string(next(n)))
		case 2:
			var buf [8]byte
			copy(buf[:], next(8))
			k = append(k, int64(binary.BigEndian.Uint64(buf[:])))
		case 3:
			// Small integers around byte boundaries.
			var buf [2]byte
			copy(buf[:], next(2))
			v := int64(int16(binary.BigEndian.Uint16(buf[:])))
			shift := uint(sel>>3) % 64
			k = append(k, v<<shift>>shift)
		case 4:
			var buf [8]byte
			copy(buf[:], next(8))
			k = append(k, math.Float64frombits(binary.BigEndian.Uint64(buf[:])))
		case 5:
			specials := []float64{0, math.Copysign(0, -1), 1, -1, math.Inf(1), math.Inf(-1), math.NaN(), math.MaxFloat64, -math.SmallestNonzeroFloat64}
			k = append(k, specials[int(sel>>3)%len(specials)])
		case 6:
			k = append(k, sel&0x80 != 0)
		}
	}
	return k
}

func sign(x int) int {
	switch {
	case x < 0:
		return -1
	case x > 0:
		return 1
	}
	return 0
}

// FuzzOrder proves that byte order of encodings equals tuple order and that
// every key survives a round trip.
func FuzzOrder(f *testing.F) {
	f.Add([]byte{1, 3, 'a', 0, 'b'}, []byte{1, 2, 'a', 0})
	f.Add([]byte{2, 0, 0, 0, 0, 0, 0, 1, 0}, []byte{3, 0xFF, 0x01})
	f.Add([]byte{4, 0x80, 0, 0, 0, 0, 0, 0, 0}, []byte{4, 0, 0, 0, 0, 0, 0, 0, 0})
	f.Add([]byte{5, 13, 21}, []byte{6, 0x86})
	f.Add([]byte{0, 2, 0, 0}, []byte{0, 1, 0})
	f.Fuzz(func(t *testing.T, da, db []byte) {
		a, b := keyFromBytes(da), keyFromBytes(db)
		ea, err := Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		eb, err := Encode(b)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := sign(bytes.Compare(ea, eb)), Compare(a, b); got != want {
			t.Fatalf("bytes.Compare(enc %v, enc %v) = %d, tuple order says %d", a, b, got, want)
		}
		back, err := Decode(ea)
		if err != nil {
			t.Fatalf("Decode(Encode(%v)): %v", a, err)
		}
		if Compare(back, a) != 0 || len(back) != len(a) {
			t.Fatalf("Decode(Encode(%v)) = %v", a, back)
		}
		// Concatenation of encodings is the encoding of the concatenation.
		ab := append(append(Key{}, a...), b...)
		if eab := MustEncode(ab); !bytes.Equal(eab, append(append([]byte{}, ea...), eb...)) {
			t.Fatalf("Encode(%v) is not Encode(a)+Encode(b)", ab)
		}
	})
}

// FuzzDecode proves Decode never panics and accepts only canonical input.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{0x02, 'a', 0x00, 0xFF, 0x00, 0x15, 0x01})
	f.Add([]byte{0x0C, 0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF})
	f.Add([]byte{0x21, 0xFF, 0xF8, 0, 0, 0, 0, 0, 1})
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := Decode(b)
		if err != nil {
			return
		}
		again, err := Encode(k)
		if err != nil {
			t.Fatalf("Encode(Decode(% x)): %v", b, err)
		}
		if !bytes.Equal(again, b) {
			t.Fatalf("Encode(Decode(% x)) = % x", b, again)
		}
	})
}
