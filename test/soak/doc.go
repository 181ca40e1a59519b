// Package soak is dwk's proof under fire: it runs a central-mode fleet
// (fleettest: dwk libsql, versitygw, several dwk serve) under mixed load —
// counter increments, chat WebSockets, D1 writes, R2 puts and gets, queue
// sends, alarms, cron — while it injects faults (kill -9, SIGSTOP past the
// lease TTL, graceful rolling restarts, a libSQL restart, an S3 outage),
// then checks every fleet invariant of SPEC §8 and prints what happened.
//
// `go test ./test/soak` runs a short soak with a fixed fault schedule that
// covers every fault kind; `make soak DURATION=10m` runs a long one with a
// randomized, seeded schedule and keeps its [Result] in
// bench/soak-<duration>-<seed>.json (-soak.out), which docs/limits.md
// quotes (package test/benchdocs); the short run keeps no file. The fleet measurements that `make bench`
// reports (failover, drain handoff, rolling-deploy failures, coordination
// round trips) are the Benchmark functions of this package.
package soak
