// Package fleet holds the multi-process tests of a central-mode fleet: real
// `dwk serve` replicas over a real `dwk libsql` and versitygw, with faults
// injected by signals.
package fleet
