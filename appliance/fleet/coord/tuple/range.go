package tuple

// PrefixRange returns the byte range [begin, end) holding the encodings of
// every key that strictly extends prefix: the prefix key itself is not in
// it, as with Deno KV's prefix selector. The empty prefix gives the range of
// all keys.
func PrefixRange(prefix Key) (begin, end []byte, err error) {
	p, err := Encode(prefix)
	if err != nil {
		return nil, nil, err
	}
	// Every part starts with a tag in 0x01..0x27, so P+0x00 is below and
	// P+0xFF above every extension of P.
	begin = append(append(make([]byte, 0, len(p)+1), p...), 0x00)
	end = append(append(make([]byte, 0, len(p)+1), p...), 0xFF)
	return begin, end, nil
}

// Strinc returns the smallest byte string greater than every string that
// starts with b, for a scan `key >= b AND key < Strinc(b)`: b with its
// trailing 0xFF bytes dropped and its last byte incremented. ok is false
// when no such string exists (b empty or all 0xFF); the scan is then
// unbounded above.
func Strinc(b []byte) (end []byte, ok bool) {
	for i := len(b) - 1; i >= 0; i-- {
		if b[i] < 0xFF {
			end = append(make([]byte, 0, i+1), b[:i+1]...)
			end[i]++
			return end, true
		}
	}
	return nil, false
}

// Successor returns the smallest encoding greater than the encoding b:
// b + 0x00. Listing from Successor(last) continues strictly after last.
func Successor(b []byte) []byte {
	return append(append(make([]byte, 0, len(b)+1), b...), 0x00)
}
