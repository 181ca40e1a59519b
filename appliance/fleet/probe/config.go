package probe

import (
	"fmt"
	"time"

	"github.com/dwk/fleet/appliance/fleet/markerstore"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
	"github.com/dwk/fleet/appliance/process/buildinfo"
)

// Defaults of Config.
const (
	DefaultMaxClockSkew = 2 * time.Second
	DefaultTimeout      = 10 * time.Second
)

// Config is what the probes check and with which clients. The URL and
// endpoint fields only make messages precise; the clients do the work.
type Config struct {
	// Fleet is this replica's fleet.name. Required.
	Fleet string
	// Schema is the newest central-store schema this binary understands.
	// Default: buildinfo.SchemaVersion.
	Schema int
	// Version names this binary in messages. Default: buildinfo.Version().
	Version string

	// LibSQL addresses the fleet's coordination database (its namespace
	// is namespaces.Coord(Fleet), or none on servers with one database per
	// URL). Required.
	LibSQL *hranaclient.Client
	// LibSQLURL is storage.libsql.url, for messages. Default: the words
	// "storage.libsql.url".
	LibSQLURL string
	// Admin is the client of storage.libsql.admin_url; nil when none is
	// configured, which skips the libsql-admin check.
	Admin *libsqladmin.Client
	// AdminURL is storage.libsql.admin_url, for messages. Default: the
	// words "storage.libsql.admin_url".
	AdminURL string

	// S3 reaches the fleet's bucket (r2central.NewClient). Required.
	S3 markerstore.S3API
	// Bucket is storage.s3.bucket. Required.
	Bucket string
	// S3Endpoint is storage.s3.endpoint, for messages; "" means AWS.
	S3Endpoint string

	// MaxClockSkew is how far the local clock may be from the libSQL
	// server's. Leases and TTLs are judged by the server's clock; a
	// replica whose clock is off misjudges when its own lease runs out.
	// Default: 2s.
	MaxClockSkew time.Duration
	// Timeout bounds each check. Default: 10s.
	Timeout time.Duration
	// Now is the local clock. Default: time.Now.
	Now func() time.Time
	// Diagnose runs every check whose prerequisites passed even after a
	// failure, and adds the cas check: what `dwk diagnose` wants. Default:
	// stop at the first failure, as `dwk serve` does.
	Diagnose bool
}

// withDefaults fills the zero fields and checks the required ones.
func (c Config) withDefaults() (Config, error) {
	switch {
	case c.Fleet == "":
		return c, fmt.Errorf("%w: fleet is required", ErrConfig)
	case c.LibSQL == nil:
		return c, fmt.Errorf("%w: a libSQL client is required", ErrConfig)
	case c.S3 == nil || c.Bucket == "":
		return c, fmt.Errorf("%w: an S3 client and a bucket are required", ErrConfig)
	case c.MaxClockSkew < 0 || c.Timeout < 0:
		return c, fmt.Errorf("%w: negative duration", ErrConfig)
	}
	if c.Schema == 0 {
		c.Schema = buildinfo.SchemaVersion
	}
	if c.Version == "" {
		c.Version = buildinfo.Version()
	}
	if c.MaxClockSkew == 0 {
		c.MaxClockSkew = DefaultMaxClockSkew
	}
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.LibSQLURL == "" {
		c.LibSQLURL = "storage.libsql.url"
	}
	if c.AdminURL == "" {
		c.AdminURL = "storage.libsql.admin_url"
	}
	return c, nil
}

// where names the coordination database in messages.
func (c Config) where() string {
	if ns := c.LibSQL.Namespace(); ns != "" {
		return "libSQL namespace " + ns
	}
	return "the libSQL database at " + c.LibSQLURL
}

// s3Where names the S3 service in messages.
func (c Config) s3Where() string {
	if c.S3Endpoint == "" {
		return "AWS S3"
	}
	return "S3 at " + c.S3Endpoint
}
