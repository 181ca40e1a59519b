package frontdoor

import (
	"encoding/json"
	"path/filepath"

	"github.com/caddyserver/caddy/v2/caddyconfig"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/caddy/dwkstorage"
)

// certStorage is Caddy's storage for automatic HTTPS: when
// cfg.SharedCertificates (the default) the fleet's coordination database (module
// caddy.storage.dwk, values sealed with the fleet secret), so that the
// replicas share one ACME account and one certificate per domain; else
// files of this replica under Options.StorageDir. nil leaves Caddy's
// default data directory. secret and token are Caddy config values
// (placeholders or escaped literals).
func certStorage(cfg *config.Config, o Options, secret, token string, warnings *[]caddyconfig.Warning) json.RawMessage {
	if cfg.SharedCertificates() {
		return caddyconfig.JSONModuleObject(dwkstorage.Storage{
			URL: escapeBraces(cfg.Storage.LibSQL.URL), AuthToken: token, CAFile: cfg.Storage.LibSQL.CAFile, Fleet: cfg.Fleet.Name, Secret: secret,
		}, "module", "dwk", warnings)
	}
	dir := o.StorageDir
	if dir == "" && cfg.Storage.DataDir != "" {
		dir = filepath.Join(cfg.Storage.DataDir, "caddy")
	}
	if dir == "" {
		return nil
	}
	return caddyconfig.JSON(map[string]string{"module": "file_system", "root": dir}, warnings)
}
