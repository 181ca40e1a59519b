// Package config is dwk.json: the one configuration file of a dwk replica.
//
// The appliance decodes it strictly (unknown fields are errors), Validate
// reports every problem with its JSON path, and the Terraform provider renders
// it from the same structs, so the two can never disagree on the format.
// Field comments here are the reference documentation.
package config

// Config is the whole of dwk.json.
type Config struct {
	// Fleet names the fleet and holds the secret replicas share.
	Fleet Fleet `json:"fleet"`
	// Listen holds the addresses the replica serves on.
	Listen Listen `json:"listen"`
	// Storage chooses local or central mode and where data lives.
	Storage Storage `json:"storage"`
	// Workers are the applications this replica serves, matched by route.
	Workers []Worker `json:"workers,omitempty"`
	// Affinity holds the rules the front door uses to find the object a
	// request is for.
	Affinity Affinity `json:"affinity,omitempty"`
	// Drain controls graceful shutdown.
	Drain Drain `json:"drain,omitempty"`
	// Lease controls object leases (central mode).
	Lease Lease `json:"lease,omitempty"`
	// Objects tunes the object runtime.
	Objects Objects `json:"objects,omitempty"`
	// Forward bounds the hops between replicas (central mode).
	Forward Forward `json:"forward,omitempty"`
	// Admin guards the admin API.
	Admin Admin `json:"admin,omitempty"`
	// Log controls structured logging.
	Log Log `json:"log,omitempty"`

	// fileHash is Hash of the config as its file gave it, kept by
	// KeepFileHash before the Workers projects it names fill in their
	// workers.
	fileHash string
}

// Fleet identifies the fleet.
type Fleet struct {
	// Name of the fleet: 1–63 characters of a-z, 0-9 and '-'. The mode marker
	// must carry the same name. Default: "local".
	Name string `json:"name,omitempty"`
	// Member names this replica in the fleet (membership, logs, metrics,
	// the X-Dwk-Member response header). Default: listen.advertise in
	// central mode, "local" in local mode.
	Member string `json:"member,omitempty"`
	// Secret derives object ids and the key for internal calls between
	// replicas. Required in central mode (at least 32 characters); in local
	// mode a random secret is generated and kept in the data directory.
	Secret *Secret `json:"secret,omitempty"`
}

// Listen holds listen addresses, each host:port.
type Listen struct {
	// Public is the front door clients use. Default: "127.0.0.1:8787".
	Public string `json:"public,omitempty"`
	// Internal is the app server other replicas forward to. Default in
	// central mode: "127.0.0.1:8788"; unused in local mode.
	Internal string `json:"internal,omitempty"`
	// Advertise is the internal address other replicas dial, when it
	// differs from Internal (for example Internal is "0.0.0.0:8788").
	// Default: Internal.
	Advertise string `json:"advertise,omitempty"`
	// Admin serves the admin API and metrics. Default: "" (admin routes are
	// served on Public under /_dwk/).
	Admin string `json:"admin,omitempty"`
	// TLS turns on automatic HTTPS on the front door for the listed domains.
	// Central mode only: local mode has no front door.
	TLS *TLS `json:"tls,omitempty"`
	// InternalTLS turns on mutual TLS on the internal listener (and on
	// the admin listener when it is not on loopback) with certificates
	// from the fleet CA. Central mode only. Default: none (plain HTTP;
	// requests are still authenticated per request with the fleet
	// secret, and dwk serve warns when listen.internal is not loopback).
	InternalTLS *InternalTLS `json:"internal_tls,omitempty"`
}

// InternalTLS is a member's identity in the fleet, as PEM files (see
// docs/security.md and `dwk certs`).
type InternalTLS struct {
	// CAFile holds the fleet CA certificate(s) peers' certificates must
	// chain to; during a CA rotation, the old and the new CA.
	CAFile string `json:"ca_file"`
	// CertFile is this member's certificate, issued by the fleet CA with
	// the URI SAN dwk://<fleet.name>/member/<fleet.member>.
	CertFile string `json:"cert_file"`
	// KeyFile is the certificate's private key.
	KeyFile string `json:"key_file"`
}

