// Package workersecrets keeps the worker secrets put with `dwk secret put`
// in a fleet's coordination KV (package coord), sealed, and lets replicas
// follow them while they run.
//
// # Keys
//
//	("secret")                 a u64 counter, summed by every put and delete:
//	                           its versionstamp says whether anything changed
//	("secret", worker, name)   the sealed value of one secret of one worker
//
// A put or a delete writes the secret and the counter in one atomic
// commit, so a reader that sees the counter's versionstamp change and then
// lists the secrets sees that write or a later one.
//
// # Sealing
//
// A value is sealed with AES-256-GCM under a key derived with HKDF-SHA256
// from fleet.secret (salt: the fleet's name). The worker's and the
// secret's names are additional data, so a sealed value moved to another
// key does not open. The stored bytes are
//
//	version (1) | key id (8) | nonce (12) | ciphertext and tag
//
// The key id, also derived from the secret, tells a value sealed under
// another fleet.secret (ErrWrongSecret) from a damaged one (ErrCorrupt).
// The libSQL server, its operator and its backups hold only sealed bytes;
// whoever holds fleet.secret can open them, as a replica must.
//
// # Failure
//
// A value that does not open is reported in Snapshot.Unreadable with its
// worker and name and left out of Snapshot.Workers: the replica falls back
// to dwk.json's value of that name, as if the secret had been deleted.
// A poll that fails is retried at the next interval; the secrets applied
// last stay in force meanwhile.
package workersecrets
