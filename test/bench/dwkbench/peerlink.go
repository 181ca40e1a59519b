package main

import (
	"context"
	"fmt"
)

// benchPeerLink compares one internal request (what the front door or a
// forwarding replica sends a member) over plain HTTP with no
// authentication, with the per-request MAC alone, and with mutual TLS
// and the MAC, over a pooled connection and over a new connection (which
// pays the TLS handshake).
func benchPeerLink(ctx context.Context, o options) (Section, error) {
	res, err := runGoBench(ctx, "./appliance/fleet/peerlink", []string{"BenchmarkForward"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title:   "Peer link: one forwarded request, mTLS + MAC against plaintext",
		Command: "go run ./test/bench/dwkbench -only peerlink",
		Notes: "In process over loopback: a POST with a 256-byte body and a 2-byte answer, client and server in one process (both sides' CPU counted). " +
			"plaintext = plain HTTP, no authentication (the baseline); MAC = plain HTTP with the per-request MAC (HMAC-SHA256 over the request line, timestamp and nonce; " +
			"the body's MAC in a trailer, so the body goes chunked; the nonce remembered for the replay window); mTLS + MAC = the default with listen.internal_tls (TLS 1.3, ECDSA P-256 member certificates). " +
			"pooled = a kept-alive connection; new = a connection per request, so the TLS row includes a full handshake with client certificate verification. " +
			"Ratio = time / plaintext time on the same kind of connection.",
		Header: []string{"connection", "plaintext time/op", "MAC time/op", "MAC/plaintext", "mTLS + MAC time/op", "mTLS + MAC/plaintext", "mTLS + MAC allocs/op"},
		Data:   res,
	}
	for _, conn := range []string{"pooled", "new"} {
		get := func(link string) (benchResult, error) {
			r, ok := res["BenchmarkForward/link="+link+"/conn="+conn]
			if !ok {
				return r, fmt.Errorf("peer link benchmark link=%s conn=%s missing", link, conn)
			}
			return r, nil
		}
		p, err := get("plaintext")
		if err != nil {
			return Section{}, err
		}
		m, err := get("mac")
		if err != nil {
			return Section{}, err
		}
		t, err := get("mtls+mac")
		if err != nil {
			return Section{}, err
		}
		s.Rows = append(s.Rows, []string{conn, fmtNs(p.NsPerOp), fmtNs(m.NsPerOp), fmt.Sprintf("%.1fx", m.NsPerOp/p.NsPerOp),
			fmtNs(t.NsPerOp), fmt.Sprintf("%.1fx", t.NsPerOp/p.NsPerOp), fmt.Sprintf("%.0f", t.Extra["allocs/op"])})
	}
	return s, nil
}
