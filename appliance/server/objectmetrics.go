package server

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/dwk/fleet/appliance/bindings/objects"
	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/process/metrics"
)

// objectStoreMetrics exports what the local object replicas do: how opens
// synced (current, incremental, full), pages fetched and committed,
// commits and failed commits, the cache's size and the open commit streams.
func objectStoreMetrics(m *metrics.Metrics, member string, store *objcentral.Store) {
	labels := func(extra ...string) prometheus.Labels {
		l := prometheus.Labels{"member": member}
		for i := 0; i+1 < len(extra); i += 2 {
			l[extra[i]] = extra[i+1]
		}
		return l
	}
	stat := func(f func(objcentral.Stats) int64) func() float64 {
		return func() float64 { return float64(f(store.Stats())) }
	}
	const opens = "Objects opened on this replica, by how the local copy was synced: current (no page fetched), incremental (pages written since the copy's version), full (every page)."
	m.CounterFunc("dwk_object_opens_total", opens, labels("sync", "current"), stat(func(s objcentral.Stats) int64 { return s.OpensCurrent }))
	m.CounterFunc("dwk_object_opens_total", opens, labels("sync", "incremental"), stat(func(s objcentral.Stats) int64 { return s.OpensIncremental }))
	m.CounterFunc("dwk_object_opens_total", opens, labels("sync", "full"), stat(func(s objcentral.Stats) int64 { return s.OpensFull }))
	m.CounterFunc("dwk_object_pages_fetched_total", "Pages of object databases fetched from libSQL to sync local copies.", labels(), stat(func(s objcentral.Stats) int64 { return s.PagesFetched }))
	m.CounterFunc("dwk_object_commits_total", "Round trips that committed object writes at libSQL.", labels(), stat(func(s objcentral.Stats) int64 { return s.Commits }))
	m.CounterFunc("dwk_object_pages_committed_total", "Pages of object databases committed at libSQL.", labels(), stat(func(s objcentral.Stats) int64 { return s.PagesCommitted }))
	m.CounterFunc("dwk_object_commit_failures_total", "Object commits that failed (fenced, or libSQL unreachable); each left a local copy stale.", labels(), stat(func(s objcentral.Stats) int64 { return s.CommitFailures }))
	m.GaugeFunc("dwk_object_cache_bytes", "Bytes of local object copies on disk.", labels(), stat(func(s objcentral.Stats) int64 { return s.CacheBytes }))
	m.GaugeFunc("dwk_object_commit_streams", "Held objects with a commit stream (a WebSocket to their primary database) open.", labels(), stat(func(s objcentral.Stats) int64 { return s.CommitStreams }))
}

// objectRuntimeMetrics exports the object runtime's gauges and counters:
// objects loaded and asleep (hibernating), open WebSockets, hibernations
// and wakes.
func objectRuntimeMetrics(m *metrics.Metrics, member string, rt *objects.Runtime) {
	labels := prometheus.Labels{}
	if member != "" {
		labels["member"] = member
	}
	stat := func(f func(objects.Stats) int64) func() float64 {
		return func() float64 { return float64(f(rt.Stats())) }
	}
	m.GaugeFunc("dwk_objects_loaded", "Objects loaded on this replica (leased, storage open), asleep ones included.", labels, stat(func(s objects.Stats) int64 { return int64(s.Instances) }))
	m.GaugeFunc("dwk_objects_asleep", "Loaded objects that hibernate: out of memory, their WebSockets open.", labels, stat(func(s objects.Stats) int64 { return int64(s.Asleep) }))
	m.GaugeFunc("dwk_object_websockets", "WebSockets open to objects on this replica.", labels, stat(func(s objects.Stats) int64 { return int64(s.WebSockets) }))
	m.CounterFunc("dwk_object_hibernations_total", "Objects that left memory with their WebSockets open.", labels, stat(func(s objects.Stats) int64 { return s.Hibernations }))
	m.CounterFunc("dwk_object_wakes_total", "Hibernated objects constructed again by an event.", labels, stat(func(s objects.Stats) int64 { return s.Wakes }))
	m.CounterFunc("dwk_object_gate_opens_total", "Times an object event let other events of its object run while it awaited a call (input gate).", labels, stat(func(s objects.Stats) int64 { return s.GateOpens }))
}
