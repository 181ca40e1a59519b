package dwkaffinity

import (
	"github.com/caddyserver/caddy/v2/caddyconfig/caddyfile"
)

// UnmarshalCaddyfile sets up the policy from Caddyfile tokens:
//
//	lb_policy dwk {
//		secret <fleet secret>
//		path   <pattern with {name}> <namespace>
//		header <field>               <namespace>
//		query  <parameter>           <namespace>
//	}
//
// path, header and query may repeat; rules apply in the order given.
func (p *Policy) UnmarshalCaddyfile(d *caddyfile.Dispenser) error {
	d.Next() // the policy name
	if d.NextArg() {
		return d.ArgErr()
	}
	for d.NextBlock(0) {
		switch opt := d.Val(); opt {
		case "secret":
			if !d.NextArg() {
				return d.ArgErr()
			}
			p.Secret = d.Val()
			if d.NextArg() {
				return d.ArgErr()
			}
		case "path", "header", "query":
			args := d.RemainingArgs()
			if len(args) != 2 {
				return d.Errf("%s takes two arguments: the %s and the object namespace", opt, opt)
			}
			r := Rule{Namespace: args[1]}
			switch opt {
			case "path":
				r.Path = args[0]
			case "header":
				r.Header = args[0]
			default:
				r.Query = args[0]
			}
			if err := r.Validate(); err != nil {
				return d.Err(err.Error())
			}
			p.Rules = append(p.Rules, r)
		default:
			return d.Errf("unrecognized dwk selection policy option %q", opt)
		}
	}
	return nil
}
