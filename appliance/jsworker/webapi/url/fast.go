package url

import "strings"

// fastComponents splits a URL that the WHATWG parser would return as it
// is — an http or https URL in canonical form: lower-case scheme and host,
// no user info, no default port, a path without dot segments, and only
// characters none of the percent-encode sets touch — without running the
// parser. A request's URL, which apps parse on every request, is almost
// always such a URL. ok is false for anything else; the caller then
// parses it the long way.
func fastComponents(s string) (c [nComponents]string, ok bool) {
	var scheme string
	switch {
	case strings.HasPrefix(s, "https://"):
		scheme = "https"
	case strings.HasPrefix(s, "http://"):
		scheme = "http"
	default:
		return c, false
	}
	rest := s[len(scheme)+3:]
	end := strings.IndexAny(rest, "/?#")
	if end < 0 {
		return c, false // no path: the parser adds "/"
	}
	authority := rest[:end]
	host, port := authority, ""
	if i := strings.IndexByte(authority, ':'); i >= 0 {
		host, port = authority[:i], authority[i+1:]
		if !digits(port) || port[0] == '0' || scheme == "http" && port == "80" || scheme == "https" && port == "443" {
			return c, false
		}
	}
	if !simpleHost(host) {
		return c, false
	}
	tail := rest[end:]
	if tail[0] != '/' {
		return c, false
	}
	path, search, hash := tail, "", ""
	if i := strings.IndexByte(path, '#'); i >= 0 {
		path, hash = path[:i], path[i:]
	}
	if i := strings.IndexByte(path, '?'); i >= 0 {
		path, search = path[:i], path[i:]
	}
	if !simplePath(path) || !simpleTail(search) || !simpleTail(hash) || search == "?" || hash == "#" {
		return c, false
	}
	c[cHref] = s
	c[cProtocol] = scheme + ":"
	c[cHost] = authority
	c[cHostname] = host
	c[cPort] = port
	c[cPathname] = path
	c[cSearch] = search
	c[cHash] = hash
	c[cOrigin] = scheme + "://" + authority
	return c, true
}

// digits reports whether s is a port number: 1 to 5 digits, at most
// 65535.
func digits(s string) bool {
	if s == "" || len(s) > 5 {
		return false
	}
	n := 0
	for k := 0; k < len(s); k++ {
		if s[k] < '0' || s[k] > '9' {
			return false
		}
		n = n*10 + int(s[k]-'0')
	}
	return n <= 65535
}

// simpleHost: lower-case letters, digits, '-' and '.', not empty, no
// label that IDNA would look at (xn--), no number-like last label (IPv4
// forms the parser rewrites).
func simpleHost(h string) bool {
	if h == "" || strings.Contains(h, "xn--") || strings.HasPrefix(h, ".") {
		return false
	}
	for k := 0; k < len(h); k++ {
		b := h[k]
		if !('a' <= b && b <= 'z' || '0' <= b && b <= '9' || b == '-' || b == '.') {
			return false
		}
	}
	last := h[strings.LastIndexByte(h, '.')+1:]
	return last != "" && !('0' <= last[0] && last[0] <= '9')
}

// pathByte is what a canonical path holds as it is: the unreserved and
// sub-delimiter characters, ':', '@', '/' and '%'.
func pathByte(b byte) bool {
	return 'a' <= b && b <= 'z' || 'A' <= b && b <= 'Z' || '0' <= b && b <= '9' || strings.IndexByte("-._~!$&'()*+,;=:@/%", b) >= 0
}

// simplePath: canonical bytes and no dot segment.
func simplePath(p string) bool {
	for k := 0; k < len(p); k++ {
		if !pathByte(p[k]) {
			return false
		}
	}
	for _, seg := range []string{"/./", "/../"} {
		if strings.Contains(p+"/", seg) {
			return false
		}
	}
	return !strings.Contains(p, "%2e") && !strings.Contains(p, "%2E")
}

// simpleTail: a query or fragment of canonical path bytes and '?'.
func simpleTail(t string) bool {
	for k := 1; k < len(t); k++ {
		if b := t[k]; !pathByte(b) && b != '?' {
			return false
		}
	}
	return true
}
