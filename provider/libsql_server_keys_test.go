package provider

import (
	"crypto/ed25519"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/dwk/fleet/appliance/libsql"
)

func TestServerTokens(t *testing.T) {
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	tok, err := newServerTokens(now, 100*time.Hour)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := libsql.ParseJWTKeys(tok.PublicKeyPEM)
	if err != nil || len(keys) != 1 {
		t.Fatalf("dwk libsql cannot read the public key: %v %v", keys, err)
	}
	for _, c := range []struct{ token, access string }{{tok.Full, "rw"}, {tok.ReadOnly, "ro"}} {
		claims := jwt.MapClaims{}
		_, err := jwt.ParseWithClaims(c.token, claims, func(*jwt.Token) (any, error) { return ed25519.PublicKey(keys[0]), nil },
			jwt.WithTimeFunc(func() time.Time { return now }), jwt.WithExpirationRequired())
		if err != nil {
			t.Fatalf("token %s: %v", c.access, err)
		}
		if got := claims["a"]; got != c.access {
			t.Errorf("a = %v, want %s", got, c.access)
		}
		if exp, _ := claims.GetExpirationTime(); !exp.Time.Equal(now.Add(100 * time.Hour)) {
			t.Errorf("exp = %v, want %v", exp, now.Add(100*time.Hour))
		}
	}
	if strings.Contains(tok.PublicKeyPEM, "PRIVATE") {
		t.Error("the public key PEM holds a private key")
	}
}

func TestRenewDue(t *testing.T) {
	exp := "2026-12-31T00:00:00Z"
	for _, c := range []struct {
		now  string
		want bool
	}{
		{"2026-01-01T00:00:00Z", false},
		{"2026-09-20T00:00:00Z", false}, // 102 days left of 400: more than a quarter
		{"2026-09-24T00:00:00Z", true},  // 98 days left
		{"2027-01-01T00:00:00Z", true},
	} {
		now, _ := time.Parse(time.RFC3339, c.now)
		if got := renewDue(exp, 400*24*time.Hour, now); got != c.want {
			t.Errorf("renewDue at %s = %v, want %v", c.now, got, c.want)
		}
	}
	if renewDue("", time.Hour, time.Now()) {
		t.Error("tokens of unknown expiry (an import) are renewed by time")
	}
}

func TestParseServerID(t *testing.T) {
	got, err := parseServerID("ssh://deploy@10.0.0.4:2222/opt/dwk/db?host_key=ssh-ed25519%20AAAA&name=db")
	want := serverID{User: "deploy", Address: "10.0.0.4", Port: 2222, InstallDir: "/opt/dwk/db", HostKey: "ssh-ed25519 AAAA", Name: "db"}
	if err != nil || got != want {
		t.Fatalf("got %+v, %v; want %+v", got, err, want)
	}
	if s := got.String(); s != "ssh://deploy@10.0.0.4:2222/opt/dwk/db" {
		t.Errorf("String() = %q", s)
	}
	for _, bad := range []string{
		"10.0.0.4", "ssh://10.0.0.4:22/opt?host_key=k", "ssh://root@10.0.0.4/opt?host_key=k",
		"ssh://root@10.0.0.4:22/opt", "ssh://root@10.0.0.4:22/opt?host_key=k&port=1", "ssh://root@10.0.0.4:22?host_key=k",
	} {
		if _, err := parseServerID(bad); err == nil {
			t.Errorf("parseServerID(%q) succeeded", bad)
		}
	}
}

func TestRotateKeys(t *testing.T) {
	now := time.Date(2026, 6, 1, 0, 0, 0, 0, time.UTC)
	model := func(version, lifetime string, expires time.Time) *libsqlServerModel {
		m := &libsqlServerModel{JWTKeyVersion: types.StringValue(version), TokenLifetime: types.StringValue(lifetime)}
		m.TokensExpire = types.StringNull()
		if !expires.IsZero() {
			m.TokensExpire = types.StringValue(expires.Format(time.RFC3339))
		}
		return m
	}
	year := now.Add(365 * 24 * time.Hour)
	for _, c := range []struct {
		name        string
		state, plan *libsqlServerModel
		want        bool
	}{
		{"create", nil, model("1", "8760h", time.Time{}), true},
		{"nothing changed", model("1", "8760h", year), model("1", "8760h", time.Time{}), false},
		{"the same lifetime written otherwise", model("1", "8760h", year), model("1", "8760h0m0s", time.Time{}), false},
		{"jwt_key_version changed", model("1", "8760h", year), model("2", "8760h", time.Time{}), true},
		{"token_lifetime shortened", model("1", "8760h", year), model("1", "24h", time.Time{}), true},
		{"token_lifetime lengthened", model("1", "24h", now.Add(24*time.Hour)), model("1", "48h", time.Time{}), true},
		{"token_lifetime unknown", model("1", "8760h", year), &libsqlServerModel{JWTKeyVersion: types.StringValue("1"), TokenLifetime: types.StringUnknown()}, true},
		{"in the last quarter", model("1", "100h", now.Add(20*time.Hour)), model("1", "100h", time.Time{}), true},
		{"before the last quarter", model("1", "100h", now.Add(30*time.Hour)), model("1", "100h", time.Time{}), false},
		{"imported: no tokens, no expiry", model("1", "8760h", time.Time{}), model("1", "8760h", time.Time{}), false},
	} {
		if got := rotateKeys(c.state, c.plan, now); got != c.want {
			t.Errorf("%s: rotateKeys = %v, want %v", c.name, got, c.want)
		}
	}
}
