package main

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"time"

	"github.com/dwk/fleet/test/bench/load"
)

// benchHTTP compares the counter worker (an object with SQL storage, one per
// client so clients do not queue on one object) with a bare net/http handler.
func benchHTTP(ctx context.Context, o options) (Section, error) {
	hello, stop, err := startHello()
	if err != nil {
		return Section{}, err
	}
	defer stop()
	dir, err := os.MkdirTemp("", "dwkbench-")
	if err != nil {
		return Section{}, err
	}
	defer os.RemoveAll(dir)
	d, err := startDWK(ctx, o.dwk, "serve", "--data-dir", dir, "--listen", "127.0.0.1:0")
	if err != nil {
		return Section{}, err
	}
	defer d.stop()

	client := &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: o.concurrency * 2}}
	get := func(url string) func(ctx context.Context, i int) error {
		return func(ctx context.Context, i int) error { return do(ctx, client, http.MethodGet, url) }
	}
	post := func(ctx context.Context, i int) error {
		return do(ctx, client, http.MethodPost, fmt.Sprintf("%s/counter/bench-%d/increment", d.url, i))
	}
	// Warm up both sides.
	load.Run(ctx, "warm", o.concurrency, time.Second, post)
	load.Run(ctx, "warm", o.concurrency, time.Second, get(hello+"/"))

	base := load.Run(ctx, "net/http hello", o.concurrency, o.duration, get(hello+"/"))
	read := load.Run(ctx, "counter read (GET)", o.concurrency, o.duration, get(d.url+"/counter/bench-0"))
	incr := load.Run(ctx, "counter increment (POST, SQL write)", o.concurrency, o.duration, post)
	rows := [][]string{row(base, base)}
	for _, r := range []load.Result{read, incr} {
		rows = append(rows, row(r, base))
	}
	return Section{
		Title:   "HTTP: counter worker against a bare net/http handler (local mode)",
		Command: "go run ./test/bench/dwkbench -only http",
		Notes:   fmt.Sprintf("%d concurrent keep-alive clients, %v per side, loopback. The increment is a durable SQLite write (WAL, synchronous=FULL) per request.", o.concurrency, o.duration),
		Header:  []string{"target", "req/s", "p50", "p99", "errors", "req/s ratio to hello", "p50 ratio"},
		Rows:    rows,
		Data:    []load.Result{base, read, incr},
	}, nil
}

func row(r, base load.Result) []string {
	return []string{
		r.Name,
		fmt.Sprintf("%.0f", r.RPS),
		r.P50.Round(time.Microsecond).String(),
		r.P99.Round(time.Microsecond).String(),
		fmt.Sprint(r.Errors),
		fmt.Sprintf("%.3f", r.RPS/base.RPS),
		fmt.Sprintf("%.2fx", float64(r.P50)/float64(base.P50)),
	}
}

func do(ctx context.Context, c *http.Client, method, url string) error {
	req, err := http.NewRequestWithContext(ctx, method, url, nil)
	if err != nil {
		return err
	}
	resp, err := c.Do(req)
	if err != nil {
		return err
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode >= 300 {
		return fmt.Errorf("%s %s: %s", method, url, resp.Status)
	}
	return nil
}

func startHello() (string, func(), error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", nil, err
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.WriteString(w, "hello\n")
	})}
	go srv.Serve(ln)
	return "http://" + ln.Addr().String(), func() { srv.Close() }, nil
}
