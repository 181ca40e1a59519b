package main

import (
	"context"

	"github.com/dwk/fleet/test/caddy/lbbench"
)

// benchLB compares the front door hop with hitting an app server directly
// and with a plain httputil.ReverseProxy, and measures idle WebSockets.
func benchLB(ctx context.Context, o options) (Section, error) {
	r, err := lbbench.Run(ctx, lbbench.Options{DWK: o.dwk, Duration: o.duration, Concurrency: o.concurrency})
	if err != nil {
		return Section{}, err
	}
	return Section{Title: r.Title, Command: "go run ./test/bench/dwkbench -only lb", Notes: r.Notes, Header: r.Header, Rows: r.Rows, Data: r}, nil
}