// TLS configures automatic HTTPS.
type TLS struct {
	// Domains served with certificates obtained automatically.
	Domains []string `json:"domains"`
	// Email for the ACME account.
	Email string `json:"email,omitempty"`
	// ACMECA is the directory URL of the ACME CA certificates are obtained
	// from, an https URL (for example a private step-ca or Pebble).
	// Default: "" (Caddy's default, Let's Encrypt production).
	ACMECA string `json:"acme_ca,omitempty"`
	// ACMECARoot is a PEM file of the root certificates that acme_ca's TLS
	// certificate is checked against, for a CA the system does not trust.
	// Default: "" (the system's roots).
	ACMECARoot string `json:"acme_ca_root,omitempty"`
	// Shared keeps the ACME account and the certificates in the fleet's
	// coordination database (sealed with fleet.secret) instead of in each
	// replica's data_dir, so one replica obtains each certificate and
	// every replica serves it. Central mode only. Default: true in central
	// mode (see Config.SharedCertificates); false keeps them per replica.
	Shared *bool `json:"shared,omitempty"`
}

// Storage chooses where authoritative state lives.
type Storage struct {
	// Mode is "local" (one process, one data directory) or "central" (every
	// replica shares libSQL and S3). Default: "local".
	Mode string `json:"mode,omitempty"`
	// DataDir holds local-mode data. Default: "./dwk-data". In central mode
	// it is optional and holds no authoritative data, only a lock and a
	// central-mode marker; a directory with local-mode data is refused.
	DataDir string `json:"data_dir,omitempty"`
	// ObjectCache is where central mode keeps the local replicas of the
	// objects a replica holds (reads are served from them). Default: the
	// directory "objects" in data_dir when data_dir is set, else a
	// temporary directory removed at exit, with a 1 GiB budget.
	ObjectCache *ObjectCache `json:"object_cache,omitempty"`
	// LibSQL is the libSQL server (central mode).
	LibSQL *LibSQL `json:"libsql,omitempty"`
	// S3 is the S3-compatible object store (central mode).
	S3 *S3 `json:"s3,omitempty"`
}

// ObjectCache configures the local replicas of held objects (central
// mode). They are a cache: the object's primary database in libSQL is the
// source of truth, and a replica is rebuilt from it whenever it may be
// behind.
type ObjectCache struct {
	// Dir holds the replica files. Default: <data_dir>/objects, or a
	// temporary directory when data_dir is unset.
	Dir string `json:"dir,omitempty"`
	// MaxBytes is the budget for replicas of objects this replica no
	// longer holds; past it the least recently used are deleted. Replicas
	// of held objects are never deleted. Default: 1073741824 (1 GiB).
	MaxBytes int64 `json:"max_bytes,omitempty"`
}

// LibSQL is a libSQL server (sqld, Turso or dwk libsql).
type LibSQL struct {
	// URL of the Hrana endpoint: http(s)://, ws(s):// or libsql://.
	URL string `json:"url"`
	// AdminURL of sqld's admin API, used to create databases.
	AdminURL string `json:"admin_url,omitempty"`
	// AuthToken is the JWT sent to URL.
	AuthToken *Secret `json:"auth_token,omitempty"`
	// AdminToken is the key sent to AdminURL.
	AdminToken *Secret `json:"admin_token,omitempty"`
	// CAFile is a PEM file of the CA certificate(s) that https:// and
	// wss:// libSQL servers (URL, AdminURL and every object shard) are
	// checked against, for a server whose CA the system does not trust
	// (dwk libsql --tls-cert-file). Default: "" (the system's roots).
	CAFile string `json:"ca_file,omitempty"`
	// ObjectShards spread Durable Objects' storage over more libSQL servers
	// by rendezvous hash of the object id. Default: none (objects live on URL).
	ObjectShards []LibSQLShard `json:"object_shards,omitempty"`
}

// LibSQLShard is one extra libSQL server for object databases.
type LibSQLShard struct {
	URL        string  `json:"url"`
	AdminURL   string  `json:"admin_url,omitempty"`
	AuthToken  *Secret `json:"auth_token,omitempty"`
	AdminToken *Secret `json:"admin_token,omitempty"`
}

