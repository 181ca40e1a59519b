// Command lbbench runs the load-balancer benchmarks of package lbbench on
// their own and prints the table (make bench runs them as the "lb" section
// of dwkbench):
//
//	go run ./test/caddy/lbbench/cmd/lbbench -dwk bin/dwk
package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"runtime/pprof"
	"strings"
	"time"

	"github.com/dwk/fleet/test/caddy/lbbench"
)

func main() {
	var o lbbench.Options
	flag.StringVar(&o.DWK, "dwk", "bin/dwk", "dwk binary (serves the coordination KV)")
	flag.DurationVar(&o.Duration, "duration", lbbench.DefaultDuration, "load duration per side")
	flag.IntVar(&o.Concurrency, "concurrency", lbbench.DefaultConcurrency, "concurrent clients")
	flag.IntVar(&o.Sockets, "sockets", lbbench.DefaultSockets, "idle WebSockets per side")
	flag.StringVar(&o.Only, "only", "", "run only the request sides whose name contains this (and direct), no sockets")
	asJSON := flag.Bool("json", false, "print the report as JSON")
	cpuProfile := flag.String("cpuprofile", "", "write a CPU profile of the whole run to this file")
	flag.Parse()
	if *cpuProfile != "" {
		f, err := os.Create(*cpuProfile)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		defer pprof.StopCPUProfile()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	r, err := lbbench.Run(ctx, o)
	if err != nil {
		pprof.StopCPUProfile()
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	if *asJSON {
		json.NewEncoder(os.Stdout).Encode(r)
		return
	}
	fmt.Printf("%s\n\n%s\n\n| %s |\n|%s\n", r.Title, r.Notes, strings.Join(r.Header, " | "), strings.Repeat(" --- |", len(r.Header)))
	for _, row := range r.Rows {
		fmt.Printf("| %s |\n", strings.Join(row, " | "))
	}
}
