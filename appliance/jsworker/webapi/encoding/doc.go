// Package encoding is the jsworker extension for the Encoding Standard
// and base64: TextEncoder, TextDecoder, atob and btoa. The conversions run
// in Go; JavaScript strings reach Go as UTF-8 with each lone surrogate
// replaced by U+FFFD, which is what the Encoding Standard's UTF-8 encoder
// does with them.
//
// TextDecoder knows every WHATWG encoding and label. UTF-8, UTF-16LE,
// UTF-16BE and windows-1252 (also the labels latin1, ascii, iso-8859-1)
// have decoders here that follow the standard exactly, errors included;
// the others (the CJK and other single-byte encodings) decode with
// golang.org/x/text.
//
// # What other preludes use
//
// These natives go on the prelude's internal object. "Bytes" means an
// ArrayBuffer, a typed array or a DataView (read in place; anything else
// is a TypeError); each Uint8Array returned is new and owns its memory.
//
//   - internal.utf8Encode(string) → Uint8Array: UTF-8, a lone surrogate
//     as U+FFFD.
//   - internal.utf8Decode(bytes, stripBOM?) → string: UTF-8 with each
//     malformed subpart as U+FFFD (the Encoding Standard's decoder); a
//     leading BOM is kept unless stripBOM (fetch bodies strip it, Node.js
//     Buffers do not).
//   - internal.base64Encode(bytes, url?) → string: standard base64 with
//     padding, or with url the URL-safe alphabet without padding
//     (Node.js's "base64url").
//   - internal.base64Decode(string, lenient?) → Uint8Array or null:
//     without lenient, the forgiving-base64 decode of atob (ASCII
//     whitespace ignored, optional padding) and null for input that is not
//     base64; with lenient, Node.js's Buffer decoding of "base64" and
//     "base64url" (both alphabets, other characters skipped, stops at the
//     first '='), which never fails.
//   - internal.hexEncode(bytes) → string: lowercase hex.
//   - internal.hexDecode(string) → Uint8Array: hex pairs of either case up
//     to the first pair that is not hex; an odd last digit is dropped
//     (Node.js's Buffer).
//   - internal.latin1Encode(string) → Uint8Array: each UTF-16 code unit's
//     low byte (Node.js's "latin1"/"binary").
//   - internal.latin1Decode(bytes) → string: each byte a code point.
//   - internal.utf16leEncode(string) → Uint8Array: the UTF-16 code units,
//     little-endian, lone surrogates kept.
//   - internal.utf16leDecode(bytes) → string: pairs of bytes as code
//     units, unchecked; an odd last byte is dropped (Node.js's "utf16le").
//
// # Differences
//
// With fatal: true, an encoding decoded by golang.org/x/text reports an
// error for any U+FFFD it produces; for gb18030, which can encode U+FFFD
// itself, a real U+FFFD in the input is reported as an error too.
// TextDecoder's error message for malformed input names the encoding
// ("The encoded data was not valid for encoding utf-8") where workerd says
// "Failed to decode input.".
package encoding
