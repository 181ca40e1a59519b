package queuecentral

// SQL fragments shared by the operations.
const (
	// nowMS is the server's time in Unix milliseconds. SQLite reads the
	// clock once per statement, so every use in one statement agrees;
	// julianday works on every SQLite (unixepoch('subsec') needs 3.42).
	nowMS = `CAST(round((julianday('now') - 2440587.5) * 86400000.0) AS INTEGER)`
)
