// Package netaddr answers questions about listen addresses that more than
// one listener's checks ask.
package netaddr

import "net"

// Loopback reports whether the host of addr (host:port) is a loopback
// address or "localhost"; an empty host, a wildcard or an interface
// address is not.
func Loopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}
