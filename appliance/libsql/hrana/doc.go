// Package hrana holds the wire types of the Hrana protocol, the protocol
// libSQL servers (sqld, Turso, dwk libsql) speak with their clients, in its
// JSON encoding, versions 1 to 3.
//
// The types follow the specifications in the libSQL repository
// (docs/HRANA_3_SPEC.md, docs/HTTP_V2_SPEC.md) and the behaviour of sqld
// where the specification is silent:
//
//   - integers travel as decimal strings, floats as JSON numbers, blobs as
//     standard base64 without padding (padding is accepted on input);
//   - unknown object fields are ignored, unknown "type" tags are errors;
//   - every structure a server sends always carries its arrays (never null).
//
// The package has no I/O. Servers decode requests with [DecodePipelineRequest]
// or [encoding/json], check them with the Validate methods (which return
// [*ProtocolError] for malformed input) and encode responses with
// [encoding/json]. Batch conditions are evaluated with [BatchCond.Eval].
package hrana
