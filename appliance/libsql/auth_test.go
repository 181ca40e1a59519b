package libsql

import (
	"crypto/ed25519"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/pem"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"

	"github.com/dwk/fleet/appliance/libsql/hrana"
)

func newKey(t testing.TB) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

func pemKey(t testing.TB, pub ed25519.PublicKey) string {
	der, err := x509.MarshalPKIXPublicKey(pub)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}))
}

// sign signs claims, with an exp an hour from now unless claims has one.
func sign(t testing.TB, priv ed25519.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	c := jwt.MapClaims{"exp": time.Now().Add(time.Hour).Unix()}
	for k, v := range claims {
		c[k] = v
	}
	return signExactly(t, priv, c)
}

// signExactly signs claims as they are.
func signExactly(t testing.TB, priv ed25519.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims).SignedString(priv)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestParseJWTKeys(t *testing.T) {
	pub1, _ := newKey(t)
	pub2, _ := newKey(t)
	_, priv := newKey(t)
	privDER, _ := x509.MarshalPKCS8PrivateKey(priv)
	tests := []struct {
		name, data string
		keys       int
		err        string
	}{
		{"pem", pemKey(t, pub1), 1, ""},
		{"two pems", pemKey(t, pub1) + pemKey(t, pub2), 2, ""},
		{"base64url", base64.RawURLEncoding.EncodeToString(pub1), 1, ""},
		{"base64 padded std", "  " + base64.StdEncoding.EncodeToString(pub1) + "\n", 1, ""},
		{"private key", string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: privDER})), 0, "private key"},
		{"short", base64.RawURLEncoding.EncodeToString([]byte("short")), 0, "got 5 bytes"},
		{"garbage", "not a key", 0, "neither PEM nor base64url"},
		{"empty", "", 0, "empty"},
	}
	for _, tt := range tests {
		keys, err := ParseJWTKeys(tt.data)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: err %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || len(keys) != tt.keys {
			t.Errorf("%s: %d keys, %v; want %d", tt.name, len(keys), err, tt.keys)
		}
	}
}

