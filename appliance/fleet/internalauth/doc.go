// Package internalauth authenticates calls between the replicas of a fleet
// (object forwarding, and any other internal endpoint) with a key derived
// from the fleet secret.
//
// The key is HMAC-SHA256(fleet secret, "dwk internal v1"): every replica
// of a fleet derives the same key, the secret itself never travels, and a
// leaked key does not reveal the secret (nor the object ids derived from
// it). A call carries it as
//
//	Authorization: Dwk-Internal <64 lowercase hex digits>
//
// [Key.Middleware] checks it in constant time and answers 401 with a plain
// message when it is missing or wrong; [Key.Transport] adds it to outgoing
// requests. Internal endpoints belong on the internal listener only; the
// key guards them even if that listener is reachable from outside.
package internalauth
