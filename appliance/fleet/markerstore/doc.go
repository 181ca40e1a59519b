// Package markerstore reads, writes and deletes the mode marker (package
// marker) in both central stores of a fleet: the coordination KV, under
// the key ("mode"), and the fleet's S3 bucket, as the object
// marker.BucketKey. The Terraform provider's dwk_mode_marker resource
// writes and deletes through it; the start-up probes and the resource's
// Read read through it, so writer and readers never disagree on where the
// marker lives.
//
// The two copies are written one after the other, the bucket first. A
// write that fails half-way leaves copies of two provisionings, which
// replicas refuse (marker.ErrMismatch) until the next write succeeds: a
// partial write can stop a fleet from starting, never mix its data.
package markerstore
