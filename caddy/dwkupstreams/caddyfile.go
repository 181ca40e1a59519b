package dwkupstreams

import (
	"github.com/caddyserver/caddy/v2"
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// UnmarshalCaddyfile sets up the source from Caddyfile tokens:
//
//	dynamic dwk {
//		url             <libsql url>
//		auth_token      <token>
//		fleet           <name>
//		namespace       <coordination namespace>
//		address         internal|public
//		refresh         <duration>
//		timeout         <duration>
//		lease_cache_ttl <duration>
//		lease_timeout   <duration>
//	}
func (u *Upstreams) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the source name
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
			u.URL = val
		case "auth_token":
			u.AuthToken = val
		case "fleet":
			u.Fleet = val
		case "namespace":
			u.Namespace = val
		case "address":
			u.Address = val
		case "refresh":
			dur = &u.Refresh
		case "timeout":
			dur = &u.Timeout
		case "lease_cache_ttl":
			dur = &u.LeaseCacheTTL
		case "lease_timeout":
			dur = &u.LeaseTimeout
		default:
			if err := renamedOption(opt); err != nil {
				return d.Err(err.Error())
			}
			return d.Errf("unrecognized dwk upstreams option %q", opt)
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
