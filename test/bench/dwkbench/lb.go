package main

import (
	"context"
	"path/filepath"

	"github.com/dwk/fleet/test/benchdocs"
	"github.com/dwk/fleet/test/caddy/lbbench"
)

// CPU profiles of the lb section, in the output directory, of the first
// round of the proxied front-door side (LBProfile) and of the in-process
// side (LBSelfProfile); scripts/bench.sh renders each as text next to it.
const (
	LBProfile     = "lb-front-door.pprof"
	LBSelfProfile = "lb-own-replica.pprof"
)

// benchLB compares the front door hop with hitting an app server directly
// and with a plain httputil.ReverseProxy, and measures idle WebSockets.
func benchLB(ctx context.Context, o options) (Section, error) {
	r, err := lbbench.Run(ctx, lbbench.Options{DWK: o.dwk, Duration: o.duration, Concurrency: o.concurrency,
		CPUProfile: filepath.Join(o.out, LBProfile), SelfCPUProfile: filepath.Join(o.out, LBSelfProfile)})
	if err != nil {
		return Section{}, err
	}
	return Section{Title: r.Title, Command: "scripts/bench.sh -only lb", Notes: r.Notes +
		" Where the front door's time goes on the proxied side: bench/" + LBProfile + " (CPU profile of that side's first round), as text in bench/lb-front-door-profile.txt;" +
		" on the in-process side: bench/" + LBSelfProfile + ", as text in bench/lb-own-replica-profile.txt.", Header: r.Header, Rows: r.Rows,
		Figures: socketFigures(r.Sockets), Data: r}, nil
}

// socketFigures are the memory figures of idle WebSockets, which the table
// shows only as text: per socket direct ("ws.direct.heap"), through the
// front door to another member ("ws.front_door.heap"), the front door's
// own cost ("ws.cost.heap") and that cost for 10,000 sockets
// ("ws.cost_10k.heap"); through the front door to its own member
// ("ws.own.heap") and the front door's cost of those ("ws.own_cost.heap");
// each also as ".rss".
func socketFigures(socks []lbbench.Sockets) map[string]benchdocs.Figure {
	figs := map[string]benchdocs.Figure{}
	for _, s := range socks {
		prefix := map[string]string{
			lbbench.SocketsDirect:    "ws.direct",
			lbbench.SocketsFrontDoor: "ws.front_door",
			lbbench.SocketsSelf:      "ws.own",
		}[s.Name]
		if prefix == "" {
			continue
		}
		figs[prefix+".heap"] = benchdocs.Bytes(float64(s.HeapPerSocket))
		figs[prefix+".rss"] = benchdocs.Bytes(float64(s.RSSPerSocket))
		figs["ws.sockets"] = benchdocs.Count(float64(s.Sockets), "sockets")
	}
	if heap, rss, ok := lbbench.SocketCost(socks, lbbench.SocketsFrontDoor); ok {
		figs["ws.cost.heap"] = benchdocs.Bytes(float64(heap))
		figs["ws.cost.rss"] = benchdocs.Bytes(float64(rss))
		figs["ws.cost_10k.heap"] = benchdocs.Bytes(float64(heap) * 10_000)
		figs["ws.cost_10k.rss"] = benchdocs.Bytes(float64(rss) * 10_000)
	}
	if heap, rss, ok := lbbench.SocketCost(socks, lbbench.SocketsSelf); ok {
		figs["ws.own_cost.heap"] = benchdocs.Bytes(float64(heap))
		figs["ws.own_cost.rss"] = benchdocs.Bytes(float64(rss))
	}
	if len(figs) == 0 {
		return nil
	}
	return figs
}
