package cli

import (
	"bytes"
	"crypto/tls"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"sort"
	"strconv"

	"github.com/dwk/fleet/appliance/libsql"
)

// libsqlConfigSecretKey is the one key of a dwk libsql config file that
// is not a flag: the backup's S3 secret key, which is never a flag value
// (flags show in ps) but may sit in a 0600 file.
const libsqlConfigSecretKey = "backup-s3-secret-key"

// applyLibSQLConfigFile sets the flags a dwk libsql config file names —
// a JSON object of flag names (without the dashes) to values, as they
// would be written on the command line — except those the command line
// set, which win. It returns the file's backup-s3-secret-key. Unknown
// keys are an error naming them: the file is checked as strictly as the
// command line.
func applyLibSQLConfigFile(fs *flag.FlagSet, file string) (secret string, err error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return "", fmt.Errorf("--config: %w", err)
	}
	var m map[string]any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		return "", fmt.Errorf("--config %s: want a JSON object of flag names to values: %w", file, err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		v, err := flagValue(m[k])
		if err != nil {
			return "", fmt.Errorf("--config %s: %q: %w", file, k, err)
		}
		switch {
		case k == libsqlConfigSecretKey:
			secret = v
		case k == "config" || k == "check" || fs.Lookup(k) == nil:
			return "", fmt.Errorf("--config %s: %q is not a dwk libsql flag (see dwk libsql -h)", file, k)
		case set[k]:
		default:
			if err := fs.Set(k, v); err != nil {
				return "", fmt.Errorf("--config %s: %q: %w", file, k, err)
			}
		}
	}
	return secret, nil
}

// flagValue is a JSON value as a flag's text.
func flagValue(v any) (string, error) {
	switch v := v.(type) {
	case string:
		return v, nil
	case bool:
		return strconv.FormatBool(v), nil
	case json.Number:
		return v.String(), nil
	}
	return "", fmt.Errorf("want a string, a number or a boolean, got %T", v)
}

// checkLibSQLConfig is --check: the configuration is valid and the files
// it names (the JWT keys, the TLS pair) can be read and parsed.
func checkLibSQLConfig(cfg libsql.Config) error {
	if err := cfg.Validate(); err != nil {
		return err
	}
	if cfg.AuthJWTKeyFile != "" {
		b, err := os.ReadFile(cfg.AuthJWTKeyFile)
		if err != nil {
			return fmt.Errorf("JWT key file: %w", err)
		}
		if _, err := libsql.ParseJWTKeys(string(b)); err != nil {
			return fmt.Errorf("JWT key file %s: %w", cfg.AuthJWTKeyFile, err)
		}
	}
	if cfg.TLSCertFile != "" {
		if _, err := tls.LoadX509KeyPair(cfg.TLSCertFile, cfg.TLSKeyFile); err != nil {
			return fmt.Errorf("TLS certificate: %w", err)
		}
	}
	return nil
}
