// Package defaults holds the defaults of dwk_fleet's and
// dwk_libsql_server's attributes, each in one place. Where dwk itself has the default (dwk.json's), it comes from
// appliance/config (or appliance/libsql), so that an attribute left unset renders what a
// dwk.json without the field would run with; the rest (rollout, admin
// port, SSH) are the provider's own.
//
// The provider's schema states these values, and `go generate
// ./provider/...` writes them into modules/fleet/variables.tf (package
// modulevars), whose test fails when the committed file differs.
package defaults

import (
	"fmt"
	"net"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/libsql"
	"github.com/dwk/fleet/provider/internal/deploy"
)

// Defaults dwk.json has, from appliance/config.
var (
	// PublicPort is the port of the public listener (listen.public):
	// config.DefaultPublic's.
	PublicPort = mustPort(config.DefaultPublic)
	// InternalPort is the port of the internal listener (listen.internal):
	// config.DefaultInternal's.
	InternalPort = mustPort(config.DefaultInternal)
	// DrainTimeout is drain.timeout: config.DefaultDrainTimeout.
	DrainTimeout = Duration(config.DefaultDrainTimeout)
	// LeaseTTL is lease.ttl: config.DefaultLeaseTTL.
	LeaseTTL = Duration(config.DefaultLeaseTTL)
	// MinLeaseTTL is the shortest lease.ttl dwk accepts: config.MinLeaseTTL.
	MinLeaseTTL = config.MinLeaseTTL
	// LogLevel is log.level, as config.ApplyDefaults sets it.
	LogLevel = applied().Log.Level
	// StorageMode is storage.mode: config.ModeLocal.
	StorageMode = config.ModeLocal
	// S3Region is storage.s3.region, and the region of the provider's S3
	// connections: config.DefaultRegion.
	S3Region = config.DefaultRegion
	// LibSQLListen is dwk_libsql_server's listen: every interface, on the
	// port of dwk libsql's --http-listen-addr default.
	LibSQLListen = "0.0.0.0:" + strconv.FormatInt(mustPort(libsql.DefaultHTTPListenAddr), 10)
	// LibSQLStopTimeout is how long dwk libsql takes to shut down, which
	// stopping it waits for (plus the deployer's margin).
	LibSQLStopTimeout = libsql.ShutdownTimeout
)

// The provider's own defaults.
const (
	// AdminPort is the port of the admin listener (listen.admin), which
	// dwk.json leaves off by default but a deployed replica needs.
	AdminPort = 8789
	// Service is how replicas run.
	Service = deploy.ServiceAuto
	// MaxParallel is how many replicas a rollout takes out at once.
	MaxParallel = 1
	// MinHealthyTime is how long an updated replica must stay ready.
	MinHealthyTime = "5s"
	// ReadyTimeout is how long a started replica may take to be ready.
	ReadyTimeout = "60s"
	// AutoRevert is whether a failed rollout puts the old release back.
	AutoRevert = false
	// LibSQLName is dwk_libsql_server's name.
	LibSQLName = "libsql"
	// LibSQLAdminListen is dwk_libsql_server's admin_listen.
	LibSQLAdminListen = "0.0.0.0:8081"
	// LibSQLTokenLifetime is how long dwk_libsql_server's tokens are valid.
	LibSQLTokenLifetime = "8760h"
	// SSHPort is the port SSH hosts are reached on.
	SSHPort = 22
	// SSHUser is the user the provider logs in to SSH hosts as.
	SSHUser = "root"
	// OperationTimeout bounds each of dwk_fleet's create, update and
	// delete unless its timeouts block says otherwise.
	OperationTimeout = 30 * time.Minute
	// ObserveTimeout bounds recording what the hosts run after an
	// operation ended, also when it ended by its timeout or a cancel.
	ObserveTimeout = 30 * time.Second
)

// InstallDir is the directory a fleet's replica is installed in on its
// host: /opt/dwk/<fleet>.
func InstallDir(fleet string) string { return "/opt/dwk/" + fleet }

// Duration formats d the way the schema writes durations: "30s", "10s",
// "1m30s", "2m" (time.Duration.String without its trailing zero units).
func Duration(d time.Duration) string {
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// mustPort is the port of a default listen address. It panics on a
// malformed one: that is a bug in appliance/config, which any test of
// this package or the provider finds.
func mustPort(addr string) int64 {
	_, p, err := net.SplitHostPort(addr)
	if err != nil {
		panic(fmt.Sprintf("defaults: listen address %q: %v", addr, err))
	}
	n, err := strconv.ParseInt(p, 10, 64)
	if err != nil {
		panic(fmt.Sprintf("defaults: listen address %q: %v", addr, err))
	}
	return n
}

// applied is an empty dwk.json with dwk's defaults applied.
func applied() *config.Config {
	var c config.Config
	c.ApplyDefaults()
	return &c
}
