package probe

import (
	"context"
	"errors"
	"fmt"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/marker"
	"github.com/dwk/fleet/appliance/fleet/markerstore"
)

// notProvisioned is the refusal for stores Terraform never set up.
func (p *prober) notProvisioned(cause error) *Error {
	return fail(marker.ErrMissing, cause, "run terraform apply (dwk_mode_marker) to provision the fleet",
		"no mode marker for fleet '%s' in %s", p.cfg.Fleet, p.cfg.where())
}

// checkMarker opens the coordination store and reads the marker.
func (p *prober) checkMarker(ctx context.Context) (string, error) {
	if p.nsMissing {
		return "", p.notProvisioned(coord.ErrNoDatabase)
	}
	st, err := p.openStore(ctx)
	if err != nil {
		return "", err
	}
	m, err := markerstore.ReadCoord(ctx, st)
	switch {
	case err == nil:
	case errors.Is(err, marker.ErrMissing):
		return "", p.notProvisioned(nil)
	case errors.Is(err, marker.ErrCorrupt):
		return "", fail(marker.ErrCorrupt, err, "run terraform apply (dwk_mode_marker) to rewrite it",
			"the mode marker in %s is unreadable (%v)", p.cfg.where(), err)
	default:
		return "", p.libSQLFailed(err)
	}
	p.report.Marker = m
	detail := fmt.Sprintf("fleet '%s', mode %s, schema %d, id %s, created %s", m.Fleet, m.Mode, m.Schema, m.ID, m.Created.Format("2006-01-02T15:04:05Z07:00"))
	if m.CreatedBy != "" {
		detail += " by " + m.CreatedBy
	}
	return detail, nil
}

// openStore opens the coordination store once per Run.
func (p *prober) openStore(ctx context.Context) (*coord.Store, error) {
	if p.store != nil {
		return p.store, nil
	}
	st, err := coord.Open(ctx, p.cfg.LibSQL, coord.Options{SweepInterval: -1, Timeout: p.cfg.Timeout})
	switch {
	case err == nil:
		p.store = st
		return st, nil
	case errors.Is(err, coord.ErrNoDatabase):
		return nil, p.notProvisioned(err)
	case errors.Is(err, coord.ErrSchemaTooNew):
		return nil, fail(marker.ErrSchemaNewer, err, "upgrade dwk on this host",
			"the coordination tables in %s were laid out by a newer dwk than this one (%s)", p.cfg.where(), p.cfg.Version)
	}
	return nil, p.libSQLFailed(err)
}

// libSQLFailed is the refusal for a libSQL failure after the first check
// passed.
func (p *prober) libSQLFailed(err error) *Error {
	if errors.Is(err, coord.ErrUnavailable) {
		return fail(ErrUnreachable, err, "check that the libSQL server is running",
			"libSQL at %s stopped answering (%v)", p.cfg.LibSQLURL, err)
	}
	return fail(ErrUnexpected, err, "check the libSQL server's log",
		"libSQL at %s answered with an error (%v)", p.cfg.LibSQLURL, err)
}

// checkFleet requires the marker to name this fleet and central mode.
func (p *prober) checkFleet(context.Context) (string, error) {
	m := p.report.Marker
	switch {
	case m.Mode != marker.Mode:
		return "", fail(marker.ErrWrongMode, nil,
			"point storage at central stores provisioned with terraform apply (dwk_mode_marker); local and central data are never mixed",
			"the mode marker in %s is for mode '%s', but this replica runs central mode", p.cfg.where(), m.Mode)
	case m.Fleet != p.cfg.Fleet:
		return "", fail(marker.ErrOtherFleet, nil,
			fmt.Sprintf("point storage.libsql at fleet '%s''s stores, or set fleet.name to '%s'", p.cfg.Fleet, m.Fleet),
			"the mode marker in %s belongs to fleet '%s', not '%s'", p.cfg.where(), m.Fleet, p.cfg.Fleet)
	}
	return fmt.Sprintf("fleet '%s', central mode", m.Fleet), nil
}

// checkSchema refuses stores laid out by a newer dwk.
func (p *prober) checkSchema(context.Context) (string, error) {
	m := p.report.Marker
	if m.Schema > p.cfg.Schema {
		return "", fail(marker.ErrSchemaNewer, nil,
			fmt.Sprintf("upgrade dwk on this host to a version that understands schema %d", m.Schema),
			"the stores of fleet '%s' use schema %d, but this dwk (%s) understands schemas up to %d", m.Fleet, m.Schema, p.cfg.Version, p.cfg.Schema)
	}
	return fmt.Sprintf("stores at schema %d, this dwk understands up to %d", m.Schema, p.cfg.Schema), nil
}
