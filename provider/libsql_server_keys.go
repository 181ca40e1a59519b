package provider

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/provider/internal/defaults"
)

// serverTokens are what a dwk_libsql_server key pair leaves in the
// state: its public half and the tokens its private half signed. The
// private half is dropped once they are signed.
type serverTokens struct {
	PublicKeyPEM   string
	Full, ReadOnly string
	Expires        time.Time
}

// newServerTokens generates an Ed25519 key pair and signs a full-access
// and a read-only token (sqld's "a" claim) valid for lifetime from now.
func newServerTokens(now time.Time, lifetime time.Duration) (serverTokens, error) {
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		return serverTokens{}, fmt.Errorf("generate the JWT key pair: %w", err)
	}
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		return serverTokens{}, fmt.Errorf("encode the JWT public key: %w", err)
	}
	t := serverTokens{
		PublicKeyPEM: string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der})),
		Expires:      now.Add(lifetime).Truncate(time.Second).UTC(),
	}
	sign := func(access string) (string, error) {
		claims := jwt.MapClaims{"iat": now.Unix(), "exp": t.Expires.Unix(), "a": access}
		return jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims).SignedString(priv)
	}
	if t.Full, err = sign("rw"); err != nil {
		return t, fmt.Errorf("sign the token: %w", err)
	}
	if t.ReadOnly, err = sign("ro"); err != nil {
		return t, fmt.Errorf("sign the read-only token: %w", err)
	}
	return t, nil
}

// rotateKeys reports whether a plan makes a new key pair and new tokens:
// on create, when jwt_key_version changes, when token_lifetime changes (so
// a shorter lifetime takes effect at once), and when the tokens are in
// the last quarter of their lifetime.
func rotateKeys(state, plan *libsqlServerModel, now time.Time) bool {
	if state == nil || plan.JWTKeyVersion.IsUnknown() || plan.TokenLifetime.IsUnknown() {
		return true
	}
	if !state.JWTKeyVersion.IsNull() && state.JWTKeyVersion.ValueString() != plan.JWTKeyVersion.ValueString() {
		return true
	}
	lifetime, _ := time.ParseDuration(orDefault(plan.TokenLifetime, defaults.LibSQLTokenLifetime))
	if was, err := time.ParseDuration(orDefault(state.TokenLifetime, defaults.LibSQLTokenLifetime)); err == nil && was != lifetime {
		return true
	}
	return renewDue(state.TokensExpire.ValueString(), lifetime, now)
}

// renewDue reports whether tokens that expire at expires (RFC 3339) are
// in the last quarter of their lifetime at now. Tokens of unknown expiry
// (none, as after an import) are not renewed by time.
func renewDue(expires string, lifetime time.Duration, now time.Time) bool {
	t, err := time.Parse(time.RFC3339, expires)
	if err != nil {
		return false
	}
	return !now.Before(t.Add(-lifetime / 4))
}

// serverID is dwk_libsql_server's id and import id:
// ssh://USER@ADDRESS:PORT/INSTALL_DIR, with host_key and name as query
// parameters when importing.
type serverID struct {
	User, Address string
	Port          int
	InstallDir    string
	HostKey, Name string
}

// String is the id (without the import parameters).
func (s *serverID) String() string {
	u := url.URL{Scheme: "ssh", User: url.User(s.User), Host: net.JoinHostPort(s.Address, strconv.Itoa(s.Port)), Path: s.InstallDir}
	return u.String()
}

// parseServerID parses an import id.
func parseServerID(id string) (serverID, error) {
	const form = "ssh://USER@ADDRESS:PORT/INSTALL_DIR?host_key=KEY[&name=NAME]"
	u, err := url.Parse(id)
	if err != nil || u.Scheme != "ssh" || u.User == nil || u.Port() == "" || len(u.Path) < 2 {
		return serverID{}, fmt.Errorf("import id %q is not %s", id, form)
	}
	port, err := strconv.Atoi(u.Port())
	if err != nil || port < 1 || port > 65535 {
		return serverID{}, fmt.Errorf("import id %q: port %q is not 1-65535", id, u.Port())
	}
	q := u.Query()
	for k := range q {
		if k != "host_key" && k != "name" {
			return serverID{}, fmt.Errorf("import id %q: unknown parameter %q (want host_key and name)", id, k)
		}
	}
	s := serverID{User: u.User.Username(), Address: u.Hostname(), Port: port, InstallDir: u.Path, HostKey: q.Get("host_key"), Name: q.Get("name")}
	if s.HostKey == "" {
		return s, fmt.Errorf("import id %q has no host_key: the host's public SSH key, URL-encoded (urlencode(...)); want %s", id, form)
	}
	return s, nil
}
