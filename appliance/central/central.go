package central

import (
	"context"
	"errors"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/dwk/fleet/appliance/bindings/objects/objcentral"
	"github.com/dwk/fleet/appliance/bindings/r2/r2central"
	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/fleet/namespaces"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
)

// Clients are the clients of one fleet's central stores and the resolved
// secrets that go with them. They hold no goroutines; Close releases
// their idle connections.
type Clients struct {
	// Fleet is fleet.name.
	Fleet string
	// Secret is fleet.secret, resolved ("" when unset).
	Secret string
	// AuthToken is storage.libsql.auth_token, resolved: the JWT for
	// every database on storage.libsql.url (D1 databases open clients of
	// their own with it).
	AuthToken string

	// Coord addresses the fleet's coordination database:
	// namespaces.Coord(Fleet) on storage.libsql.url.
	Coord *hranaclient.Client
	// Admin is the client of storage.libsql.admin_url; nil when it is
	// unset (the databases must then exist already).
	Admin *libsqladmin.Client
	// ObjectShards are the libSQL servers object databases live on:
	// storage.libsql first, then every storage.libsql.object_shards
	// entry, each named by its URL. Their clients are not Coord, so
	// object traffic is counted apart from coordination traffic.
	ObjectShards []objcentral.Shard
	// S3 reaches the fleet's bucket; nil when storage.s3 is unset.
	S3 *s3.Client
	// S3Config is storage.s3 with its credentials resolved: the config
	// of S3, which r2central.New takes with a KeyPrefix for each R2
	// bucket.
	S3Config r2central.Config

	libsqlURL, adminURL string
}

// Options are the optional parts of Dial.
type Options struct {
	// OnCoordRoundTrip is called for every HTTP request Coord (and the
	// clients derived from it with WithNamespace) sends; it must be fast
	// and safe for concurrent use. Default: none.
	OnCoordRoundTrip func()
}

// Dial builds the clients of cfg's central stores. cfg should be
// defaulted and validated; storage.libsql is required, storage.s3 is
// optional (without it S3 is nil). Every secret that does not resolve is
// reported with its JSON path, in a config.Problems; a client that cannot
// be built is reported with the path of its section. Dial does no network
// I/O, except that S3 without static credentials loads the AWS default
// credential chain.
func Dial(ctx context.Context, cfg *config.Config, o Options) (*Clients, error) {
	ls := cfg.Storage.LibSQL
	if ls == nil {
		return nil, errors.New("storage.libsql: is required in central mode")
	}
	sec, err := resolveSecrets(cfg)
	if err != nil {
		return nil, err
	}
	c := &Clients{
		Fleet: cfg.Fleet.Name, Secret: sec.fleet, AuthToken: sec.authToken,
		libsqlURL: ls.URL, adminURL: ls.AdminURL,
	}
	if c.Coord, err = hranaclient.New(hranaclient.Config{
		URL: ls.URL, AuthToken: sec.authToken, CAFile: ls.CAFile, Namespace: namespaces.Coord(c.Fleet), OnRoundTrip: o.OnCoordRoundTrip,
	}); err != nil {
		return nil, fmt.Errorf("storage.libsql.url: %w", err)
	}
	if c.Admin, err = newAdmin(ls.AdminURL, sec.adminToken, ls.CAFile); err != nil {
		return nil, fmt.Errorf("storage.libsql.admin_url: %w", err)
	}
	main, err := newShard(ls.URL, ls.AdminURL, sec.authToken, sec.adminToken, ls.CAFile)
	if err != nil {
		return nil, fmt.Errorf("storage.libsql: %w", err)
	}
	c.ObjectShards = append(c.ObjectShards, main)
	for i, sh := range ls.ObjectShards {
		s, err := newShard(sh.URL, sh.AdminURL, sec.shards[i].authToken, sec.shards[i].adminToken, ls.CAFile)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", shardPath(i), err)
		}
		c.ObjectShards = append(c.ObjectShards, s)
	}
	if s := cfg.Storage.S3; s != nil {
		c.S3Config = r2central.Config{
			Endpoint: s.Endpoint, Region: s.Region, Bucket: s.Bucket,
			AccessKey: sec.accessKey, SecretKey: sec.secretKey, PathStyle: s.PathStyle,
		}
		if c.S3, err = r2central.NewClient(ctx, c.S3Config); err != nil {
			return nil, fmt.Errorf("storage.s3: %w", err)
		}
	}
	return c, nil
}

// newAdmin returns the client of an admin API, or nil for no URL.
func newAdmin(url, key, caFile string) (*libsqladmin.Client, error) {
	if url == "" {
		return nil, nil
	}
	return libsqladmin.New(libsqladmin.Config{URL: url, AdminKey: key, CAFile: caFile})
}

// newShard returns the clients of one object shard.
func newShard(url, adminURL, token, adminKey, caFile string) (objcentral.Shard, error) {
	c, err := hranaclient.New(hranaclient.Config{URL: url, AuthToken: token, CAFile: caFile})
	if err != nil {
		return objcentral.Shard{}, fmt.Errorf("url: %w", err)
	}
	admin, err := newAdmin(adminURL, adminKey, caFile)
	if err != nil {
		return objcentral.Shard{}, fmt.Errorf("admin_url: %w", err)
	}
	return objcentral.Shard{Name: url, Client: c, Admin: admin}, nil
}

// shardPath is the JSON path of object shard i.
func shardPath(i int) string { return fmt.Sprintf("storage.libsql.object_shards[%d]", i) }

// Close closes the idle connections of the libSQL clients. The S3
// client's connections belong to the AWS SDK, which closes them when
// they have been idle for 90 seconds. The clients stay usable: a call
// after Close opens a new connection.
func (c *Clients) Close() {
	c.Coord.CloseIdleConnections()
	if c.Admin != nil {
		c.Admin.CloseIdleConnections()
	}
	for _, sh := range c.ObjectShards {
		sh.Client.CloseIdleConnections()
		if sh.Admin != nil {
			sh.Admin.CloseIdleConnections()
		}
	}
}
