// Package central builds the clients of a central-mode fleet's stores from
// dwk.json: the Hrana client of the fleet's coordination database, the
// libSQL admin API client, the clients of the object shards and the S3
// client of the fleet's bucket. dwk serve, dwk diagnose, dwk provision and
// the Terraform provider's dwk_mode_marker all build them here, so they
// reach the stores the same way.
//
// Dial resolves every secret the clients need and reports each one it
// cannot resolve with its JSON path ("storage.libsql.auth_token: ..."), as
// config.Validate does: an environment variable or file may be gone by
// the time a validated config is used. Dial does no network I/O; the
// start-up probes (Clients.Probe) are what first reach the stores.
package central
