// Package r2 holds the semantics that every R2 bucket backend in dwk shares,
// so that the local backend (r2local) and the S3 one answer alike: key
// validation, entity tags, conditional requests (RFC 9110 §13) and byte
// ranges (RFC 9110 §14).
//
// The package has no state and does no I/O. The binding's contract is
// worker.R2Bucket; the conformance suite that pins the semantics down is
// r2test.Run.
package r2
