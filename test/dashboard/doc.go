// Package dashboard checks the operator's Grafana dashboard
// (docs/grafana/dwk-fleet.json) and the Prometheus scrape example
// (examples/prometheus): every metric a panel queries must be one a real
// `dwk serve` exports, promtool must parse every query, and it must accept
// the scrape config.
package dashboard
