// Package webcrypto is the Web Crypto API as Cloudflare Workers provide it:
// the global crypto (getRandomValues, randomUUID, subtle), SubtleCrypto,
// CryptoKey, Cloudflare's crypto.subtle.timingSafeEqual and
// crypto.DigestStream.
//
// The prelude does what the Web Crypto specification puts around the
// cryptography: it normalizes algorithm identifiers (case-insensitive
// names, dictionary members converted and checked, hashes normalized with
// the digest operation), checks key usages and the key an operation is
// given, makes CryptoKey objects and throws the specification's
// DOMExceptions (NotSupportedError, InvalidAccessError, DataError,
// OperationError, SyntaxError) and TypeErrors. The Go natives hold the key
// material and do the cryptography with Go's standard library: a CryptoKey
// keeps an opaque handle to its Go key in a private field, so private bytes
// reach JavaScript only through exportKey of an extractable key. As in
// workerd, a CryptoKey's type, extractable, algorithm and usages are its own
// enumerable read-only properties (JSON.stringify and console.log show
// them); the operations check a private copy.
//
// Every subtle method runs its cryptography synchronously on the loop and
// returns a settled promise, as workerd does, so the time counts against the
// event's CPU limit. Only RSA key generation runs off the loop, on a
// goroutine of its own, and does not count.
//
// # Algorithms
//
//   - digest: SHA-1, SHA-256, SHA-384, SHA-512 and MD5.
//   - sign, verify: HMAC, ECDSA (P-256, P-384, P-521; signatures in IEEE P1363
//     r||s form), Ed25519 (and Cloudflare's NODE-ED25519 with namedCurve
//     "NODE-ED25519"), RSASSA-PKCS1-v1_5, RSA-PSS.
//   - encrypt, decrypt: AES-GCM, AES-CBC, AES-CTR, RSA-OAEP.
//   - deriveBits, deriveKey: PBKDF2, HKDF, ECDH, X25519.
//   - wrapKey, unwrapKey: AES-KW and every encrypt algorithm.
//   - importKey, exportKey: raw, jwk, pkcs8 and spki where the specification
//     allows them; generateKey for every key algorithm.
//
// crypto.DigestStream exists when a WritableStream global does (the streams
// extension runs before this one); it is looked up when crypto.DigestStream
// is first read. Besides the digest algorithms it takes workerd's "crc32",
// "crc32c" and "crc64nvme".
//
// # Differences
//
// Where Go's standard library cannot do what workerd (BoringSSL) does:
//
//   - RSA keys shorter than 1024 bits cannot be generated or used (Go refuses
//     them): generateKey fails with an OperationError, and sign, verify,
//     encrypt and decrypt with such an imported key fail with an
//     OperationError. generateKey supports publicExponent 65537 only
//     (workerd also allows 3): other exponents are a NotSupportedError.
//   - RSA-PSS signing with saltLength 0 is a NotSupportedError; verifying with
//     saltLength 0 accepts a signature with any salt length.
//   - AES-GCM decryption with a tag shorter than 96 bits decrypts twice (Go's
//     GCM only checks full tags), so it costs about twice as much.
//
// Where this package follows the Web Crypto specification instead of
// workerd: an unknown algorithm name is a NotSupportedError for every
// method (workerd throws InvalidAccessError from sign, verify, encrypt and
// decrypt), and a public ECDH or X25519 key may have no usages (workerd
// without its strict-crypto flag accepts deriveKey and deriveBits).
// PBKDF2 accepts at most 100,000 iterations, as Cloudflare does (more is a
// NotSupportedError).
package webcrypto
