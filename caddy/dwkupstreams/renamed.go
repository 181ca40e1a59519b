package dwkupstreams

import (
	"encoding/json"
	"fmt"

	"github.com/caddyserver/caddy/v2"
)

// renamed maps each option that was renamed to its new name. Strict
// decoding would reject an old name as unknown; these errors say what to
// write instead.
var renamed = map[string]string{
	// It is the lifetime of the lease-holder cache, not a lease TTL.
	"lease_ttl": "lease_cache_ttl",
}

// renamedOption returns an error naming the replacement of opt if opt was
// renamed, else nil.
func renamedOption(opt string) error {
	if now, ok := renamed[opt]; ok {
		return fmt.Errorf("%w: option %s was renamed %s", errConfig, opt, now)
	}
	return nil
}

// UnmarshalJSON decodes the JSON config strictly, as Caddy decodes
// modules, and names the new name of a renamed option.
func (u *Upstreams) UnmarshalJSON(b []byte) error {
	var opts map[string]json.RawMessage
	if err := json.Unmarshal(b, &opts); err != nil {
		return err
	}
	for opt := range opts {
		if err := renamedOption(opt); err != nil {
			return err
		}
	}
	type fields Upstreams // the same fields, without this method
	return caddy.StrictUnmarshalJSON(b, (*fields)(u))
}
