//go:build !linux

package dwkdirect

import "errors"

// poller is Linux only (epoll); elsewhere tunnels keep a goroutine per
// direction.
type poller struct{}

func sharedPoller() (*poller, error) { return nil, errors.ErrUnsupported }

func (*poller) arm(*side) error { return errors.ErrUnsupported }

func (*poller) forget(*side) {}
