// Package objlocal is the local-mode storage of the object runtime: one
// SQLite file per object at <data_dir>/objects/<namespace>/<id>.sqlite
// (Store) and the alarm index <data_dir>/alarms.sqlite (AlarmIndex).
//
// Local mode runs one process per data directory (guarded by the server's
// lockfile), so there are no leases: the lease given to Store.Open is
// ignored and writes carry no epoch guard.
package objlocal
