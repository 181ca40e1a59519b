package d1central

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"time"
)

// Defaults for the zero values of Config.
const (
	// DefaultTimeout bounds each request to the libSQL server, retries
	// included. It matches the statement timeout of dwk libsql and sqld.
	DefaultTimeout = 30 * time.Second
	// DefaultRetries is how often a read-only request is retried after
	// the server was unavailable.
	DefaultRetries = 2
	// DefaultRetryBackoff is the wait before the first such retry; it
	// doubles for each further one.
	DefaultRetryBackoff = 50 * time.Millisecond
)

// Config says where a D1 database lives and how to reach it. Only URL is
// required; Open fills the defaults.
type Config struct {
	// URL is the libSQL server's Hrana endpoint: http://host:port,
	// https://host or libsql://host (taken as https).
	URL string
	// AuthToken is the JWT sent as "Authorization: Bearer". Default: none.
	AuthToken string
	// CAFile is the PEM CA an https:// server's certificate must chain
	// to (hranaclient.TrustCA). Default: "" (the system's roots).
	CAFile string
	// Namespace is the libSQL database (sqld namespace) that holds the D1
	// database, sent in the x-namespace header; see NamespaceFor. Default:
	// "" (the server's default database, or the one the URL names).
	Namespace string
	// CreateNamespace, when set, is called before the first request to
	// create Namespace if it does not exist yet, e.g. the Create method of
	// a *libsqladmin.Client. It must be idempotent (succeed when the
	// namespace exists). A failure fails the call; the next call tries
	// again. Default: nil (the namespace must exist).
	CreateNamespace func(ctx context.Context, namespace string) error
	// Timeout bounds each request to the server, retries included: the
	// one request of a Batch, each request of an Exec. Default:
	// DefaultTimeout.
	Timeout time.Duration
	// Retries is how often a read-only request is retried after the
	// server was unavailable (requests that never left the process are
	// retried by the Hrana client whatever they hold). Negative disables
	// it. Default: DefaultRetries.
	Retries int
	// RetryBackoff is the wait before the first such retry, doubled for
	// each further one. Default: DefaultRetryBackoff.
	RetryBackoff time.Duration
	// HTTPClient sends the requests; share one between the DBs of a
	// process to share connections. Default: a client of the DB's own,
	// with 64 idle connections per host, whose idle connections Close
	// closes.
	HTTPClient *http.Client
	// OnRoundTrip, when set, is called once for every HTTP request sent to
	// the server (the hook behind dwk_d1_round_trips_total). It must be
	// fast and safe for concurrent use. Default: nil.
	OnRoundTrip func()
}

// withDefaults returns c with its zero fields set to the defaults.
func (c Config) withDefaults() Config {
	if c.Timeout == 0 {
		c.Timeout = DefaultTimeout
	}
	switch {
	case c.Retries == 0:
		c.Retries = DefaultRetries
	case c.Retries < 0:
		c.Retries = 0
	}
	if c.RetryBackoff == 0 {
		c.RetryBackoff = DefaultRetryBackoff
	}
	return c
}

// Validate reports every problem with c.
func (c Config) Validate() error {
	var errs []error
	if c.URL == "" {
		errs = append(errs, errors.New("url: required"))
	} else if u, err := url.Parse(c.URL); err != nil {
		errs = append(errs, fmt.Errorf("url: %w", err))
	} else if (u.Scheme != "http" && u.Scheme != "https" && u.Scheme != "libsql") || u.Host == "" {
		errs = append(errs, fmt.Errorf("url: %q must be http(s)://host[:port] or libsql://host", c.URL))
	} else if u.RawQuery != "" {
		errs = append(errs, fmt.Errorf("url: %q: no query allowed (pass the token as AuthToken)", c.URL))
	}
	if c.Namespace != "" {
		if err := validateNamespace(c.Namespace); err != nil {
			errs = append(errs, fmt.Errorf("namespace: %w", err))
		}
	}
	if c.Timeout < 0 {
		errs = append(errs, fmt.Errorf("timeout: %v is negative", c.Timeout))
	}
	if c.RetryBackoff < 0 {
		errs = append(errs, fmt.Errorf("retry backoff: %v is negative", c.RetryBackoff))
	}
	return errors.Join(errs...)
}

// maxNamespaceLen is the longest namespace name dwk libsql accepts (one
// DNS label, so that Host-based addressing works too).
const maxNamespaceLen = 63

// NamespaceFor returns the libSQL namespace holding the D1 database called
// database: prefix + "d1-" + database. The prefix separates fleets or
// environments sharing one server (e.g. "prod-"). The result must be a
// valid namespace name for dwk libsql and Turso: 1 to 63 characters from
// a-z, 0-9, '-' and '_', not starting with '-'. A name that is not is an
// error rather than silently rewritten, since two rewritten names could
// meet in one database.
func NamespaceFor(prefix, database string) (string, error) {
	if database == "" {
		return "", errors.New("d1central: empty D1 database name")
	}
	ns := prefix + "d1-" + database
	if err := validateNamespace(ns); err != nil {
		return "", fmt.Errorf("d1central: D1 database %q: %w", database, err)
	}
	return ns, nil
}

// validateNamespace applies dwk libsql's rules for namespace names.
func validateNamespace(ns string) error {
	if len(ns) > maxNamespaceLen {
		return fmt.Errorf("namespace %q is longer than %d characters", ns, maxNamespaceLen)
	}
	if ns[0] == '-' {
		return fmt.Errorf("namespace %q starts with '-'", ns)
	}
	for i := 0; i < len(ns); i++ {
		if c := ns[i]; !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("namespace %q contains %q; allowed are a-z, 0-9, '-' and '_'", ns, rune(c))
		}
	}
	return nil
}
