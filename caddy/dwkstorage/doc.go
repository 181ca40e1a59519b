// Package dwkstorage is the Caddy module caddy.storage.dwk: certmagic
// storage in the fleet's coordination KV (package appliance/fleet/coord),
// so that every front door of a fleet shares one ACME account and one
// certificate per domain, and one replica obtains it while the others wait
// and then load it.
//
// # Keys
//
// A storage key "a/b/c" is the coordination key
// ("caddy", prefix, "data", "a", "b", "c"); a lock named n is
// ("caddy", prefix, "lock", n). Directories are implicit: "a/b" is a
// directory while any key extends it. Empty components, "." and ".." are
// cleaned away as path.Clean does.
//
// # Encryption
//
// Values are sealed with AES-256-GCM under a key derived from the fleet
// secret with HKDF-SHA256 (info KeyInfo). A sealed value is
//
//	version (1 byte, 1) | key id (8) | modified, Unix ms (8) | nonce (12) | ciphertext | tag (16)
//
// and the authenticated data are the first 17 bytes and the encoded
// coordination key, so a value copied under another name does not open.
// The key id (HKDF-SHA256 of the secret with info KeyIDInfo) tells a value
// sealed under another secret (ErrWrongSecret) from a damaged one
// (ErrCorrupt). Load and Stat report a value sealed under another secret
// as missing too (fs.ErrNotExist) and log a warning naming its key, so
// that after the fleet secret changes certmagic obtains the ACME account
// and the certificates once more instead of failing to start; a damaged
// value stays an error. Names, sizes and modification times are not
// secret.
//
// # Locks
//
// Lock takes a lock with one atomic operation that checks the lock key is
// absent and writes this owner's record with an expiry of LockTTL, judged
// by the libSQL server's clock. While the lock is held a goroutine
// renews it every LockTTL/3, each renewal checking that the key still
// holds this owner's write; a renewal that finds another record gives the
// lock up. A holder that dies stops renewing, and its lock expires LockTTL
// after its last renewal; a waiter polls with a growing, jittered backoff
// until it can take it, its context ends, LockWait passes or the storage
// closes. Unlock deletes the key only if it still holds this owner's
// record; a storage that does not hold the lock (another owner) gets
// ErrNotHeld and changes nothing.
//
// As certmagic's Locker contract allows, these locks carry no fencing
// token: a holder paused for longer than LockTTL may still act after
// another took over. certmagic re-checks storage after taking a lock, and
// ACME orders are idempotent enough for that to be rare and harmless.
//
// # Caddyfile
//
//	storage dwk {
//		url        http://libsql.internal:8080
//		auth_token {env.DWK_LIBSQL_TOKEN}
//		fleet      prod
//		secret     {env.DWK_FLEET_SECRET}
//	}
package dwkstorage
