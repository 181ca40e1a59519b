package objects

import "sync/atomic"

// Stats are the runtime's counters and gauges, for metrics.
type Stats struct {
	// Instances and WebSockets are the objects loaded and the open
	// sockets now; Asleep the loaded objects that hibernate (out of
	// memory, sockets open).
	Instances  int
	WebSockets int
	Asleep     int
	// The rest count since Open.
	InstancesStarted   int64
	InstancesEvicted   int64
	InstancesStopped   int64
	WebSocketsAccepted int64
	AlarmsFired        int64
	AlarmsRetried      int64
	// AlarmsFailed counts alarms dropped after their last retry failed.
	AlarmsFailed int64
	// Hibernations and Wakes count objects leaving memory with their
	// sockets open, and constructed again by an event.
	Hibernations int64
	Wakes        int64
	// GateOpens counts the times an event of a Gated class let other
	// events of its object run while it awaited a call.
	GateOpens int64
}

type stats struct {
	instancesStarted   atomic.Int64
	instancesEvicted   atomic.Int64
	instancesStopped   atomic.Int64
	webSocketsAccepted atomic.Int64
	objectsHibernated  atomic.Int64
	objectsWoken       atomic.Int64
	alarmsFired        atomic.Int64
	alarmsRetried      atomic.Int64
	alarmsFailed       atomic.Int64
	gateOpens          atomic.Int64
}

// Stats returns a snapshot of the runtime's counters.
func (rt *Runtime) Stats() Stats {
	rt.mu.Lock()
	s := Stats{Instances: len(rt.instances)}
	for _, in := range rt.instances {
		s.WebSockets += len(in.sockets)
		if in.asleep.Load() {
			s.Asleep++
		}
	}
	rt.mu.Unlock()
	s.InstancesStarted = rt.stats.instancesStarted.Load()
	s.InstancesEvicted = rt.stats.instancesEvicted.Load()
	s.InstancesStopped = rt.stats.instancesStopped.Load()
	s.WebSocketsAccepted = rt.stats.webSocketsAccepted.Load()
	s.Hibernations = rt.stats.objectsHibernated.Load()
	s.Wakes = rt.stats.objectsWoken.Load()
	s.AlarmsFired = rt.stats.alarmsFired.Load()
	s.AlarmsRetried = rt.stats.alarmsRetried.Load()
	s.AlarmsFailed = rt.stats.alarmsFailed.Load()
	s.GateOpens = rt.stats.gateOpens.Load()
	return s
}
