package coord

// SQL fragments shared by the operations.
const (
	// nowMS is the server's current time in Unix milliseconds. julianday
	// works on every SQLite (unixepoch('subsec') needs 3.42); SQLite
	// reads the clock once per statement, so every use in one statement
	// sees the same instant.
	nowMS = `CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)`

	// live is true for a row of coord_kv that has not expired.
	live = `(expires_at IS NULL OR expires_at > ` + nowMS + `)`

	// currentVS is the versionstamp of the commit in progress, after the
	// commit's bump statement.
	currentVS = `(SELECT versionstamp FROM coord_meta WHERE id = 1)`

	// selectEntry lists the columns every read returns, in scanEntry's
	// order.
	selectEntry = `key, value, versionstamp, expires_at`
)
