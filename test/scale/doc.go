// Package scale is the scale harness behind `make scale`: many simulated
// members in one process, each a real lease manager with its own
// coordination client, hold many objects against a real `dwk libsql`,
// and BenchmarkScale records, as the objects grow, what opening them
// costs, what holding them costs at idle (coordination round trips, the
// libSQL server's CPU), and how long a failover takes.
package scale