func TestAuthenticate(t *testing.T) {
	clock := newFakeClock()
	pub, priv := newKey(t)
	otherPub, otherPriv := newKey(t)
	a := authenticator{keys: []ed25519.PublicKey{pub}, now: clock.Now}
	now := clock.Now()
	hour := now.Add(time.Hour).Unix()
	hs, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": hour}).SignedString([]byte("k"))
	// HS256 keyed with the server's public key: the classic confusion.
	hsPub, _ := jwt.NewWithClaims(jwt.SigningMethodHS256, jwt.MapClaims{"exp": hour}).SignedString([]byte(pub))
	none, _ := jwt.NewWithClaims(jwt.SigningMethodNone, jwt.MapClaims{"exp": hour}).SignedString(jwt.UnsafeAllowNoneSignatureType)

	tests := []struct {
		name   string
		header string
		nsKeys []ed25519.PublicKey
		code   string
		perm   map[string]permission
	}{
		{"rw", "Bearer " + sign(t, priv, jwt.MapClaims{"a": "rw"}), nil, "", map[string]permission{"default": permWrite}},
		{"no claims is full access", "bearer " + sign(t, priv, jwt.MapClaims{}), nil, "", map[string]permission{"x": permWrite}},
		{"ro", "Bearer " + sign(t, priv, jwt.MapClaims{"a": "ro"}), nil, "", map[string]permission{"default": permRead}},
		{"id restricts", "Bearer " + sign(t, priv, jwt.MapClaims{"id": "ns1", "a": "rw"}), nil, "", map[string]permission{"ns1": permWrite, "ns2": permNone}},
		{"p scopes", "Bearer " + sign(t, priv, jwt.MapClaims{"p": map[string]any{"rw": map[string]any{"ns": []string{"a"}}, "ro": map[string]any{"ns": []string{"b"}}}}), nil, "",
			map[string]permission{"a": permWrite, "b": permRead, "c": permNone}},
		{"expired", "Bearer " + sign(t, priv, jwt.MapClaims{"exp": now.Add(-2 * time.Minute).Unix()}), nil, hrana.CodeAuthJWTExpired, nil},
		{"expired within leeway", "Bearer " + sign(t, priv, jwt.MapClaims{"exp": now.Add(-30 * time.Second).Unix()}), nil, "", map[string]permission{"x": permWrite}},
		{"not yet valid", "Bearer " + sign(t, priv, jwt.MapClaims{"nbf": now.Add(time.Hour).Unix()}), nil, hrana.CodeAuthJWTImmature, nil},
		{"wrong key", "Bearer " + sign(t, otherPriv, jwt.MapClaims{}), nil, hrana.CodeAuthJWTInvalid, nil},
		{"namespace key", "Bearer " + sign(t, otherPriv, jwt.MapClaims{}), []ed25519.PublicKey{otherPub}, "", map[string]permission{"x": permWrite}},
		{"HS256", "Bearer " + hs, nil, hrana.CodeAuthJWTInvalid, nil},
		{"HS256 keyed with the public key", "Bearer " + hsPub, nil, hrana.CodeAuthJWTInvalid, nil},
		{"alg none", "Bearer " + none, nil, hrana.CodeAuthJWTInvalid, nil},
		{"no exp", "Bearer " + signExactly(t, priv, jwt.MapClaims{"a": "rw"}), nil, hrana.CodeAuthJWTInvalid, nil},
		{"unknown access", "Bearer " + sign(t, priv, jwt.MapClaims{"a": "admin"}), nil, hrana.CodeAuthJWTInvalid, nil},
		{"garbage", "Bearer abc.def.ghi", nil, hrana.CodeAuthJWTInvalid, nil},
		{"missing", "", nil, hrana.CodeAuthHeaderNotFound, nil},
		{"basic", "Basic dXNlcjpwYXNz", nil, hrana.CodeAuthUnsupportedScheme, nil},
		{"no scheme", "token", nil, hrana.CodeAuthHeaderMalformed, nil},
	}
	for _, tt := range tests {
		p, err := a.authenticateHeader(tt.header, tt.nsKeys)
		if tt.name == "no exp" && (err == nil || !strings.Contains(err.Message, "no exp claim")) {
			t.Errorf("no exp: err %v, want it to name the missing exp claim", err)
		}
		if tt.code != "" {
			if err == nil || err.Code != tt.code {
				t.Errorf("%s: err %v, want %s", tt.name, err, tt.code)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", tt.name, err)
			continue
		}
		for ns, want := range tt.perm {
			if got := p.access(ns); got != want {
				t.Errorf("%s: permission(%s) = %d, want %d", tt.name, ns, got, want)
			}
		}
	}

	open := authenticator{now: clock.Now}
	if p, err := open.authenticateHeader("", nil); err != nil || p.access("x") != permWrite {
		t.Errorf("auth disabled: %v %v", p, err)
	}
	if _, err := a.authenticateJWT(nil, nil); err == nil || err.Code != hrana.CodeAuthJWTMissing {
		t.Errorf("hello without jwt: %v", err)
	}
}

// TestJWTKeyRotation: during a rotation the key file holds the old and
// the new public key and tokens of both work; once the old key is
// removed, its tokens are refused and the new ones still work.
func TestJWTKeyRotation(t *testing.T) {
	clock := newFakeClock()
	oldPub, oldPriv := newKey(t)
	newPub, newPriv := newKey(t)
	oldTok, newTok := "Bearer "+sign(t, oldPriv, nil), "Bearer "+sign(t, newPriv, nil)
	both, err := ParseJWTKeys(pemKey(t, oldPub) + pemKey(t, newPub))
	if err != nil {
		t.Fatal(err)
	}
	during := authenticator{keys: both, now: clock.Now}
	for name, tok := range map[string]string{"old": oldTok, "new": newTok} {
		if _, err := during.authenticateHeader(tok, nil); err != nil {
			t.Errorf("during the rotation, the %s key's token: %v", name, err)
		}
	}
	onlyNew, err := ParseJWTKeys(pemKey(t, newPub))
	if err != nil {
		t.Fatal(err)
	}
	after := authenticator{keys: onlyNew, now: clock.Now}
	if _, err := after.authenticateHeader(newTok, nil); err != nil {
		t.Errorf("after the rotation, the new key's token: %v", err)
	}
	if _, err := after.authenticateHeader(oldTok, nil); err == nil || err.Code != hrana.CodeAuthJWTInvalid {
		t.Errorf("after the rotation, the old key's token: err %v, want %s", err, hrana.CodeAuthJWTInvalid)
	}
}
