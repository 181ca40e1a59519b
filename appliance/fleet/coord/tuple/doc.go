// Package tuple encodes tuple keys — ordered lists of typed parts, as in
// Deno KV and FoundationDB — into byte strings whose byte order is the tuple
// order, so a database that sorts BLOBs with memcmp (SQLite does) sorts keys
// correctly and prefix and range scans become byte range scans.
//
// A part is one of five Go types. Parts of different types order by type,
// then by value:
//
//	type      tag         value order                 encoding after the tag
//	[]byte    0x01        bytewise                    bytes, 0x00 escaped as 0x00 0xFF, then 0x00
//	string    0x02        bytewise (= code points)    as []byte
//	int64     0x0C–0x1C   numeric                     big-endian magnitude, minimal length
//	float64   0x21        numeric, -0 < +0, NaN last  IEEE 754 bits, sign flipped (all bits if negative)
//	bool      0x26, 0x27  false < true                none
//
// So bytes < string < int < float < bool, as in FoundationDB's tuple layer,
// whose encoding this is for these types (the integer tag carries the
// length: 0x14 is zero, 0x14+n a positive integer of n bytes, 0x14-n a
// negative one of n bytes stored as the ones' complement of its magnitude).
// Deno KV orders number before bigint; dwk has a single integer type and
// puts it first. Within a key, a shorter key sorts before every key it is a
// prefix of.
//
// Every key has exactly one encoding: all NaNs encode as the canonical
// quiet NaN, integers use the fewest bytes, and [Decode] rejects any other
// byte string, so Encode(Decode(b)) == b whenever Decode succeeds. An int
// part is accepted for convenience and encodes as int64; Decode always
// returns int64. Strings are not checked for valid UTF-8.
package tuple
