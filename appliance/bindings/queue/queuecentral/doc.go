// Package queuecentral is the central-mode queue broker: every queue of a
// fleet lives in one libSQL database (an sqld namespace, by convention
// namespaces.Queues(fleet) = "dwk-queues-<fleet>"), one row per stored
// message, shared by every replica. It implements queue.Broker and passes
// the queuetest conformance suite unchanged, like queuelocal.
//
// # Round trips
//
// Every operation is one HTTP request to libSQL (hranaclient):
//
//   - Send is one multi-row INSERT, atomic by itself. A batch whose bodies
//     exceed MaxRequestBytes (4 MiB by default, against the server's
//     request limit) goes in chunks inside one interactive transaction
//     instead: all or none still, in one round trip per chunk.
//   - Claim is one UPDATE … WHERE seq IN (SELECT … visible_at <= now …
//     LIMIT n) RETURNING …: the selection and the lease are one statement,
//     so two claims can never take the same message (compare-and-set on
//     visible_at under SQLite's write lock).
//   - Settle is one batch: BEGIN IMMEDIATE, one statement per kind of
//     outcome (all acks in one DELETE), COMMIT. Every statement matches a
//     message by its id and its current receipt, so stale settlements
//     change nothing.
//   - Depth is one SELECT count(*); Backlogs is one SELECT … GROUP BY
//     queue over the (queue, sent_at) index, for every queue at once.
//
// # Time
//
// Delays, visibility timeouts and retry delays are judged by the libSQL
// server's clock, read inside the statement that needs it (julianday('now')
// in Unix milliseconds), never by the replica's: replicas with skewed
// clocks agree on when a message becomes visible. Delivery.Timestamp is
// the server's time of the send.
//
// # Table layout
//
//	queue_meta (one row, id = 1)
//	  schema_version INTEGER NOT NULL   layout version, see SchemaVersion
//
//	queue_messages
//	  seq          INTEGER PRIMARY KEY  send order (rowid)
//	  queue        TEXT    NOT NULL     queue name
//	  id           TEXT    NOT NULL UNIQUE  message id, kept when dead-lettered
//	  body         BLOB    NOT NULL
//	  content_type TEXT    NOT NULL
//	  sent_at      INTEGER NOT NULL     Unix ms, server clock
//	  visible_at   INTEGER NOT NULL     claimable from then on (Unix ms, server clock)
//	  ready_at     INTEGER NOT NULL     visible_at when last claimed: orders one claim's deliveries
//	  attempts     INTEGER NOT NULL     claims so far
//	  receipt      TEXT                 the current claim's receipt; NULL when unclaimed
//	  index (queue, visible_at, seq)
//	  index (queue, sent_at)            Backlogs (added in place: older binaries ignore it)
//
// # Limits
//
// A claim returns at most MaxClaimBytes (4 MiB by default) of bodies, and
// always at least one message, so that its answer stays under the
// server's response limit (sqld and dwk libsql: 10 MiB). Bodies travel
// base64-encoded, so one message's 128 KiB body costs about 171 KiB of
// request.
package queuecentral
