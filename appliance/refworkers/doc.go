// Package refworkers holds the reference workers built into the standard dwk
// binary: counter (an object with SQL storage and an alarm), chat (a room
// object with WebSockets, D1 history, R2 attachments, a notification queue
// and a cleanup cron) and plain (every request gets "hello"). They are real
// application code for the demo, the fleet tests and the benchmarks.
// Importing this package registers them.
package refworkers

import (
	_ "github.com/dwk/fleet/appliance/refworkers/chat"    // registers chat
	_ "github.com/dwk/fleet/appliance/refworkers/counter" // registers counter
	_ "github.com/dwk/fleet/appliance/refworkers/plain"   // registers plain
)
