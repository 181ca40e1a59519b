package dwkstorage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
	"github.com/caddyserver/certmagic"

	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/caddy/internal/coordfleet"
)

func init() {
	caddy.RegisterModule(new(Storage))
}

// Defaults of the module.
const (
	DefaultTimeout = 5 * time.Second
	// cleanupTimeout bounds Cleanup.
	cleanupTimeout = 10 * time.Second
)

// Storage is the Caddy module caddy.storage.dwk. Its exported fields are
// its JSON configuration; placeholders (such as {env.DWK_FLEET_SECRET})
// are expanded in url, auth_token, fleet, namespace, prefix and secret.
type Storage struct {
	// URL of the libSQL server (Hrana over HTTP) that holds the fleet's
	// coordination database: http(s)://, ws(s):// or libsql://. Required.
	URL string `json:"url,omitempty"`
	// AuthToken is the JWT sent to URL, usually a placeholder like
	// "{env.DWK_LIBSQL_TOKEN}". Default: none.
	AuthToken string `json:"auth_token,omitempty"`
	// CAFile is a PEM CA that an https:// or wss:// URL's certificate
	// must chain to (storage.libsql.ca_file). Default: the system's roots.
	CAFile string `json:"ca_file,omitempty"`
	// Fleet is the fleet's name, which names its coordination database.
	// Required unless namespace is set.
	Fleet string `json:"fleet,omitempty"`
	// Namespace is the coordination database (sqld namespace); it must
	// exist. Default: the fleet's conventional one, "dwk-coord-<fleet>".
	Namespace string `json:"namespace,omitempty"`
	// Prefix separates Caddy storages that share one coordination
	// database: keys are ("caddy", prefix, …). Default: "default".
	Prefix string `json:"prefix,omitempty"`
	// Secret is the fleet secret (fleet.secret in dwk.json) the encryption
	// key is derived from, usually "{env.DWK_FLEET_SECRET}". Every Caddy
	// sharing the storage needs the same one. Required.
	Secret string `json:"secret,omitempty"`
	// Timeout bounds each round trip to libSQL. Default: 5s.
	Timeout caddy.Duration `json:"timeout,omitempty"`
	// LockTTL is how long a lock outlives its holder's last renewal;
	// holders renew every third of it. Default: 30s; at least 1s.
	LockTTL caddy.Duration `json:"lock_ttl,omitempty"`
	// LockWait bounds how long taking a lock that another instance holds
	// waits. Default: 0, as long as the caller (certmagic) waits.
	LockWait caddy.Duration `json:"lock_wait,omitempty"`

	conn *coordfleet.Conn
	kv   *KV
}

var (
	_ caddy.Module           = (*Storage)(nil)
	_ caddy.Provisioner      = (*Storage)(nil)
	_ caddy.Validator        = (*Storage)(nil)
	_ caddy.CleanerUpper     = (*Storage)(nil)
	_ caddy.StorageConverter = (*Storage)(nil)
	_ caddyfile.Unmarshaler  = (*Storage)(nil)
)

// CaddyModule returns the Caddy module information.
func (*Storage) CaddyModule() caddy.ModuleInfo {
	return caddy.ModuleInfo{
		ID:  "caddy.storage.dwk",
		New: func() caddy.Module { return new(Storage) },
	}
}

// Provision expands placeholders, checks the configuration and builds the
// storage. It does no I/O: the coordination database is opened on first
// use, so a libSQL server that is down delays certificates instead of
// failing the config load.
func (s *Storage) Provision(ctx caddy.Context) error {
	repl := caddy.NewReplacer()
	for _, f := range []struct {
		name string
		v    *string
	}{{"url", &s.URL}, {"auth_token", &s.AuthToken}, {"fleet", &s.Fleet}, {"namespace", &s.Namespace}, {"prefix", &s.Prefix}, {"secret", &s.Secret}} {
		v, err := repl.ReplaceOrErr(*f.v, false, true)
		if err != nil {
			return fmt.Errorf("%w: %s: %w", ErrConfig, f.name, err)
		}
		*f.v = v
	}
	if s.Timeout == 0 {
		s.Timeout = caddy.Duration(DefaultTimeout)
	}
	if err := s.Validate(); err != nil {
		return err
	}
	log := ctx.Slogger()
	conn, err := coordfleet.NewConn(hranaclient.Config{URL: s.URL, AuthToken: s.AuthToken, CAFile: s.CAFile, Namespace: s.namespace()},
		time.Duration(s.Timeout), log)
	if err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	kv, err := New(conn, Options{
		Secret: []byte(s.Secret), Prefix: s.Prefix, LockTTL: time.Duration(s.LockTTL),
		LockWait: time.Duration(s.LockWait), Logger: log,
	})
	if err != nil {
		return errors.Join(err, conn.Close(ctx))
	}
	s.conn, s.kv = conn, kv
	return nil
}

// Validate checks the configuration.
func (s *Storage) Validate() error {
	var errs []error
	if s.URL == "" {
		errs = append(errs, errors.New("url is required"))
	}
	if s.Fleet == "" && s.Namespace == "" {
		errs = append(errs, errors.New("fleet (or namespace) is required"))
	}
	if s.Secret == "" {
		errs = append(errs, errors.New("secret is required"))
	}
	if d := time.Duration(s.LockTTL); d != 0 && d < MinLockTTL {
		errs = append(errs, fmt.Errorf("lock_ttl %s is shorter than %s", d, MinLockTTL))
	}
	if s.Timeout < 0 || s.LockWait < 0 {
		errs = append(errs, errors.New("timeout and lock_wait must not be negative"))
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("%w: %w", ErrConfig, err)
	}
	return nil
}

// CertMagicStorage returns the storage Provision built; every call returns
// the same one.
func (s *Storage) CertMagicStorage() (certmagic.Storage, error) {
	if s.kv == nil {
		return nil, fmt.Errorf("%w: not provisioned", ErrConfig)
	}
	return s.kv, nil
}

// Cleanup releases held locks and closes the connection, within a bounded
// time. Caddy calls it when the config is unloaded.
func (s *Storage) Cleanup() error {
	ctx, cancel := context.WithTimeout(context.Background(), cleanupTimeout)
	defer cancel()
	var errs []error
	if s.kv != nil {
		errs = append(errs, s.kv.Close(ctx))
	}
	if s.conn != nil {
		errs = append(errs, s.conn.Close(ctx))
	}
	return errors.Join(errs...)
}

// namespace is the coordination database's namespace.
func (s *Storage) namespace() string {
	if s.Namespace != "" {
		return s.Namespace
	}
	return namespaces.Coord(s.Fleet)
}
