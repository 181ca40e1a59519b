package main

import (
	"context"
	"fmt"
	"time"

	"github.com/dwk/fleet/test/benchdocs"
)

// benchObjectAPI compares an object RPC call (worker.Call) with a fetch of
// the same read, on the holder and forwarded, side by side in one run; and
// measures the heap of 10,000 chat rooms with one WebSocket each, awake
// and hibernated.
func benchObjectAPI(ctx context.Context, o options) (Section, error) {
	rpc, err := runGoBench(ctx, "./appliance/bindings/objects/objcentral", []string{"BenchmarkObjectRPC"}, o.benchtime)
	if err != nil {
		return Section{}, err
	}
	hib, err := runGoBench(ctx, "./appliance/bindings/objects/objlocal", []string{"BenchmarkHibernatedRooms"}, "1x")
	if err != nil {
		return Section{}, err
	}
	s := Section{
		Title: "Objects: RPC against fetch, and hibernated rooms",
		Command: "go run ./test/bench/dwkbench -only objectapi  (or: go test -run '^$' -bench 'BenchmarkObjectRPC' ./appliance/bindings/objects/objcentral; " +
			"go test -run '^$' -bench BenchmarkHibernatedRooms -benchtime 1x ./appliance/bindings/objects/objlocal)",
		Notes: "RPC rows: the test counter's read (2 statements, no writes) in central mode, as worker.Call(\"Get\") and as stub.Fetch(GET /get), on the replica holding the object and " +
			"through one that forwards to it (one internal HTTP hop). Ratio = RPC time / fetch time. Room rows: the chat reference worker's ChatRoom class in local mode, one WebSocket per room " +
			"(in-memory pipes), objects.idle_timeout 500ms; heap in use after GC per room, the socket's server and client ends included: awake (the first 1,000 rooms, their databases open) " +
			"and once all 10,000 hibernated (object and storage out of memory, sockets open). The bare-socket row is measured first in the same process: 10,000 sockets " +
			"upgraded and read as the runtime does, with no object behind them; what a hibernated room costs beyond that is the object's share.",
		Header:  []string{"measure", "time or bytes", "compared with", "ratio"},
		Data:    rpc,
		Figures: map[string]benchdocs.Figure{},
	}
	for _, mode := range []string{"central", "central-forwarded"} {
		f, ok1 := rpc["BenchmarkObjectRPC/mode="+mode+"/kind=fetch"]
		r, ok2 := rpc["BenchmarkObjectRPC/mode="+mode+"/kind=rpc"]
		if !ok1 || !ok2 {
			return Section{}, fmt.Errorf("RPC benchmark for mode=%s missing", mode)
		}
		label := map[string]string{"central": "holder", "central-forwarded": "forwarded"}[mode]
		s.Rows = append(s.Rows,
			[]string{"fetch, " + label, fmtNs(f.NsPerOp), "", ""},
			[]string{"RPC, " + label, fmtNs(r.NsPerOp), "fetch, " + label, fmt.Sprintf("%.2fx", r.NsPerOp/f.NsPerOp)})
		s.Figures["rpc_"+label] = benchdocs.Duration(time.Duration(r.NsPerOp))
		s.Figures["fetch_"+label] = benchdocs.Duration(time.Duration(f.NsPerOp))
		s.Figures["ratio_"+label] = benchdocs.Ratio(r.NsPerOp / f.NsPerOp)
	}
	h, ok := hib["BenchmarkHibernatedRooms"]
	if !ok {
		return Section{}, fmt.Errorf("benchmark BenchmarkHibernatedRooms missing")
	}
	awake, asleep, freed := h.Extra["awake-B/room"], h.Extra["asleep-B/room"], h.Extra["freed-B/room"]
	socket, object := h.Extra["socket-B/room"], h.Extra["object-B/room"]
	if h.Extra["hibernations"] < 10_000 {
		return Section{}, fmt.Errorf("only %.0f rooms hibernated", h.Extra["hibernations"])
	}
	s.Rows = append(s.Rows,
		[]string{"heap per room, awake", benchdocs.Bytes(awake).Text, "", ""},
		[]string{"heap per room, hibernated (10,000 rooms)", benchdocs.Bytes(asleep).Text, "awake", fmt.Sprintf("%.2fx", asleep/awake)},
		[]string{"freed by hibernation, per room", benchdocs.Bytes(freed).Text, "", ""},
		[]string{"heap per bare socket, no object (10,000 sockets)", benchdocs.Bytes(socket).Text, "", ""},
		[]string{"hibernated room beyond its bare socket", signedBytes(object), "bare socket", fmt.Sprintf("%.2fx", asleep/socket)})
	s.Figures["room_awake"] = benchdocs.Bytes(awake)
	s.Figures["room_asleep"] = benchdocs.Bytes(asleep)
	s.Figures["room_freed"] = benchdocs.Bytes(freed)
	s.Figures["room_socket"] = benchdocs.Bytes(socket)
	s.Figures["room_object_ratio"] = benchdocs.Ratio(asleep / socket)
	return s, nil
}

// signedBytes formats a byte difference that noise can make negative.
func signedBytes(b float64) string {
	if b < 0 {
		return "-" + benchdocs.Bytes(-b).Text
	}
	return benchdocs.Bytes(b).Text
}
