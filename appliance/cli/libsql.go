package cli

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/signal"
	"syscall"

	"github.com/dustin/go-humanize"

	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/appliance/process/buildinfo"
)

func init() {
	Register(Command{
		Name:  "libsql",
		Short: "run the bundled single-node libSQL server (sqld-compatible)",
		Run:   func(args []string, stdout, stderr io.Writer) int { return libsqlMain(args, stdout, stderr) },
	})
}

func libsqlMain(args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "restore" {
		return libsqlRestoreMain(args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet("dwk libsql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprint(stderr, "Usage: dwk libsql [flags]\n       dwk libsql restore --to DIR [--at TIME] [flags]\n\n"+
			"Serves Hrana (libSQL's protocol) over HTTP and WebSocket on real SQLite files,\n"+
			"with sqld's flag names, admin API and JWT auth. See docs/libsql.md.\n\nFlags:\n")
		fs.PrintDefaults()
	}
	var cfg libsql.Config
	var maxBody, maxResp string
	enableNS := true
	// Flags and environment variables keep sqld's names; flags win.
	fs.StringVar(&cfg.HTTPListenAddr, "http-listen-addr", envOr("SQLD_HTTP_LISTEN_ADDR", libsql.DefaultHTTPListenAddr), "address of the user API (Hrana over HTTP and WebSocket); port 0 picks a free port; env SQLD_HTTP_LISTEN_ADDR")
	fs.StringVar(&cfg.AdminListenAddr, "admin-listen-addr", os.Getenv("SQLD_ADMIN_LISTEN_ADDR"), "address of the admin API for namespaces (disabled when empty); env SQLD_ADMIN_LISTEN_ADDR")
	fs.StringVar(&cfg.DBPath, "db-path", envOr("SQLD_DB_PATH", libsql.DefaultDBPath), "directory holding the databases (dbs/<namespace>/data); env SQLD_DB_PATH")
	fs.StringVar(&cfg.AuthJWTKeyFile, "auth-jwt-key-file", os.Getenv("SQLD_AUTH_JWT_KEY_FILE"), "file with the Ed25519 public key(s) that sign client JWTs (PEM or base64url); no auth when unset; env SQLD_AUTH_JWT_KEY_FILE")
	fs.StringVar(&cfg.AuthJWTKey, "auth-jwt-key", os.Getenv("SQLD_AUTH_JWT_KEY"), "the Ed25519 public key itself instead of a file; env SQLD_AUTH_JWT_KEY")
	fs.StringVar(&cfg.AdminAuthKey, "admin-auth-key", os.Getenv("LIBSQL_ADMIN_AUTH_KEY"), "key required as 'Authorization: Basic <key>' on the admin API; env LIBSQL_ADMIN_AUTH_KEY")
	fs.BoolVar(&cfg.InsecureNoAuth, "insecure-no-auth", false, "allow a non-loopback listen address without --auth-jwt-key-file (user API) or --admin-auth-key (admin API), on a trusted private network")
	fs.StringVar(&cfg.TLSCertFile, "tls-cert-file", os.Getenv("SQLD_TLS_CERT_FILE"), "PEM certificate to serve both APIs over TLS (https://, wss://); env SQLD_TLS_CERT_FILE")
	fs.StringVar(&cfg.TLSKeyFile, "tls-key-file", os.Getenv("SQLD_TLS_KEY_FILE"), "PEM private key of --tls-cert-file; env SQLD_TLS_KEY_FILE")
	fs.BoolVar(&enableNS, "enable-namespaces", true, "choose the namespace from x-namespace or the Host's first label (sqld's default is false); false sends everything to 'default'")
	fs.StringVar(&cfg.Synchronous, "synchronous", libsql.DefaultSynchronous, "SQLite synchronous mode: FULL (durable commits) or NORMAL (faster; a power loss may drop the last commits)")
	fs.StringVar(&maxBody, "max-body-size", "10MiB", "largest request body or WebSocket message")
	fs.StringVar(&maxResp, "max-response-size", envOr("SQLD_MAX_RESPONSE_SIZE", "10MiB"), "largest total size of rows one request may return; env SQLD_MAX_RESPONSE_SIZE")
	fs.IntVar(&cfg.MaxStreams, "max-streams", libsql.DefaultMaxStreams, "most streams (each holding a SQLite connection) open at once; a new one waits up to a second for one to close")
	fs.IntVar(&cfg.SpareNamespaces, "spare-namespaces", libsql.DefaultSpareNamespaces, "empty namespaces kept made ahead of time, so that creating one (an object's database) is a rename; negative: none")
	fs.IntVar(&cfg.MaxIdleConns, "max-idle-connections", libsql.DefaultMaxIdleConns, "idle SQLite connections kept across all namespaces, each holding 3 files open; the least recently used are closed beyond it")
	fs.DurationVar(&cfg.StatementTimeout, "statement-timeout", libsql.DefaultStatementTimeout, "a statement running longer is interrupted")
	fs.DurationVar(&cfg.StreamIdleTimeout, "stream-idle-timeout", libsql.DefaultStreamIdleTimeout, "an HTTP stream idle this long is closed and its transaction rolled back")
	fs.DurationVar(&cfg.BusyTimeout, "busy-timeout", libsql.DefaultBusyTimeout, "how long a statement waits for another connection's lock")
	finishBackup := backupFlags(fs, &cfg.Backup)
	fs.BoolVar(&cfg.BackupAllowEmpty, "backup-allow-empty", false, "start with a backup on a data dir without namespaces although the backup prefix holds a backup (normally: restore first)")
	configFile := fs.String("config", "", "JSON file of flags by name, e.g. {\"http-listen-addr\": \"0.0.0.0:8080\", \"backup-lag\": \"1s\"}, plus \""+libsqlConfigSecretKey+"\"; flags on the command line win")
	check := fs.Bool("check", false, "check the configuration and the files it names, then exit")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "dwk libsql: unexpected arguments %q\n", fs.Args())
		return 2
	}
	var fileSecret string
	if *configFile != "" {
		var err error
		if fileSecret, err = applyLibSQLConfigFile(fs, *configFile); err != nil {
			fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
			return 2
		}
	}
	cfg.DisableNamespaces = !enableNS
	if err := finishBackup(fileSecret); err != nil {
		fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
		return 2
	}
	for _, sz := range []struct {
		flag, value string
		dst         *int64
	}{{"max-body-size", maxBody, &cfg.MaxBodySize}, {"max-response-size", maxResp, &cfg.MaxResponseSize}} {
		n, err := humanize.ParseBytes(sz.value)
		if err != nil {
			fmt.Fprintf(stderr, "dwk libsql: --%s: %v\n", sz.flag, err)
			return 2
		}
		*sz.dst = int64(n)
	}
	if *check {
		if err := checkLibSQLConfig(cfg); err != nil {
			fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
			return 1
		}
		fmt.Fprintln(stdout, "dwk libsql: configuration OK")
		return 0
	}
	cfg.Version = buildinfo.Version()
	var logs slog.Handler = slog.NewTextHandler(stderr, nil)
	if j := toJournal(stderr, slog.LevelInfo, nil, logs); j != nil {
		logs = j
	}
	cfg.Logger = slog.New(logs)

	srv := libsql.New(cfg)
	if err := srv.Open(); err != nil {
		fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
		return 1
	}
	scheme := "http"
	if srv.TLS() {
		scheme = "https"
	}
	fmt.Fprintf(stdout, "dwk libsql: serving Hrana on %s://%s (db path %s)\n", scheme, srv.Addr(), cfg.DBPath)
	if a := srv.AdminAddr(); a != nil {
		fmt.Fprintf(stdout, "dwk libsql: admin API on %s://%s\n", scheme, a)
	}
	if cfg.Backup.Enabled() {
		b := cfg.Backup.WithDefaults()
		fmt.Fprintf(stdout, "dwk libsql: backing up to s3://%s/%s within %s\n", b.Bucket, b.Prefix, b.Lag)
	}

	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(sigs)
	served := make(chan error, 1)
	go func() { served <- srv.Serve() }()

	code := 0
	select {
	case sig := <-sigs:
		cfg.Logger.Info("dwk libsql: shutting down", "signal", sig.String())
	case err := <-served:
		fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
		code = 1
	}
	ctx, cancel := context.WithTimeout(context.Background(), libsql.ShutdownTimeout)
	defer cancel()
	if err := srv.Close(ctx); err != nil {
		fmt.Fprintf(stderr, "dwk libsql: shutdown: %v\n", err)
		code = 1
	}
	if code == 0 {
		if err := <-served; err != nil {
			fmt.Fprintf(stderr, "dwk libsql: %v\n", err)
			code = 1
		}
	}
	fmt.Fprintln(stdout, "dwk libsql: stopped")
	return code
}

// envOr returns the environment variable name, or def when it is unset.
func envOr(name, def string) string {
	if v, ok := os.LookupEnv(name); ok {
		return v
	}
	return def
}
