package url

import (
	"strings"

	whatwg "github.com/nlnwa/whatwg-url/url"
)

// parser is the WHATWG URL parser with the path percent-encode set of the
// current standard, which also encodes '^'.
var parser = whatwg.NewParser(whatwg.WithPathPercentEncodeSet(whatwg.PathPercentEncodeSet.Set('^')))

// The components of a parsed URL, in the order parse returns them to
// JavaScript.
const (
	cHref = iota
	cProtocol
	cUsername
	cPassword
	cHost
	cHostname
	cPort
	cPathname
	cSearch
	cHash
	cOrigin
	nComponents
)

// parse parses input against base (none when base is nil). ok is false
// when either is not a valid URL.
func parse(input string, base *string) (*whatwg.Url, bool) {
	var b *whatwg.Url
	if base != nil {
		var ok bool
		if b, ok = parse(*base, nil); !ok {
			return nil, false
		}
	}
	u, err := parser.BasicParser(input, b, nil, whatwg.NoState)
	if err != nil {
		return nil, false
	}
	return fixOpaquePath(u), true
}

// fixOpaquePath applies a rule newer than the parser: the space that ends
// an opaque path right before its query or fragment is written %20 (so
// removing the query or fragment later cannot leave a trailing space).
func fixOpaquePath(u *whatwg.Url) *whatwg.Url {
	if !u.OpaquePath() {
		return u
	}
	path := u.Pathname()
	if !strings.HasSuffix(path, " ") {
		return u
	}
	href := u.Href(false)
	cut := len(u.Scheme()) + 1 + len(path)
	if cut > len(href) || href[cut-len(path):cut] != path {
		return u
	}
	fixed, err := parser.Parse(href[:cut-1] + "%20" + href[cut:])
	if err != nil {
		return u
	}
	return fixed
}

// components lists u's parts in the order of the c* constants.
func components(u *whatwg.Url) [nComponents]string {
	return [nComponents]string{
		cHref:     u.Href(false),
		cProtocol: u.Protocol(),
		cUsername: u.Username(),
		cPassword: u.Password(),
		cHost:     u.Host(),
		cHostname: u.Hostname(),
		cPort:     u.Port(),
		cPathname: u.Pathname(),
		cSearch:   u.Search(),
		cHash:     u.Hash(),
		cOrigin:   origin(u),
	}
}

// origin serializes u's origin: scheme://host[:port] for the special
// schemes but file, the origin of the URL inside a blob: URL, and "null"
// (an opaque origin) for the rest.
func origin(u *whatwg.Url) string {
	switch u.Scheme() {
	case "http", "https", "ws", "wss", "ftp":
		return u.Scheme() + "://" + u.Host()
	case "blob":
		inner, ok := parse(u.Pathname(), nil)
		if ok && (inner.Scheme() == "http" || inner.Scheme() == "https") {
			return origin(inner)
		}
	}
	return "null"
}

// set applies one of URL's setters to the URL href and reports the
// result; ok is false when field is "href" and value is not a valid URL.
// Setters that the standard makes ignore their value leave the URL as it
// was.
func set(href, field, value string) (*whatwg.Url, bool) {
	if field == "href" {
		return parse(value, nil)
	}
	u, ok := parse(href, nil)
	if !ok {
		return nil, false
	}
	switch field {
	case "protocol":
		u.SetProtocol(value)
	case "username":
		u.SetUsername(value)
	case "password":
		u.SetPassword(value)
	case "host":
		u.SetHost(value)
	case "hostname":
		u.SetHostname(value)
	case "port":
		u.SetPort(value)
	case "pathname":
		u.SetPathname(value)
	case "search":
		u.SetSearch(value)
	case "hash":
		u.SetHash(value)
	default:
		return nil, false
	}
	// A setter may leave an opaque path ending in a space before a new
	// query or fragment: write it as a fresh parse would.
	return fixOpaquePath(u), true
}
