package probe

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"

	"github.com/dwk/fleet/appliance/libsql/hrana"
	"github.com/dwk/fleet/appliance/libsql/hranaclient"
	"github.com/dwk/fleet/appliance/libsql/libsqladmin"
)

// checkLibSQL sends one statement to the coordination database: the
// server must answer and accept the auth token. A missing namespace is an
// answer; the marker check reports it.
func (p *prober) checkLibSQL(ctx context.Context) (string, error) {
	url := p.cfg.LibSQLURL
	start := p.cfg.Now()
	_, err := p.cfg.LibSQL.Execute(ctx, hrana.NewStmt(`SELECT 1`))
	took := p.cfg.Now().Sub(start)
	var he *hranaclient.Error
	switch {
	case err == nil:
	case hranaclient.IsCode(err, hrana.CodeNamespaceNotFound):
		p.nsMissing = true
	case errors.Is(err, hranaclient.ErrUnavailable):
		return "", fail(ErrUnreachable, err, "check storage.libsql.url and that the libSQL server is running",
			"libSQL at %s is unreachable (%v)", url, err)
	case errors.As(err, &he) && isAuthError(he):
		return "", fail(ErrUnauthorized, err, "set storage.libsql.auth_token to a token this server accepts",
			"libSQL at %s rejected storage.libsql.auth_token (%s)", url, he.Message)
	default:
		return "", fail(ErrUnexpected, err, "check that storage.libsql.url points at a libSQL server (sqld, Turso or dwk libsql)",
			"libSQL at %s answered with an error (%v)", url, err)
	}
	p.report.LibSQLLatency = took
	detail := fmt.Sprintf("%s answered in %s", url, ms(took))
	if p.nsMissing {
		detail += fmt.Sprintf("; namespace %s does not exist", p.cfg.LibSQL.Namespace())
	}
	return detail, nil
}

// isAuthError recognises a refused token: HTTP 401/403 or an AUTH_ code.
func isAuthError(e *hranaclient.Error) bool {
	return e.Status == http.StatusUnauthorized || e.Status == http.StatusForbidden ||
		strings.HasPrefix(e.Code, "AUTH_") || e.Code == hrana.CodeForbidden
}

// checkAdmin asks the admin API about the coordination namespace, which
// needs the admin token.
func (p *prober) checkAdmin(ctx context.Context) (string, error) {
	if p.cfg.Admin == nil {
		return "no storage.libsql.admin_url configured", errSkip
	}
	url := p.cfg.AdminURL
	ns := p.cfg.LibSQL.Namespace()
	if ns == "" {
		ns = "default"
	}
	start := p.cfg.Now()
	exists, err := p.cfg.Admin.Exists(ctx, ns)
	took := p.cfg.Now().Sub(start)
	switch {
	case err == nil:
	case errors.Is(err, libsqladmin.ErrUnauthorized):
		return "", fail(ErrUnauthorized, err, "set storage.libsql.admin_token to the server's admin key (sqld --admin-auth-key)",
			"libSQL admin API at %s rejected storage.libsql.admin_token", url)
	case errors.Is(err, libsqladmin.ErrUnavailable) || !isAdminError(err):
		return "", fail(ErrUnreachable, err, "check storage.libsql.admin_url and that the libSQL server is running",
			"libSQL admin API at %s is unreachable (%v)", url, err)
	default:
		return "", fail(ErrUnexpected, err, "check that storage.libsql.admin_url points at the server's admin API (sqld --admin-listen-addr)",
			"libSQL admin API at %s answered with an error (%v)", url, err)
	}
	state := "exists"
	if !exists {
		state = "does not exist"
	}
	return fmt.Sprintf("%s accepted the admin token in %s; namespace %s %s", url, ms(took), ns, state), nil
}

// isAdminError reports whether the admin API answered (an *Error), as
// opposed to not being reached at all.
func isAdminError(err error) bool {
	var ae *libsqladmin.Error
	return errors.As(err, &ae)
}
