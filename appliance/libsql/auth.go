package libsql

import (
	"crypto/ed25519"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

// permission is what a principal may do in a namespace.
type permission int

// Permissions, in increasing order.
const (
	permNone permission = iota
	permRead
	permWrite
)

// principal is an authenticated caller.
type principal struct {
	// full grants everything (authentication disabled).
	full bool
	// scopes is sqld's "p" claim, when present: namespaces by permission.
	scopes *scopeClaims
	// legacyNS restricts a legacy token ("id" claim) to one namespace.
	legacyNS *string
	// legacyPerm is the "a" claim of a legacy token.
	legacyPerm permission
}

// fullAccess is the principal when authentication is disabled.
var fullAccess = &principal{full: true}

// access returns what p may do in namespace ns.
func (p *principal) access(ns string) permission {
	switch {
	case p.full:
		return permWrite
	case p.scopes != nil:
		return p.scopes.access(ns)
	case p.legacyNS != nil && *p.legacyNS != ns:
		return permNone
	default:
		return p.legacyPerm
	}
}

// scopeClaims is sqld's "p" claim: {"rw": {"ns": [...]}, "ro": {...}}.
type scopeClaims struct {
	RO  *scope `json:"ro"`
	RW  *scope `json:"rw"`
	ROA *scope `json:"roa"`
	RWA *scope `json:"rwa"`
}

type scope struct {
	NS []string `json:"ns"`
}

func (s *scope) has(ns string) bool { return s != nil && slices.Contains(s.NS, ns) }

func (c *scopeClaims) access(ns string) permission {
	switch {
	case c.RW.has(ns) || c.RWA.has(ns):
		return permWrite
	case c.RO.has(ns) || c.ROA.has(ns):
		return permRead
	}
	return permNone
}

// tokenClaims are the claims sqld reads from a JWT.
type tokenClaims struct {
	NS     *string      `json:"id"`
	Access *string      `json:"a"`
	Scopes *scopeClaims `json:"p"`
	jwt.RegisteredClaims
}

// Tokens must carry exp (unlike sqld, which accepts tokens that never
// expire): a leaked token stops working by itself, and rotating the JWT
// key (docs/security.md) is bounded by the longest token lifetime.

// jwtLeeway is the clock skew tolerated on exp and nbf, sqld's default.
const jwtLeeway = 60 * time.Second

// authenticator checks user credentials.
type authenticator struct {
	// keys verify tokens; none means authentication is disabled.
	keys []ed25519.PublicKey
	now  func() time.Time
}

// authError builds the 401 error sqld sends for an auth failure.
func authError(code, msg string) *hrana.Error {
	return hrana.Errorf(code, "Unauthorized: `%s`", msg)
}

// authenticateHeader authenticates an HTTP Authorization header value;
// nsKeys, when non-empty, replace the server's keys (a namespace's own
// jwt_key).
func (a *authenticator) authenticateHeader(header string, nsKeys []ed25519.PublicKey) (*principal, *hrana.Error) {
	keys := a.keys
	if len(nsKeys) > 0 {
		keys = nsKeys
	}
	if len(keys) == 0 {
		return fullAccess, nil
	}
	if header == "" {
		return nil, authError(hrana.CodeAuthHeaderNotFound, "Expected authorization header but none given")
	}
	scheme, token, ok := strings.Cut(header, " ")
	if !ok {
		return nil, authError(hrana.CodeAuthHeaderMalformed, "Auth string does not conform to '<scheme> <token>' form")
	}
	if !strings.EqualFold(scheme, "bearer") {
		return nil, authError(hrana.CodeAuthUnsupportedScheme, "The authentication scheme in the `Authorization` HTTP header is not supported")
	}
	return a.authenticateToken(strings.TrimSpace(token), keys)
}

// authenticateJWT authenticates the jwt of a WebSocket hello message.
func (a *authenticator) authenticateJWT(token *string, nsKeys []ed25519.PublicKey) (*principal, *hrana.Error) {
	if token == nil || *token == "" {
		if len(a.keys) == 0 && len(nsKeys) == 0 {
			return fullAccess, nil
		}
		return nil, authError(hrana.CodeAuthJWTMissing, "Authentication is required but no JWT was specified")
	}
	return a.authenticateHeader("Bearer "+*token, nsKeys)
}

func (a *authenticator) authenticateToken(token string, keys []ed25519.PublicKey) (*principal, *hrana.Error) {
	set := jwt.VerificationKeySet{}
	for _, k := range keys {
		set.Keys = append(set.Keys, k)
	}
	var claims tokenClaims
	_, err := jwt.ParseWithClaims(token, &claims,
		func(*jwt.Token) (any, error) { return set, nil },
		jwt.WithValidMethods([]string{"EdDSA"}),
		jwt.WithExpirationRequired(),
		jwt.WithLeeway(jwtLeeway),
		jwt.WithTimeFunc(a.now),
	)
	switch {
	case err == nil:
	case errors.Is(err, jwt.ErrTokenExpired):
		return nil, authError(hrana.CodeAuthJWTExpired, "The JWT has expired")
	case errors.Is(err, jwt.ErrTokenRequiredClaimMissing):
		return nil, authError(hrana.CodeAuthJWTInvalid, "The JWT has no exp claim: tokens that never expire are refused; issue one with an expiry")
	case errors.Is(err, jwt.ErrTokenNotValidYet):
		return nil, authError(hrana.CodeAuthJWTImmature, "The JWT is immature (not valid yet)")
	default:
		return nil, authError(hrana.CodeAuthJWTInvalid, "The JWT is invalid")
	}
	p, perr := principalFromClaims(&claims)
	if perr != nil {
		return nil, authError(hrana.CodeAuthJWTInvalid, "The JWT is invalid: "+perr.Error())
	}
	return p, nil
}

func principalFromClaims(c *tokenClaims) (*principal, error) {
	if c.Scopes != nil {
		return &principal{scopes: c.Scopes}, nil
	}
	p := &principal{legacyNS: c.NS, legacyPerm: permWrite}
	if c.Access != nil {
		switch *c.Access {
		case "rw":
			p.legacyPerm = permWrite
		case "ro", "roa":
			p.legacyPerm = permRead
		default:
			return nil, fmt.Errorf("unknown access claim a=%q", *c.Access)
		}
	}
	return p, nil
}
