// Package caddytest holds the tests of the dwk Caddy modules that need more
// than one package: the front door in front of app servers registered as
// members in a real coordination KV (a dwk libsql process), the xcaddy
// build of the modules as third-party plugins, and the load-balancer
// benchmarks `make bench` runs.
//
// Caddy runs one config per process, so these tests never run in
// parallel.
package caddytest
