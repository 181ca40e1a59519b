package config

import (
	"fmt"
	"net"
	"net/url"
	"regexp"
	"strings"
)

// Registry tells Validate which workers and object classes the binary has.
type Registry interface {
	HasWorker(name string) bool
	HasObjectClass(class string) bool
}

var (
	fleetNameRE   = regexp.MustCompile(`^[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?$`)
	storeNameRE   = regexp.MustCompile(`^[a-z0-9][a-z0-9_-]{0,62}$`)
	bucketNameRE  = regexp.MustCompile(`^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$`)
	bindingNameRE = regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_]{0,63}$`)
)

// MinSecretLen is the shortest fleet secret accepted in central mode.
const MinSecretLen = 32

// Validate reports every problem in c, each with its JSON path. Call it after
// ApplyDefaults. reg may be nil, which skips checking worker and class names
// against the binary.
func (c *Config) Validate(reg Registry) error {
	var ps Problems
	c.validateFleet(&ps)
	c.validateListen(&ps)
	c.validateStorage(&ps)
	c.validateWorkers(reg, &ps)
	c.validateAffinity(&ps)
	if c.Drain.Timeout.D() <= 0 {
		ps.add("drain.timeout", "must be positive")
	}
	if c.Forward.Timeout.D() < 0 {
		ps.add("forward.timeout", "must be positive")
	}
	if c.Objects.IdleTimeout.D() < 0 {
		ps.add("objects.idle_timeout", "must not be negative")
	}
	if c.Objects.MaxWebSocketMessageBytes < 0 {
		ps.add("objects.max_websocket_message_bytes", "must not be negative")
	}
	if c.Lease.TTL.D() < MinLeaseTTL {
		ps.add("lease.ttl", "must be at least %s", MinLeaseTTL)
	}
	if _, err := c.Admin.Token.Resolve(); err != nil {
		ps.add("admin.token", "%v", err)
	}
	switch c.Log.Level {
	case "debug", "info", "warn", "error":
	default:
		ps.add("log.level", "must be debug, info, warn or error, not %q", c.Log.Level)
	}
	if c.Log.Format != "text" && c.Log.Format != "json" {
		ps.add("log.format", "must be text or json, not %q", c.Log.Format)
	}
	if len(ps) > 0 {
		return ps
	}
	return nil
}

func (c *Config) validateFleet(ps *Problems) {
	if !fleetNameRE.MatchString(c.Fleet.Name) {
		ps.add("fleet.name", "must be 1-63 characters of a-z, 0-9 and '-', not starting or ending with '-' (got %q)", c.Fleet.Name)
	}
	secret, err := c.Fleet.Secret.Resolve()
	if err != nil {
		ps.add("fleet.secret", "%v", err)
		return
	}
	if c.Storage.Mode == ModeCentral && len(secret) < MinSecretLen {
		ps.add("fleet.secret", "central mode needs a secret of at least %d characters shared by every replica (e.g. openssl rand -hex 32)", MinSecretLen)
	}
}

func (c *Config) validateListen(ps *Problems) {
	checkAddr(ps, "listen.public", c.Listen.Public, true)
	checkAddr(ps, "listen.admin", c.Listen.Admin, false)
	if c.Storage.Mode == ModeCentral {
		checkAddr(ps, "listen.internal", c.Listen.Internal, true)
		checkAddr(ps, "listen.advertise", c.Listen.Advertise, true)
		if host, _, err := net.SplitHostPort(c.Listen.Advertise); err == nil && (host == "" || host == "0.0.0.0" || host == "::") {
			ps.add("listen.advertise", "must be an address other replicas can dial, not %q; set listen.advertise", c.Listen.Advertise)
		}
	}
	c.validateInternalTLS(ps)
	if t := c.Listen.TLS; t != nil && c.Storage.Mode != ModeCentral {
		// Local mode's app server answers listen.public itself; the front
		// door that terminates TLS runs in central mode.
		ps.add("listen.tls", `needs storage.mode "central" (its front door obtains and serves the certificates); in local mode put a TLS-terminating proxy in front of listen.public`)
	} else if t != nil {
		if len(t.Domains) == 0 {
			ps.add("listen.tls.domains", "must list at least one domain")
		}
		for i, d := range t.Domains {
			if d == "" || strings.ContainsAny(d, "/: ") {
				ps.add(fmt.Sprintf("listen.tls.domains[%d]", i), "must be a host name, not %q", d)
			}
		}
		checkURL(ps, "listen.tls.acme_ca", t.ACMECA, false, "https")
		if t.ACMECARoot != "" {
			checkRoots(ps, "listen.tls.acme_ca_root", t.ACMECARoot)
		}
	}
}

func checkAddr(ps *Problems, path, addr string, required bool) {
	if addr == "" {
		if required {
			ps.add(path, "is required (host:port)")
		}
		return
	}
	if _, port, err := net.SplitHostPort(addr); err != nil || port == "" {
		ps.add(path, "must be host:port, not %q", addr)
	}
}

func (c *Config) validateStorage(ps *Problems) {
	s := c.Storage
	switch s.Mode {
	case ModeLocal:
		if s.DataDir == "" {
			ps.add("storage.data_dir", "is required in local mode")
		}
		if s.LibSQL != nil {
			ps.add("storage.libsql", `is only used in central mode; set storage.mode to "central" or remove it`)
		}
		if s.S3 != nil {
			ps.add("storage.s3", `is only used in central mode; set storage.mode to "central" or remove it`)
		}
		if s.ObjectCache != nil {
			ps.add("storage.object_cache", `is only used in central mode; set storage.mode to "central" or remove it`)
		}
	case ModeCentral:
		if s.ObjectCache != nil && s.ObjectCache.MaxBytes < 0 {
			ps.add("storage.object_cache.max_bytes", "must be positive, not %d", s.ObjectCache.MaxBytes)
		}
		if s.LibSQL == nil {
			ps.add("storage.libsql", "is required in central mode")
		} else {
			checkLibSQL(ps, "storage.libsql", s.LibSQL.URL, s.LibSQL.AdminURL, s.LibSQL.AuthToken, s.LibSQL.AdminToken)
			if s.LibSQL.CAFile != "" {
				checkRoots(ps, "storage.libsql.ca_file", s.LibSQL.CAFile)
			}
			for i, sh := range s.LibSQL.ObjectShards {
				checkLibSQL(ps, fmt.Sprintf("storage.libsql.object_shards[%d]", i), sh.URL, sh.AdminURL, sh.AuthToken, sh.AdminToken)
			}
		}
		if s.S3 == nil {
			ps.add("storage.s3", "is required in central mode")
		} else {
			checkS3(ps, s.S3)
		}
	default:
		ps.add("storage.mode", `must be "local" or "central", not %q`, s.Mode)
	}
}

func checkLibSQL(ps *Problems, path, u, admin string, token, adminToken *Secret) {
	checkURL(ps, path+".url", u, true, "http", "https", "ws", "wss", "libsql")
	checkURL(ps, path+".admin_url", admin, false, "http", "https")
	if _, err := token.Resolve(); err != nil {
		ps.add(path+".auth_token", "%v", err)
	}
	if _, err := adminToken.Resolve(); err != nil {
		ps.add(path+".admin_token", "%v", err)
	}
}

func checkS3(ps *Problems, s *S3) {
	checkURL(ps, "storage.s3.endpoint", s.Endpoint, false, "http", "https")
	if !bucketNameRE.MatchString(s.Bucket) {
		ps.add("storage.s3.bucket", "must be an S3 bucket name (3-63 of a-z, 0-9, '.', '-'), not %q", s.Bucket)
	}
	ak, err1 := s.AccessKey.Resolve()
	sk, err2 := s.SecretKey.Resolve()
	if err1 != nil {
		ps.add("storage.s3.access_key", "%v", err1)
	}
	if err2 != nil {
		ps.add("storage.s3.secret_key", "%v", err2)
	}
	if err1 == nil && err2 == nil && (ak == "") != (sk == "") {
		ps.add("storage.s3", "set both access_key and secret_key, or neither (to use the AWS default credential chain)")
	}
}

func checkURL(ps *Problems, path, raw string, required bool, schemes ...string) {
	if raw == "" {
		if required {
			ps.add(path, "is required")
		}
		return
	}
	u, err := url.Parse(raw)
	if err != nil || u.Host == "" {
		ps.add(path, "must be an absolute URL like %s://host:port, not %q", schemes[0], raw)
		return
	}
	for _, s := range schemes {
		if u.Scheme == s {
			return
		}
	}
	ps.add(path, "scheme must be one of %s, not %q", strings.Join(schemes, ", "), u.Scheme)
}
