package central

import (
	"github.com/dwk/fleet/appliance/fleet/probe"
	"github.com/dwk/fleet/appliance/process/buildinfo"
)

// Probe is the start-up probes' configuration for these clients, as dwk
// serve runs them; dwk diagnose sets Diagnose and MaxClockSkew on it.
// Without S3 its S3 is nil, which probe.Run refuses.
func (c *Clients) Probe() probe.Config {
	pc := probe.Config{
		Fleet: c.Fleet, Version: buildinfo.Version(),
		LibSQL: c.Coord, LibSQLURL: c.libsqlURL, Admin: c.Admin, AdminURL: c.adminURL,
		Bucket: c.S3Config.Bucket, S3Endpoint: c.S3Config.Endpoint,
	}
	if c.S3 != nil {
		pc.S3 = c.S3 // a nil *s3.Client would be a non-nil interface
	}
	return pc
}