// S3 is an S3-compatible object store.
type S3 struct {
	// Endpoint URL; empty means AWS's regional endpoint.
	Endpoint string `json:"endpoint,omitempty"`
	// Region. Default: "us-east-1".
	Region string `json:"region,omitempty"`
	// Bucket holding every R2 bucket of the fleet (as key prefixes) and the
	// mode marker object.
	Bucket    string  `json:"bucket"`
	AccessKey *Secret `json:"access_key,omitempty"`
	SecretKey *Secret `json:"secret_key,omitempty"`
	// PathStyle addresses the bucket in the path instead of the host name
	// (needed by most self-hosted S3 servers).
	PathStyle bool `json:"path_style,omitempty"`
}

// Worker is one application: a Go worker registered in the binary under
// Name, or a Workers project in JavaScript or TypeScript (Project).
type Worker struct {
	// Name of a worker registered with worker.RegisterWorker. For a
	// Project it defaults to the wrangler file's name.
	Name string `json:"name,omitempty"`
	// Project is a Workers project this worker runs: the path of its
	// wrangler file (wrangler.toml, wrangler.json or wrangler.jsonc) or
	// of the directory holding it, relative to this file. The project's
	// name, bindings, crons and queue consumers come from the wrangler
	// file, its bindings naming the fleet's stores (see
	// docs/workers-projects.md); bindings given here replace those of the
	// same name. Default: none (a Go worker).
	Project string `json:"project,omitempty"`
	// Env is the wrangler environment of Project, as wrangler's --env
	// picks it. Default: the top level.
	Env string `json:"env,omitempty"`
	// Routes are URL path prefixes this worker serves ("/" for everything).
	// The longest matching prefix across workers wins. Default: "/<name>/".
	Routes []string `json:"routes,omitempty"`
	// Bindings are what the worker's Env holds.
	Bindings Bindings `json:"bindings,omitempty"`
	// Crons are the worker's cron schedules (5-field UTC, or 6 fields with
	// leading seconds).
	Crons []string `json:"crons,omitempty"`
	// Consumers are the queues this worker consumes.
	Consumers []Consumer `json:"consumers,omitempty"`
}

// Bindings map binding names (as the code asks for them) to stores.
type Bindings struct {
	// D1 maps binding name → database name.
	D1 map[string]string `json:"d1,omitempty"`
	// R2 maps binding name → bucket name.
	R2 map[string]string `json:"r2,omitempty"`
	// KV maps binding name → KV namespace name.
	KV map[string]string `json:"kv,omitempty"`
	// Queues maps binding name → queue name (producer side).
	Queues map[string]string `json:"queues,omitempty"`
	// Objects maps binding name → object class name.
	Objects map[string]string `json:"objects,omitempty"`
	// Vars are plain string variables.
	Vars map[string]string `json:"vars,omitempty"`
	// Secrets are string variables for credentials: each is a secret
	// reference ({"env": NAME} or {"file": PATH}; a literal string works
	// but puts the value in the file). Code reads them with
	// env.Secret(name); the value is read when the replica starts, a
	// missing variable or file is a validation problem, and the value is
	// never logged, reported in status or printed by dwk validate. On a
	// fleet, a secret of the same name put with `dwk secret put`
	// overrides it until `dwk secret delete`.
	Secrets map[string]*Secret `json:"secrets,omitempty"`
	// Services maps binding name → the name of another worker in this
	// config (Cloudflare's service bindings), which must have a Fetch
	// handler. Code calls it with env.Service(name); the call runs in
	// process, since every replica runs every worker.
	Services map[string]string `json:"services,omitempty"`
}

