// Package machines gives tests real systemd machines: Debian bookworm
// containers booted with systemd-nspawn, each running systemd as PID 1,
// systemd-networkd and OpenSSH, reachable from the host over SSH as root.
//
// Boot(t, n) creates a bridge of its own with a free 10.x.y.0/24 subnet
// (x in 200…250), gives the host 10.x.y.1 and the machines 10.x.y.11,
// 10.x.y.12, …, and boots every machine on a private copy of a cached root
// file system, with a fresh machine ID and SSH host key. Each machine can
// be hard powered off and started again on the same root directory.
// Everything (machines, bridge, copies) is removed when the test ends.
//
// # Root file system cache
//
// The root file system is built once with debootstrap (minbase variant plus
// systemd, openssh-server, dbus, iproute2 and ca-certificates; a few
// minutes and about 230 MB) into
//
//	/var/cache/dwk-test/machines/bookworm
//
// or into the directory named by the environment variable
// DWK_MACHINES_CACHE. A stamp file next to the directory records how it was
// built; the cache is rebuilt when that changes. Test processes that need
// the cache at the same time wait for one builder through a lock file next
// to it. Delete the directory and its stamp to force a rebuild.
//
// # Requirements
//
// The tests run as root (nspawn, bridges and veth links need it); Boot
// skips them otherwise. They need systemd-nspawn, debootstrap and ip, and
// the Debian mirror for the first build:
//
//	apt-get install -y systemd-container debootstrap iproute2
//
// A missing tool skips the test, or fails it under CI (see test/needtool).
// The host's init need not be systemd: machines run with --register=no and
// --keep-unit, so neither systemd-machined nor the host's service manager
// is involved.
package machines
