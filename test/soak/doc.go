// Package soak is dwk's proof under fire: it runs a central-mode fleet
// (fleettest: dwk libsql, versitygw, several dwk serve) under mixed load —
// counter increments, chat WebSockets, D1 writes, R2 puts and gets, queue
// sends, alarms, cron — while it injects faults (kill -9, SIGSTOP past the
// lease TTL, graceful rolling restarts, a libSQL restart, an S3 outage,
// and the network faults: a replica cut off from libSQL, a replica cut
// off from its peers, libSQL slowed to 200 ms per round trip), then
// checks every fleet invariant of SPEC §8 and prints what happened.
//
// The network faults need the replicas in network namespaces, reaching
// libSQL and S3 through proxies (test/partition): as root, with ip and
// nft. Elsewhere the soak runs without them and logs why; under CI
// (CI=true) it fails instead, as a test whose tool is missing does
// (test/needtool).
//
// What may fail: no acknowledged operation may be lost, ever. A request
// may fail while a fault other than a graceful rolling restart is
// active, or during its tail (two lease TTLs and a second): kill -9,
// SIGSTOP and a cut from libSQL take a holder away until its leases
// lapse (a replica cut from libSQL can commit nothing, so its writes
// answer 503); a cut from peers leaves a holder that keeps its leases
// out of reach of the other front doors, which answer 504 after
// forward.timeout; a libSQL restart or an S3 outage takes a store away;
// a slowed libSQL delays every commit and heartbeat, and under load that
// can push a write past its lease. With no fault active, or during a
// rolling restart, no request may fail (enforced when Strict).
//
// Per fault kind the report gives the longest request, answered or not,
// and the longest unavailability: the longest time from sending an
// increment of a counter until that counter next acknowledged one, over
// the waits the fault kind is blamed for (the most disruptive fault
// whose window, with its tail, overlaps them). "none" gives both for
// the quiet stretches, as a baseline. Each fault also has a closed-loop
// client of its own (closedloop.go): one increment at a time of its own
// counter, first placed on the victim, through another replica's front
// door, while the fault and its tail last; the report and the Result give
// each kind's longest wait for that client and its longest time without
// its object (faults.<kind>.closed_loop_wait and
// .closed_loop_without_object in the figures).
//
// `go test ./test/soak` runs a short soak with a fixed fault schedule that
// covers every fault kind; `make soak DURATION=10m` runs a long one with a
// randomized, seeded schedule and keeps its [Result] in
// bench/soak-<duration>-<seed>.json (-soak.out), which docs/limits.md
// quotes (package test/benchdocs); the short run keeps no file. The fleet
// measurements that `make bench` reports (failover, drain handoff,
// rolling-deploy failures, coordination round trips) are the Benchmark
// functions of this package.
package soak
