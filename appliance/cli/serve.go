package cli

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os/signal"
	"syscall"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
	"github.com/dwk/fleet/appliance/server"
	"github.com/dwk/fleet/appliance/server/tail"
)

func runServe(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	path := fs.String("config", "", "path to dwk.json, or to a Workers project's wrangler.toml, wrangler.json or wrangler.jsonc (default: the wrangler file in this directory, else local mode with the reference workers)")
	dataDir := fs.String("data-dir", "", "local-mode data directory (overrides storage.data_dir)")
	listen := fs.String("listen", "", "public listen address host:port (overrides listen.public)")
	env := fs.String("env", "", "the wrangler environment of a Workers project (wrangler's --env)")
	watch := fs.Bool("watch", false, "rebuild a Workers project and swap it in when its sources change")
	fs.Usage = func() {
		fmt.Fprintln(stderr, "Usage: dwk serve [--config dwk.json|wrangler.toml] [--env NAME] [--watch] [--data-dir DIR] [--listen HOST:PORT]")
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *path == "" {
		if found, err := wrangler.Find("."); err == nil {
			*path = found
			fmt.Fprintf(stdout, "dwk serve: using %s\n", found)
		}
	}
	// Until the config says how to log, log as its default does.
	log := newLogger(config.Log{}, stderr, nil)
	slog.SetDefault(log)
	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGTERM, syscall.SIGINT)
	defer stop()
	c, projects, err := loadConfigWith(ctx, *path, loadOptions{env: *env, start: true, log: log, buildLog: stderr})
	if err != nil {
		fmt.Fprintln(stderr, "dwk serve:", err)
		return 1
	}
	if *dataDir != "" {
		c.Storage.DataDir = *dataDir
	}
	if *listen != "" {
		c.Listen.Public = *listen
	}
	log = newLogger(c.Log, stderr, journalFields(c.Fleet.Member))
	// Components that default to slog.Default log through this logger too
	// (the embedded Caddy redirects the standard log package at init).
	slog.SetDefault(log)
	if *watch {
		if len(projects) == 0 {
			fmt.Fprintln(stderr, "dwk serve: --watch needs a Workers project (a wrangler file)")
			return 2
		}
		for _, p := range projects {
			go watchProject(ctx, p, log)
		}
	}
	srv := server.New(c, server.Options{Logger: log, OnReady: func(r server.Ready) {
		// Tests and scripts wait for these lines to learn the bound addresses.
		if r.Admin != nil {
			scheme := "http"
			if r.AdminTLS {
				scheme = "https"
			}
			fmt.Fprintf(stdout, "dwk serve: admin on %s://%s\n", scheme, r.Admin)
		}
		fmt.Fprintf(stdout, "dwk serve: ready on http://%s\n", r.Public)
	}})
	if err := srv.Run(ctx); err != nil {
		log.Error("dwk serve failed", "err", err)
		fmt.Fprintln(stderr, "dwk serve:", err)
		return 1
	}
	return 0
}

// newLogger logs as c says to w; when w is the journal stream systemd
// connected and c asks for no JSON, it logs to the journal with fields
// (MEMBER from fields, WORKER, LEVEL; package journal) instead.
func newLogger(c config.Log, w io.Writer, fields map[string]string) *slog.Logger {
	var level slog.Level
	level.UnmarshalText([]byte(c.Level))
	opts := &slog.HandlerOptions{Level: level}
	var h slog.Handler = slog.NewTextHandler(w, opts)
	if c.Format == "json" {
		h = slog.NewJSONHandler(w, opts)
	} else if j := toJournal(w, level, fields, h); j != nil {
		h = j
	}
	// Records logged under a tailed request join its event (dwk tail).
	return slog.New(tail.NewHandler(h))
}
