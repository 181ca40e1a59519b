package libsql

import (
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/libsql/backup"
	"github.com/dwk/fleet/appliance/process/netaddr"
)

// Config configures a Server. The zero value of a field means its default.
type Config struct {
	// HTTPListenAddr is the address of the user API (Hrana over HTTP and
	// WebSocket, /health, /version). Use port 0 for an ephemeral port.
	// Default: 127.0.0.1:8080.
	HTTPListenAddr string `json:"http_listen_addr"`

	// AdminListenAddr is the address of the admin API (namespaces). Empty
	// disables the admin API. Default: "".
	AdminListenAddr string `json:"admin_listen_addr"`

	// DBPath is the directory holding all data: dbs/<namespace>/data are
	// the SQLite files. Default: data.sqld.
	DBPath string `json:"db_path"`

	// AuthJWTKeyFile names a file with the Ed25519 public key(s) that sign
	// client JWTs: PEM "PUBLIC KEY" blocks or one raw base64url key, as
	// sqld accepts. Empty disables authentication. Default: "".
	AuthJWTKeyFile string `json:"auth_jwt_key_file"`

	// AuthJWTKey is the key data itself, in the same formats; it is used
	// when AuthJWTKeyFile is empty. Default: "".
	AuthJWTKey string `json:"auth_jwt_key"`

	// AdminAuthKey, when set, is required on admin API calls as
	// "Authorization: Basic <key>" (sqld's form; "Bearer <key>" is also
	// accepted). Default: "" (admin API unauthenticated).
	AdminAuthKey string `json:"admin_auth_key"`

	// InsecureNoAuth lets the user API listen on a non-loopback address
	// without JWT keys, and the admin API without AdminAuthKey, for a
	// trusted private network. Default: false (refused).
	InsecureNoAuth bool `json:"insecure_no_auth"`

	// TLSCertFile and TLSKeyFile, when set, serve the user and admin APIs
	// over TLS (https:// and wss:// URLs) with this certificate and key
	// (PEM). Default: "" (plain HTTP).
	TLSCertFile string `json:"tls_cert_file"`
	TLSKeyFile  string `json:"tls_key_file"`

	// DisableNamespaces sends every request to the default namespace and
	// disables namespace creation, like sqld without --enable-namespaces.
	// Default: false (namespaces enabled).
	DisableNamespaces bool `json:"disable_namespaces"`

	// Synchronous is SQLite's synchronous setting for every connection:
	// "FULL" (every commit is durable) or "NORMAL" (a power loss may drop
	// the last commits, never corrupt). Default: FULL.
	Synchronous string `json:"synchronous"`

	// MaxBodySize bounds request bodies and WebSocket messages, in bytes;
	// larger ones get 413. Default: 10 MiB.
	MaxBodySize int64 `json:"max_body_size"`

	// MaxResponseSize bounds the rows one request returns, in bytes of
	// values; beyond it the request fails with RESPONSE_TOO_LARGE.
	// Default: 10 MiB.
	MaxResponseSize int64 `json:"max_response_size"`

	// MaxStreams bounds the streams open at once over HTTP and WebSocket;
	// each holds a SQLite connection. Default: 128.
	MaxStreams int `json:"max_streams"`

	// MaxIdleConns bounds the idle SQLite connections kept for reuse,
	// across all namespaces; the least recently used are closed beyond it.
	// Each connection holds three files open (database, WAL, shared
	// memory) and its page cache, so this and MaxStreams bound the
	// server's files and memory however many namespaces it has.
	// Default: 160.
	MaxIdleConns int `json:"max_idle_conns"`

	// SpareNamespaces is how many empty namespaces the server keeps made
	// ahead of time, so that creating one (with the default config) is a
	// rename and a shared directory fsync rather than new files written
	// while the client waits. Default: 32. Negative: none.
	SpareNamespaces int `json:"spare_namespaces"`

	// StatementTimeout bounds the execution of one statement; a statement
	// running longer is interrupted. Default: 30s.
	StatementTimeout time.Duration `json:"statement_timeout"`

	// StreamIdleTimeout closes an HTTP stream (rolling back its
	// transaction) after this long without a request, like sqld.
	// Default: 10s.
	StreamIdleTimeout time.Duration `json:"stream_idle_timeout"`

	// BusyTimeout is how long a statement waits for another connection's
	// lock before failing with SQLITE_BUSY. Default: 5s.
	BusyTimeout time.Duration `json:"busy_timeout"`

	// Backup ships every namespace's commits to S3 continuously (see
	// docs/backups.md). Default: disabled (no bucket).
	Backup backup.Config `json:"backup"`

	// BackupAllowEmpty lets a server with a backup start on a data dir
	// that holds no namespace although the backup prefix holds a backup;
	// without it the server refuses, since after a lost disk the data
	// should be restored first (dwk libsql restore). Default: false.
	BackupAllowEmpty bool `json:"backup_allow_empty"`

	// Version is reported by GET /version. Default: "dev".
	Version string `json:"version"`

	// Logger receives operational logs. Default: discard.
	Logger *slog.Logger `json:"-"`

	// Now is the clock used for stream expiry and token validation.
	// Default: time.Now.
	Now func() time.Time `json:"-"`
}