// Consumer subscribes a worker to a queue.
type Consumer struct {
	// Queue name.
	Queue string `json:"queue"`
	// MaxBatchSize is the most messages per batch, 1–100. Default: 10.
	MaxBatchSize int `json:"max_batch_size,omitempty"`
	// MaxBatchTimeout is how long to wait to fill a batch. Default: "5s".
	MaxBatchTimeout Duration `json:"max_batch_timeout,omitempty"`
	// MaxRetries before a message goes to the dead-letter queue, 0–100.
	// Default: 3.
	MaxRetries *int `json:"max_retries,omitempty"`
	// DeadLetterQueue receives messages that ran out of retries. Default:
	// none (they are dropped and counted).
	DeadLetterQueue string `json:"dead_letter_queue,omitempty"`
	// RetryDelay is the delay of a retry that names none. Default: "0s".
	RetryDelay Duration `json:"retry_delay,omitempty"`
	// VisibilityTimeout is how long a claimed batch stays hidden from other
	// consumers before it is redelivered. Default: "30s".
	VisibilityTimeout Duration `json:"visibility_timeout,omitempty"`
	// MaxConcurrency is how many batches of this queue one replica hands
	// to the worker at once, 1–250. Unlike Cloudflare's max_concurrency,
	// which caps invocations account-wide and autoscales when unset, it is
	// per replica (a fleet of N replicas runs up to N × max_concurrency
	// batches) and does not autoscale. Default: 1.
	MaxConcurrency int `json:"max_concurrency,omitempty"`
}

// Affinity rules tell the front door which object a request addresses.
type Affinity struct {
	Rules []AffinityRule `json:"rules,omitempty"`
}

// AffinityRule finds an object name in a request. Exactly one of Path,
// Header and Query is set.
type AffinityRule struct {
	// Namespace is the object binding's namespace (class) the name belongs to.
	Namespace string `json:"namespace"`
	// Path is a pattern like "/counter/{name}/..." whose {name} segment is
	// the object name.
	Path string `json:"path,omitempty"`
	// Header names a request header holding the object name.
	Header string `json:"header,omitempty"`
	// Query names a query parameter holding the object name.
	Query string `json:"query,omitempty"`
}

// Drain controls graceful shutdown.
type Drain struct {
	// Timeout bounds how long in-flight work (requests, cron ticks, queue
	// batches, then worker.WaitUntil tasks) may take to finish; waitUntil
	// tasks get four fifths of what is left after the requests, and are
	// cancelled and logged at that point. Default: "30s".
	Timeout Duration `json:"timeout,omitempty"`
}

// Objects tunes the object runtime (package appliance/bindings/objects,
// whose defaults apply to fields left zero).
type Objects struct {
	// IdleTimeout is how long an object with no events and no open
	// WebSockets stays in memory, and how long a worker.Hibernatable one
	// with only its WebSockets open stays awake. Default: "60s".
	IdleTimeout Duration `json:"idle_timeout,omitempty"`
	// MaxWebSocketMessageBytes caps one incoming WebSocket message; a
	// bigger one closes the socket with 1009. Default: 33554432 (32 MiB).
	MaxWebSocketMessageBytes int64 `json:"max_websocket_message_bytes,omitempty"`
}

// Lease controls object leases.
type Lease struct {
	// TTL of a lease; a dead, frozen or cut-off holder's objects move
	// after this, and a replica keeps its objects through a libSQL outage
	// about this long (TTL − TTL/5). Default: "2s"; at least "1s".
	TTL Duration `json:"ttl,omitempty"`
}

// Forward bounds the hops between replicas: the front door to an app
// server, and a replica to the holder of an object.
type Forward struct {
	// Timeout is how long a hop waits for the response headers (for a
	// WebSocket, the handshake) of the replica it forwards to. A frozen or
	// cut-off replica costs a request at most this long: the client gets
	// 504, since the request may have run there. Default: "10s".
	Timeout Duration `json:"timeout,omitempty"`
}

// Admin guards the admin API.
type Admin struct {
	// Token required as "Authorization: Bearer <token>" on admin calls.
	// Without it the admin API is disabled.
	Token *Secret `json:"token,omitempty"`
}

// Log controls logging.
type Log struct {
	// Level is "debug", "info", "warn" or "error". Default: "info".
	Level string `json:"level,omitempty"`
	// Format is "text" or "json". Default: "text".
	Format string `json:"format,omitempty"`
}
