package lbbench

import (
	"fmt"
	"time"
)

// report lays the results out as a table, ratios against the direct side.
func report(o Options, lat []Latency, socks []Sockets) *Report {
	r := &Report{
		Title: "Load balancer: direct vs the embedded front door vs httputil.ReverseProxy",
		Notes: fmt.Sprintf("%d keep-alive clients, %v per side and round, %d rounds with the sides taking turns (each side's row is its round with the median CPU per request), loopback, GET of one object per client "+
			"(the front door routes by affinity over %d app servers registered in a dwk libsql coordination KV; "+
			"it is the first one's, and hands that one's requests to its handler in process). "+
			"The proxied rows use objects placed on other members; the in-process row objects placed on the front door's own. "+
			"CPU is the whole process's (clients, proxy and app servers) per request: a proxy's share is the "+
			"difference from the direct row, and the last line compares the front door's share with httputil's. "+
			"Memory per idle WebSocket: %d sockets per side, each to a room on another member (so proxied: a spliced tunnel), "+
			"and on the last side each to a room on the front door's own member (handed to its app in process); "+
			"heap in use plus goroutine stacks and RSS, after a GC; the front door's own cost is the difference from the direct row "+
			"(each side's sockets are closed and let go before the next side opens its own).",
			o.Concurrency, o.Duration, Rounds, o.Members, o.Sockets),
		Header:  []string{"target", "req/s", "p50", "p99", "CPU/request", "errors", "p50 vs direct", "CPU vs direct"},
		Latency: lat,
		Sockets: socks,
	}
	base := lat[0]
	for _, l := range lat {
		r.Rows = append(r.Rows, []string{
			l.Name, fmt.Sprintf("%.0f", l.RPS), l.P50.Round(time.Microsecond).String(), l.P99.Round(time.Microsecond).String(),
			l.CPUPerRequest.Round(100 * time.Nanosecond).String(), fmt.Sprint(l.Errors),
			fmt.Sprintf("%.2fx", float64(l.P50)/float64(base.P50)),
			fmt.Sprintf("%.2fx", float64(l.CPUPerRequest)/float64(base.CPUPerRequest)),
		})
	}
	if share, ok := ProxyShare(lat); ok {
		r.Rows = append(r.Rows, []string{
			"front door proxy CPU vs httputil's (each minus direct)", "", "", "", "", "", "", fmt.Sprintf("%.2fx", share),
		})
	}
	for _, s := range socks {
		r.Rows = append(r.Rows, []string{
			fmt.Sprintf("%s (%d)", s.Name, s.Sockets), "", "", "", "", "",
			fmt.Sprintf("heap %s/socket", size(s.HeapPerSocket)), fmt.Sprintf("RSS %s/socket", size(s.RSSPerSocket)),
		})
	}
	costs := []struct{ side, row string }{
		{SocketsFrontDoor, "front door cost per idle WebSocket"},
		{SocketsSelf, "front door cost per idle WebSocket to its own replica"},
	}
	for _, c := range costs {
		heap, rss, ok := SocketCost(socks, c.side)
		if ok {
			r.Rows = append(r.Rows, []string{c.row, "", "", "", "", "", fmt.Sprintf("heap %s", size(heap)), fmt.Sprintf("RSS %s", size(rss))})
		}
	}
	return r
}

func size(n int64) string {
	if n >= 1024 || n <= -1024 {
		return fmt.Sprintf("%.1f KiB", float64(n)/1024)
	}
	return fmt.Sprintf("%d B", n)
}

// ProxyShare is the front door's CPU per proxied request minus direct,
// over httputil.ReverseProxy's minus direct; ok is false when a side is
// missing or httputil costs no more than direct.
func ProxyShare(lat []Latency) (float64, bool) {
	cpu := map[string]time.Duration{}
	for _, l := range lat {
		cpu[l.Name] = l.CPUPerRequest
	}
	direct, ok1 := cpu[SideDirect]
	door, ok2 := cpu[SideFrontDoor]
	hu, ok3 := cpu[SideHTTPUtil]
	if !ok1 || !ok2 || !ok3 || hu <= direct {
		return 0, false
	}
	return float64(door-direct) / float64(hu-direct), true
}

// SocketCost is the memory per idle WebSocket of the named side minus the
// direct side's (heap plus stacks, and RSS); ok is false when either side
// is missing.
func SocketCost(socks []Sockets, side string) (heap, rss int64, ok bool) {
	var direct, s *Sockets
	for i := range socks {
		switch socks[i].Name {
		case SocketsDirect:
			direct = &socks[i]
		case side:
			s = &socks[i]
		}
	}
	if direct == nil || s == nil {
		return 0, 0, false
	}
	return s.HeapPerSocket - direct.HeapPerSocket, s.RSSPerSocket - direct.RSSPerSocket, true
}
