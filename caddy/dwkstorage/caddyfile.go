package dwkstorage

import (
	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// UnmarshalCaddyfile sets up the storage from Caddyfile tokens (the
// storage global option):
//
//	storage dwk {
//		url        <libsql url>
//		auth_token <token>
//		fleet      <name>
//		namespace  <coordination namespace>
//		prefix     <key prefix>
//		secret     <fleet secret>
//		timeout    <duration>
//		lock_ttl   <duration>
//		lock_wait  <duration>
//	}
func (s *Storage) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the module name
	if d.NextArg() {
		return d.ArgErr()
	}
	for d.NextBlock(0) {
		opt := d.Val()
		if !d.NextArg() {
			return d.ArgErr()
		}
		val := d.Val()
		if d.NextArg() {
			return d.ArgErr()
		}
		var dur *caddy.Duration
		switch opt {
		case "url":
			s.URL = val
		case "auth_token":
			s.AuthToken = val
		case "fleet":
			s.Fleet = val
		case "namespace":
			s.Namespace = val
		case "prefix":
			s.Prefix = val
		case "secret":
			s.Secret = val
		case "timeout":
			dur = &s.Timeout
		case "lock_ttl":
			dur = &s.LockTTL
		case "lock_wait":
			dur = &s.LockWait
		default:
			return d.Errf("unrecognized dwk storage option %q", opt)
		}
		if dur != nil {
			v, err := caddy.ParseDuration(val)
			if err != nil {
				return d.Errf("%s: %v", opt, err)
			}
			*dur = caddy.Duration(v)
		}
	}
	return nil
}
