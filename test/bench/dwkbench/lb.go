package main

import (
	"context"
	"path/filepath"

	"github.com/dwk/fleet/test/benchdocs"
	"github.com/dwk/fleet/test/caddy/lbbench"
)

// LBProfile is the CPU profile of the proxied front-door side, in the
// output directory; scripts/bench.sh renders it as text next to it.
const LBProfile = "lb-front-door.pprof"

// benchLB compares the front door hop with hitting an app server directly
// and with a plain httputil.ReverseProxy, and measures idle WebSockets.
func benchLB(ctx context.Context, o options) (Section, error) {
	r, err := lbbench.Run(ctx, lbbench.Options{DWK: o.dwk, Duration: o.duration, Concurrency: o.concurrency,
		CPUProfile: filepath.Join(o.out, LBProfile)})
	if err != nil {
		return Section{}, err
	}
	return Section{Title: r.Title, Command: "scripts/bench.sh -only lb", Notes: r.Notes +
		" Where the front door's time goes on the proxied side: bench/" + LBProfile + " (CPU profile of that side's first round), as text in bench/lb-front-door-profile.txt.", Header: r.Header, Rows: r.Rows,
		Figures: socketFigures(r.Sockets), Data: r}, nil
}

// socketFigures are the memory figures of idle WebSockets, which the table
// shows only as text: per socket direct ("ws.direct.heap"), through the
// front door ("ws.front_door.heap"), the front door's own cost
// ("ws.cost.heap") and that cost for 10,000 sockets ("ws.cost_10k.heap");
// each also as ".rss".
func socketFigures(socks []lbbench.Sockets) map[string]benchdocs.Figure {
	if len(socks) != 2 {
		return nil
	}
	direct, door := socks[0], socks[1]
	heap, rss := door.HeapPerSocket-direct.HeapPerSocket, door.RSSPerSocket-direct.RSSPerSocket
	return map[string]benchdocs.Figure{
		"ws.sockets":         benchdocs.Count(float64(door.Sockets), "sockets"),
		"ws.direct.heap":     benchdocs.Bytes(float64(direct.HeapPerSocket)),
		"ws.direct.rss":      benchdocs.Bytes(float64(direct.RSSPerSocket)),
		"ws.front_door.heap": benchdocs.Bytes(float64(door.HeapPerSocket)),
		"ws.front_door.rss":  benchdocs.Bytes(float64(door.RSSPerSocket)),
		"ws.cost.heap":       benchdocs.Bytes(float64(heap)),
		"ws.cost.rss":        benchdocs.Bytes(float64(rss)),
		"ws.cost_10k.heap":   benchdocs.Bytes(float64(heap) * 10_000),
		"ws.cost_10k.rss":    benchdocs.Bytes(float64(rss) * 10_000),
	}
}
