// Package refworkers holds the reference workers built into the standard dwk
// binary: counter (an object with SQL storage and an alarm) and chat (a room
// object with WebSockets, D1 history, R2 attachments, a notification queue
// and a cleanup cron). They are real application code for the demo and for
// the fleet tests. Importing this package registers both.
package refworkers

import (
	_ "github.com/dwk/fleet/appliance/refworkers/chat"    // registers chat
	_ "github.com/dwk/fleet/appliance/refworkers/counter" // registers counter
)
