package libsql

import (
	"net/http"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// Metric names of the backup, which dwk diagnose reads.
const (
	MetricBackupEnabled      = "dwk_libsql_backup_enabled"
	MetricBackupLag          = "dwk_libsql_backup_lag_seconds"
	MetricBackupPending      = "dwk_libsql_backup_pending_namespaces"
	MetricBackupLastSnapshot = "dwk_libsql_backup_last_snapshot_timestamp_seconds"
	MetricBackupLastUpload   = "dwk_libsql_backup_last_upload_timestamp_seconds"
	MetricBackupFailures     = "dwk_libsql_backup_failures_total"
)

// metricsHandler serves the server's metrics in the Prometheus format on
// the admin API: namespaces, streams and the backup's progress.
func (s *Server) metricsHandler() http.Handler {
	reg := prometheus.NewRegistry()
	gauge := func(name, help string, fn func() float64) {
		reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Name: name, Help: help}, fn))
	}
	gauge("dwk_libsql_namespaces", "Namespaces on the server.", func() float64 { return float64(len(s.nss.list())) })
	gauge("dwk_libsql_streams_open", "Hrana streams open (each holds a SQLite connection).", func() float64 { return float64(s.slots.used()) })
	gauge("dwk_libsql_idle_connections", "Idle SQLite connections kept for reuse.", func() float64 { return float64(s.nss.idle.len()) })
	enabled := 0.0
	if s.backup != nil {
		enabled = 1
	}
	gauge(MetricBackupEnabled, "1 when the continuous backup to S3 is on.", func() float64 { return enabled })
	if s.backup != nil {
		gauge(MetricBackupLag, "Age of the oldest commit (or namespace creation or deletion) not yet in S3; 0 when all is shipped.",
			func() float64 { return s.backup.Status().Lag.Seconds() })
		gauge(MetricBackupPending, "Namespaces with changes not yet in S3.",
			func() float64 { return float64(s.backup.Status().Pending) })
		gauge(MetricBackupLastSnapshot, "Unix time of the latest snapshot uploaded since start (0: none).",
			func() float64 { return unixSeconds(s.backup.Status().LastSnapshot) })
		gauge(MetricBackupLastUpload, "Unix time of the latest successful upload since start (0: none).",
			func() float64 { return unixSeconds(s.backup.Status().LastUpload) })
		reg.MustRegister(prometheus.NewCounterFunc(prometheus.CounterOpts{Name: MetricBackupFailures, Help: "Failed attempts to ship a namespace."},
			func() float64 { return float64(s.backup.Status().Failures) }))
	}
	return promhttp.HandlerFor(reg, promhttp.HandlerOpts{Registry: reg})
}

// unixSeconds is t as Unix seconds, 0 for the zero time.
func unixSeconds(t time.Time) float64 {
	if t.IsZero() {
		return 0
	}
	return float64(t.UnixNano()) / 1e9
}
