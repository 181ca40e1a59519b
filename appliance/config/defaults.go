package config

import (
	"time"
)

// Defaults of the fields whose zero value means "default".
const (
	DefaultFleetName    = "local"
	DefaultPublic       = "127.0.0.1:8787"
	DefaultInternal     = "127.0.0.1:8788"
	DefaultDataDir      = "./dwk-data"
	DefaultRegion       = "us-east-1"
	DefaultDrainTimeout = 30 * time.Second
	// DefaultForwardTimeout bounds the wait for a forwarded request's
	// response headers (forward.timeout).
	DefaultForwardTimeout = 10 * time.Second
	// DefaultLeaseTTL is the object lease TTL, and the life of a member
	// record after each heartbeat: the one home of this default (the
	// lease and membership packages, the provider and the Terraform
	// modules all derive theirs from it).
	DefaultLeaseTTL = 2 * time.Second
	// MinLeaseTTL is the shortest lease.ttl accepted: shorter leases would
	// be lost to ordinary round-trip jitter.
	MinLeaseTTL            = time.Second
	DefaultMaxBatchSize    = 10
	DefaultMaxBatchTimeout = 5 * time.Second
	DefaultMaxRetries      = 3
	DefaultVisibility      = 30 * time.Second
	DefaultMaxConcurrency  = 1
	// MaxMaxConcurrency is the largest max_concurrency accepted,
	// Cloudflare's limit.
	MaxMaxConcurrency = 250
	ModeLocal         = "local"
	ModeCentral       = "central"
)

// Default is the configuration `dwk serve` runs with no --config: local mode
// serving the reference workers.
func Default() *Config {
	c := &Config{
		Workers: []Worker{
			{
				Name:   "counter",
				Routes: []string{"/counter/"},
				Bindings: Bindings{
					Objects: map[string]string{"COUNTER": "Counter"},
				},
			},
			{
				Name:   "chat",
				Routes: []string{"/chat/", "/"},
				Bindings: Bindings{
					D1:      map[string]string{"DB": "chat"},
					R2:      map[string]string{"FILES": "chat-files"},
					Queues:  map[string]string{"NOTIFY": "chat-notify"},
					Objects: map[string]string{"ROOMS": "ChatRoom"},
				},
				Crons:     []string{"*/5 * * * *"},
				Consumers: []Consumer{{Queue: "chat-notify"}},
			},
		},
		Affinity: Affinity{Rules: []AffinityRule{
			{Namespace: "Counter", Path: "/counter/{name}/..."},
			{Namespace: "ChatRoom", Path: "/chat/rooms/{name}/..."},
		}},
	}
	c.ApplyDefaults()
	return c
}

// ApplyDefaults fills every unset field that has a default. It is
// idempotent and leaves set fields alone.
func (c *Config) ApplyDefaults() {
	if c.Fleet.Name == "" {
		c.Fleet.Name = DefaultFleetName
	}
	if c.Storage.Mode == "" {
		c.Storage.Mode = ModeLocal
	}
	if c.Listen.Public == "" {
		c.Listen.Public = DefaultPublic
	}
	if c.Storage.Mode == ModeCentral && c.Listen.Internal == "" {
		c.Listen.Internal = DefaultInternal
	}
	if c.Listen.Advertise == "" {
		c.Listen.Advertise = c.Listen.Internal
	}
	if c.Fleet.Member == "" {
		c.Fleet.Member = c.Listen.Advertise
		if c.Storage.Mode == ModeLocal {
			c.Fleet.Member = "local"
		}
	}
	if c.Storage.Mode == ModeLocal && c.Storage.DataDir == "" {
		c.Storage.DataDir = DefaultDataDir
	}
	if s := c.Storage.S3; s != nil && s.Region == "" {
		s.Region = DefaultRegion
	}
	if c.Drain.Timeout == 0 {
		c.Drain.Timeout = Duration(DefaultDrainTimeout)
	}
	if c.Lease.TTL == 0 {
		c.Lease.TTL = Duration(DefaultLeaseTTL)
	}
	if c.Forward.Timeout == 0 {
		c.Forward.Timeout = Duration(DefaultForwardTimeout)
	}
	if c.Log.Level == "" {
		c.Log.Level = "info"
	}
	if c.Log.Format == "" {
		c.Log.Format = "text"
	}
	for i := range c.Workers {
		w := &c.Workers[i]
		if len(w.Routes) == 0 && w.Name != "" {
			w.Routes = []string{"/" + w.Name + "/"}
		}
		for j := range w.Consumers {
			q := &w.Consumers[j]
			if q.MaxBatchSize == 0 {
				q.MaxBatchSize = DefaultMaxBatchSize
			}
			if q.MaxBatchTimeout == 0 {
				q.MaxBatchTimeout = Duration(DefaultMaxBatchTimeout)
			}
			if q.MaxRetries == nil {
				n := DefaultMaxRetries
				q.MaxRetries = &n
			}
			if q.VisibilityTimeout == 0 {
				q.VisibilityTimeout = Duration(DefaultVisibility)
			}
			if q.MaxConcurrency == 0 {
				q.MaxConcurrency = DefaultMaxConcurrency
			}
		}
	}
}

// SharedCertificates reports whether the front door keeps its ACME account
// and certificates in the coordination database (listen.tls.shared): in
// central mode with domains listed, unless shared is false. It is the one
// home of that default.
func (c *Config) SharedCertificates() bool {
	t := c.Listen.TLS
	if c.Storage.Mode != ModeCentral || t == nil || len(t.Domains) == 0 {
		return false
	}
	return t.Shared == nil || *t.Shared
}
