package queuecentral

import (
	"testing"

	"github.com/dwk/fleet/appliance/bindings/queue"
	"github.com/dwk/fleet/appliance/bindings/queue/queuetest"
)

// TestConformance runs the queue suite unchanged against a real libSQL
// server, every broker on a client of its own.
func TestConformance(t *testing.T) {
	db := newQueueDB(t)
	queuetest.Run(t, func(t *testing.T) queue.Broker { return db.open(t, Options{}) })
}
