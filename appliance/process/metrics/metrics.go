// Package metrics defines dwk's Prometheus metrics in one place, on a
// registry owned by the replica (never the global default), so tests can
// build as many replicas as they like in one process.
package metrics

import (
	"net/http"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metrics holds every dwk metric. The zero value is not usable; call New.
type Metrics struct {
	reg *prometheus.Registry

	// Requests counts HTTP requests served by workers, by worker and status class.
	Requests *prometheus.CounterVec
	// RequestDuration observes worker request latency, by worker.
	RequestDuration *prometheus.HistogramVec
	// LeasesHeld is the number of object leases this replica holds.
	LeasesHeld prometheus.Gauge
	// LeaseAcquisitions counts leases taken (including takeovers).
	LeaseAcquisitions prometheus.Counter
	// LeasesLost counts leases lost before they were released.
	LeasesLost prometheus.Counter
	// Forwards counts object requests forwarded to another replica.
	Forwards *prometheus.CounterVec
	// CoordRoundTrips counts round trips to the coordination store.
	CoordRoundTrips prometheus.Counter
	// D1RoundTrips counts round trips to libSQL made by D1 bindings.
	D1RoundTrips prometheus.Counter
	// AlarmLag observes how late alarms run compared with their set time.
	AlarmLag prometheus.Histogram
	// Draining is 1 while the replica drains, else 0.
	Draining prometheus.Gauge
}

// New creates the metrics on a fresh registry, with Go and process
// collectors. member labels every series with the replica's id ("" in local
// mode).
func New(member string) *Metrics {
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	f := factory{reg: reg, labels: prometheus.Labels{}}
	if member != "" {
		f.labels["member"] = member
	}
	return &Metrics{
		reg:      reg,
		Requests: f.counterVec("dwk_http_requests_total", "HTTP requests served by workers.", "worker", "code"),
		RequestDuration: f.histogramVec("dwk_http_request_duration_seconds", "Latency of HTTP requests served by workers.",
			prometheus.DefBuckets, "worker"),
		LeasesHeld:        f.gauge("dwk_leases_held", "Object leases this replica holds."),
		LeaseAcquisitions: f.counter("dwk_lease_acquisitions_total", "Object leases acquired, including takeovers."),
		LeasesLost:        f.counter("dwk_leases_lost_total", "Object leases lost before release."),
		Forwards:          f.counterVec("dwk_forwards_total", "Object requests forwarded to the replica holding the lease.", "result"),
		CoordRoundTrips:   f.counter("dwk_coord_round_trips_total", "Round trips to the coordination store."),
		D1RoundTrips:      f.counter("dwk_d1_round_trips_total", "Round trips to libSQL made by D1 bindings."),
		AlarmLag: f.histogram("dwk_alarm_lag_seconds", "How late alarms start compared with their scheduled time.",
			[]float64{.01, .05, .1, .25, .5, 1, 2, 5, 10, 30, 60}),
		Draining: f.gauge("dwk_draining", "1 while the replica drains."),
	}
}

// Registry is the registry, for components that add their own collectors
// (queue depth, object counts).
func (m *Metrics) Registry() *prometheus.Registry { return m.reg }

// Handler serves the metrics in the Prometheus exposition format.
func (m *Metrics) Handler() http.Handler {
	return promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg})
}

// GaugeFunc registers a gauge whose value is read at scrape time.
func (m *Metrics) GaugeFunc(name, help string, labels prometheus.Labels, fn func() float64) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: labels}, fn))
}

// CounterFunc registers a counter whose value is read at scrape time.
func (m *Metrics) CounterFunc(name, help string, labels prometheus.Labels, fn func() float64) {
	m.reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: labels}, fn))
}

type factory struct {
	reg    *prometheus.Registry
	labels prometheus.Labels
}

func (f factory) counter(name, help string) prometheus.Counter {
	c := prometheus.NewCounter(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: f.labels})
	f.reg.MustRegister(c)
	return c
}

func (f factory) counterVec(name, help string, labels ...string) *prometheus.CounterVec {
	c := prometheus.NewCounterVec(prometheus.CounterOpts{Name: name, Help: help, ConstLabels: f.labels}, labels)
	f.reg.MustRegister(c)
	return c
}

func (f factory) gauge(name, help string) prometheus.Gauge {
	g := prometheus.NewGauge(prometheus.GaugeOpts{Name: name, Help: help, ConstLabels: f.labels})
	f.reg.MustRegister(g)
	return g
}

func (f factory) histogram(name, help string, buckets []float64) prometheus.Histogram {
	h := prometheus.NewHistogram(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets, ConstLabels: f.labels})
	f.reg.MustRegister(h)
	return h
}

func (f factory) histogramVec(name, help string, buckets []float64, labels ...string) *prometheus.HistogramVec {
	h := prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: name, Help: help, Buckets: buckets, ConstLabels: f.labels}, labels)
	f.reg.MustRegister(h)
	return h
}
