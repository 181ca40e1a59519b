// Package probe runs the start-up probes of a central-mode replica: before
// it serves, a replica proves that its central stores are the right ones
// and usable, and refuses to start otherwise, saying what is wrong and how
// to fix it. The probes replace local mode's data-directory lock: they are
// what keeps a replica from mixing data of two fleets or of two modes.
//
// The checks run in this order, each one only if the ones before passed:
//
//	libsql         libSQL answers (reachability, latency) and accepts storage.libsql.auth_token
//	libsql-admin   the admin API accepts storage.libsql.admin_token (when an admin URL is configured)
//	marker         the mode marker exists in the coordination database
//	fleet          it names this fleet and central mode
//	schema         its schema is not newer than this binary's (buildinfo.SchemaVersion)
//	bucket         the fleet's bucket exists and is reachable (latency)
//	bucket-marker  the bucket holds the matching marker object (marker.Same)
//	clock          the local clock is within MaxClockSkew of the libSQL server's
//
// and, for `dwk diagnose` (Config.Diagnose), one more:
//
//	cas            a scratch compare-and-set on the coordination KV behaves
//
// A failure is an *Error whose message names the problem and the fix
// ("no mode marker for fleet 'prod' in libSQL namespace dwk-coord-prod:
// run terraform apply (dwk_mode_marker) to provision the fleet"); `dwk
// serve` prints it and exits non-zero. Messages are stable: tests compare
// them verbatim. In Diagnose mode every check whose prerequisites passed
// runs even after a failure, so that the Report shows everything that is
// wrong at once.
//
// The marker check opens the coordination store (coord.Open), which
// creates its tables if the namespace exists but is empty — what the
// replica would do next anyway. No other check writes, except cas, whose
// scratch key is deleted again (and expires within a minute regardless).
package probe