// Defaults.
const (
	DefaultHTTPListenAddr    = "127.0.0.1:8080"
	DefaultDBPath            = "data.sqld"
	DefaultSynchronous       = "FULL"
	DefaultMaxBodySize       = 10 << 20
	DefaultMaxResponseSize   = 10 << 20
	DefaultMaxStreams        = 128
	DefaultMaxIdleConns      = 160
	DefaultSpareNamespaces   = 32
	DefaultStatementTimeout  = 30 * time.Second
	DefaultStreamIdleTimeout = 10 * time.Second
	DefaultBusyTimeout       = 5 * time.Second
	// ShutdownTimeout bounds dwk libsql's graceful shutdown after SIGTERM
	// (streams finish, the backup ships what it has).
	ShutdownTimeout = 30 * time.Second
)

// withDefaults returns c with every zero field set to its default.
func (c Config) withDefaults() Config {
	if c.HTTPListenAddr == "" {
		c.HTTPListenAddr = DefaultHTTPListenAddr
	}
	if c.DBPath == "" {
		c.DBPath = DefaultDBPath
	}
	if c.Synchronous == "" {
		c.Synchronous = DefaultSynchronous
	}
	c.Synchronous = strings.ToUpper(c.Synchronous)
	if c.MaxBodySize == 0 {
		c.MaxBodySize = DefaultMaxBodySize
	}
	if c.MaxResponseSize == 0 {
		c.MaxResponseSize = DefaultMaxResponseSize
	}
	if c.MaxStreams == 0 {
		c.MaxStreams = DefaultMaxStreams
	}
	if c.MaxIdleConns == 0 {
		c.MaxIdleConns = DefaultMaxIdleConns
	}
	if c.SpareNamespaces == 0 {
		c.SpareNamespaces = DefaultSpareNamespaces
	}
	if c.StatementTimeout == 0 {
		c.StatementTimeout = DefaultStatementTimeout
	}
	if c.StreamIdleTimeout == 0 {
		c.StreamIdleTimeout = DefaultStreamIdleTimeout
	}
	if c.BusyTimeout == 0 {
		c.BusyTimeout = DefaultBusyTimeout
	}
	if c.Version == "" {
		c.Version = "dev"
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	return c
}

// Validate reports every problem with c (after defaults) at once.
func (c Config) Validate() error {
	c = c.withDefaults()
	var errs []error
	if c.Synchronous != "FULL" && c.Synchronous != "NORMAL" {
		errs = append(errs, fmt.Errorf("synchronous must be FULL or NORMAL, got %q", c.Synchronous))
	}
	if c.MaxBodySize < 1024 {
		errs = append(errs, fmt.Errorf("max body size must be at least 1024 bytes, got %d", c.MaxBodySize))
	}
	if c.MaxResponseSize < 1024 {
		errs = append(errs, fmt.Errorf("max response size must be at least 1024 bytes, got %d", c.MaxResponseSize))
	}
	if c.MaxStreams < 1 {
		errs = append(errs, fmt.Errorf("max streams must be at least 1, got %d", c.MaxStreams))
	}
	if c.MaxIdleConns < 1 {
		errs = append(errs, fmt.Errorf("max idle connections must be at least 1, got %d", c.MaxIdleConns))
	}
	if c.StatementTimeout < 0 || c.StreamIdleTimeout < 0 || c.BusyTimeout < 0 {
		errs = append(errs, errors.New("timeouts must not be negative"))
	}
	if c.BusyTimeout >= c.StatementTimeout {
		errs = append(errs, fmt.Errorf("busy timeout (%s) must be shorter than the statement timeout (%s): a statement waiting for a lock cannot be interrupted", c.BusyTimeout, c.StatementTimeout))
	}
	if c.AuthJWTKeyFile != "" && c.AuthJWTKey != "" {
		errs = append(errs, errors.New("set either the JWT key file or the JWT key, not both"))
	}
	if (c.TLSCertFile == "") != (c.TLSKeyFile == "") {
		errs = append(errs, errors.New("give both the TLS certificate file and the TLS key file, or neither"))
	}
	if !c.InsecureNoAuth {
		if c.AuthJWTKeyFile == "" && c.AuthJWTKey == "" && !netaddr.Loopback(c.HTTPListenAddr) {
			errs = append(errs, fmt.Errorf("refusing to serve the user API on %s, beyond loopback, to anyone: give --auth-jwt-key-file (or --insecure-no-auth on a trusted private network)", c.HTTPListenAddr))
		}
		if c.AdminListenAddr != "" && c.AdminAuthKey == "" && !netaddr.Loopback(c.AdminListenAddr) {
			errs = append(errs, fmt.Errorf("refusing to serve the admin API on %s, beyond loopback, to anyone: give --admin-auth-key (or --insecure-no-auth on a trusted private network)", c.AdminListenAddr))
		}
	}
	if c.AdminListenAddr != "" && c.AdminListenAddr == c.HTTPListenAddr && !strings.HasSuffix(c.HTTPListenAddr, ":0") {
		errs = append(errs, fmt.Errorf("admin listen address must differ from the HTTP listen address %s", c.HTTPListenAddr))
	}
	if c.Backup.Enabled() {
		if err := c.Backup.Validate(); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
