package d1central

import (
	"database/sql/driver"
	"fmt"

	"github.com/tursodatabase/libsql-client-go/libsql"
)

// SQLConnector returns a database/sql connector, through libsql-client-go's
// driver, to the libSQL database that holds the D1 database cfg describes,
// for general SQL beside the D1 API: tools, migrations, inspection. Use it
// with sql.OpenDB. The namespace travels in the x-namespace header, as the
// DB sends it.
//
// Its requests are libsql-client-go's (see the package doc): they are not
// counted in RoundTrips, not bounded by Config.Timeout (bound them with
// contexts), not retried, and they do not create the namespace. Only URL,
// AuthToken and Namespace of cfg are used.
func SQLConnector(cfg Config) (driver.Connector, error) {
	if err := cfg.Validate(); err != nil {
		return nil, fmt.Errorf("d1central: config: %w", err)
	}
	var opts []libsql.Option
	if cfg.AuthToken != "" {
		opts = append(opts, libsql.WithAuthToken(cfg.AuthToken))
	}
	if cfg.Namespace != "" {
		opts = append(opts, libsql.WithRequestHeaders(map[string]string{"x-namespace": cfg.Namespace}))
	}
	c, err := libsql.NewConnector(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("d1central: libsql-client-go connector for %s: %w", cfg.URL, err)
	}
	return c, nil
}
