// Package coord is the coordination KV: a small key-value store with Deno
// KV semantics on one libSQL database, shared by every replica of a fleet.
// Leases, membership, alarms, cron ticks and the mode marker are built on
// it.
//
// Keys are tuples (package [tuple]) stored in their order-preserving
// encoding, so listings come back in tuple order. Values are bytes, or
// unsigned 64-bit counters written by [Atomic.Sum] and [Atomic.SetU64]
// (Deno's KvU64).
//
// # Operations and round trips
//
// Every operation is exactly one HTTP request to libSQL ([Store.Get],
// [Store.GetMany], [Store.List], [Store.Now], [Atomic.Commit]); in
// particular an atomic operation with checks is one Hrana batch that
// begins a transaction, evaluates every check, applies the mutations and
// commits only if all checks held — the versionstamp comparison happens on
// the server, not in a read-then-write exchange. The one exception: when
// the database stays locked longer than the server's busy timeout, the
// transaction never began and Commit sends it again. Operations marked
// [Atomic.Shared] that several goroutines commit at once share that
// request and its transaction, each applied as if committed alone.
//
// A failed check is not an error: Commit returns CommitResult{OK: false}.
// A Commit whose response is lost returns an error wrapping
// ErrOutcomeUnknown: it may or may not have committed, and the caller must
// re-read before deciding to retry.
//
// # Versionstamps
//
// Every successful commit increments one 64-bit counter in the database and
// stamps every key it writes with the new value, so versionstamps are
// unique and strictly increasing per commit across the fleet. A
// [Versionstamp] is that counter; zero means "absent". (Deno's 10-byte
// versionstamp is this counter big-endian followed by two zero bytes; see
// [Versionstamp.String].)
//
// # Time
//
// Expiry (expireIn) is computed by the libSQL server's clock inside the
// statement that writes the key, never by the replica's, so replicas with
// skewed clocks agree on when a key expires. Expired keys are absent to
// every read and every check at once and are deleted later by a sweeper
// goroutine the Store owns. [Store.Now] reads the server's clock.
//
// # Table layout
//
// The database (an sqld namespace, by convention "dwk-coord-<fleet>", see
// [NamespaceFor]) holds two tables, created idempotently by [Open]:
//
//	coord_meta (one row, id = 1)
//	  id              INTEGER PRIMARY KEY CHECK (id = 1)
//	  schema_version  INTEGER NOT NULL    layout version, see SchemaVersion
//	  versionstamp    INTEGER NOT NULL    last committed versionstamp
//	  check_ok        INTEGER NOT NULL    set to NULL by a failed check, which
//	                                      aborts the check statement
//
//	coord_kv (WITHOUT ROWID)
//	  key           BLOB PRIMARY KEY     tuple encoding; BLOB order = tuple order
//	  value         BLOB or INTEGER      bytes, or a u64 counter stored as int64
//	  versionstamp  INTEGER NOT NULL     versionstamp of the commit that wrote it
//	  expires_at    INTEGER              Unix ms by the server's clock; NULL = never
//	  index coord_kv_expires on expires_at (partial, expiring keys only)
//
// Key space conventions (by the packages that build on coord):
//
//	("kv", namespace, key)           Workers KV in central mode (kvcentral)
//	("lease", class, id)             object leases, JSON {holder, addr, epoch, live}, never expire (lease)
//	("epoch", class, id)             per-object epoch counters, u64, never expire (lease)
//	("live", member)                 a member's liveness epoch, JSON {epoch}, expiring (lease)
//	("liveepoch", member)            a member's liveness epoch counter, u64, never expires (lease)
//	("alarm", "entry"|"due"|"claim", …)  object alarm index and claims (objcentral)
//	("member", id)                   member records, JSON, expiring (fleet/membership)
//	("cron", "tick", schedule, ms)   cron tick claims, expiring after 10s unless renewed, 24h once done (cron/cronlease)
//	("mode")                         the mode marker (fleet/markerstore)
//	("diagnose", "cas", random)      dwk diagnose scratch keys, deleted, expire in 1m (fleet/probe)
//	("caddy", prefix, "data"|"lock", …)  Caddy's certificate storage, sealed; locks expiring (caddy/dwkstorage)
//	("secret") and ("secret", worker, name)  worker secrets put with dwk secret put, sealed (fleet/workersecrets)
//
// appliance/fleet/lease/coordsql.go writes coord_kv directly (the liveness
// heartbeat and lease release, refusals as outcomes); change it with any
// layout change.
package coord
