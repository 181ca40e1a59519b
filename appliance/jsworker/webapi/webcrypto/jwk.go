package webcrypto

import (
	"encoding/base64"
	"encoding/json"
	"slices"
	"strings"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
)

// jwk is a JSON Web Key (RFC 7517) as Web Crypto imports and exports it.
// On import an absent member is the zero value (nil for Use, KeyOps and
// Ext); on export KeyOps and Ext are always set.
type jwk struct {
	KeyOps []string        `json:"key_ops"`
	Ext    *bool           `json:"ext,omitempty"`
	Kty    string          `json:"kty"`
	Use    *string         `json:"use,omitempty"`
	Alg    string          `json:"alg,omitempty"`
	Crv    string          `json:"crv,omitempty"`
	K      string          `json:"k,omitempty"`
	X      string          `json:"x,omitempty"`
	Y      string          `json:"y,omitempty"`
	N      string          `json:"n,omitempty"`
	E      string          `json:"e,omitempty"`
	D      string          `json:"d,omitempty"`
	P      string          `json:"p,omitempty"`
	Q      string          `json:"q,omitempty"`
	DP     string          `json:"dp,omitempty"`
	DQ     string          `json:"dq,omitempty"`
	QI     string          `json:"qi,omitempty"`
	Oth    json.RawMessage `json:"oth,omitempty"`
}

// parseJWK parses the JSON the prelude made of a JsonWebKey dictionary.
func parseJWK(text string) (*jwk, error) {
	var j jwk
	if err := json.Unmarshal([]byte(text), &j); err != nil {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key is not valid: %v", err)
	}
	return &j, nil
}

// marshalJWK is the JSON of j, with key_ops set to usages and ext to true
// (only extractable keys are exported).
func marshalJWK(j *jwk, usages []string) []byte {
	ext := true
	j.Ext = &ext
	j.KeyOps = usages
	if j.KeyOps == nil {
		j.KeyOps = []string{}
	}
	b, err := json.Marshal(j)
	if err != nil {
		panic(err) // only strings, a bool and a string slice: cannot fail
	}
	return b
}

// checkCommon does the checks every JWK import makes: kty, use (when
// there are usages), key_ops (no duplicates, every usage listed) and ext
// (not false for an extractable import).
func (j *jwk) checkCommon(kty, use string, in keyData) error {
	if j.Kty != kty {
		return jsrt.Errorf(dataError, "the JSON Web Key's \"kty\" must be %q, not %q", kty, j.Kty)
	}
	if len(in.usages) > 0 && j.Use != nil && *j.Use != use {
		return jsrt.Errorf(dataError, "the JSON Web Key's \"use\" must be %q, not %q", use, *j.Use)
	}
	if j.KeyOps != nil {
		seen := map[string]bool{}
		for _, op := range j.KeyOps {
			if seen[op] {
				return jsrt.Errorf(dataError, "the JSON Web Key's \"key_ops\" lists %q twice", op)
			}
			seen[op] = true
		}
		for _, u := range in.usages {
			if !seen[u] {
				return jsrt.Errorf(dataError, "the JSON Web Key's \"key_ops\" does not allow the usage %q", u)
			}
		}
	}
	if j.Ext != nil && !*j.Ext && in.extractable {
		return jsrt.Errorf(dataError, "the JSON Web Key has \"ext\": false, so it cannot be imported as extractable")
	}
	return nil
}

// checkAlg fails unless the JWK's alg is absent or one of want.
func (j *jwk) checkAlg(want ...string) error {
	if j.Alg == "" || slices.Contains(want, j.Alg) {
		return nil
	}
	return jsrt.Errorf(dataError, "the JSON Web Key's \"alg\" %q does not match the algorithm (want %s)", j.Alg, strings.Join(want, " or "))
}

// b64 decodes a base64url member of a JWK (padding tolerated).
func b64(member, s string) ([]byte, error) {
	b, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(s, "="))
	if err != nil {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key's %q is not base64url: %v", member, err)
	}
	return b, nil
}

// required decodes a base64url member that must be present.
func required(member, s string) ([]byte, error) {
	if s == "" {
		return nil, jsrt.Errorf(dataError, "the JSON Web Key has no %q", member)
	}
	return b64(member, s)
}

func enc(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
