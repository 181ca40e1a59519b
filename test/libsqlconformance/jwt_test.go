package libsqlconformance

import (
	"crypto/ed25519"
	"crypto/rand"
	"strings"
	"testing"
	"time"

	"github.com/golang-jwt/jwt/v5"
	"github.com/tursodatabase/libsql-client-go/libsql"
)

// token signs claims with key (EdDSA), as Turso and sqld tokens are.
func token(t *testing.T, key ed25519.PrivateKey, claims jwt.MapClaims) string {
	t.Helper()
	s, err := jwt.NewWithClaims(jwt.SigningMethodEdDSA, claims).SignedString(key)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func TestJWT(t *testing.T) {
	if tgt := startTarget(t); !tgt.managed {
		t.Skipf("%s is set: JWT cases need control of the server's key", envURL)
	}
	tgt := startAuthTarget(t)
	_, otherKey, _ := ed25519.GenerateKey(rand.Reader)
	hour := time.Now().Add(time.Hour).Unix()
	rw := token(t, tgt.signer, jwt.MapClaims{"a": "rw", "exp": hour})
	ro := token(t, tgt.signer, jwt.MapClaims{"a": "ro", "exp": hour})
	onlyExp := token(t, tgt.signer, jwt.MapClaims{"exp": hour})
	// dwk libsql refuses tokens that never expire (sqld accepts them).
	noExp := token(t, tgt.signer, jwt.MapClaims{"a": "rw"})
	expired := token(t, tgt.signer, jwt.MapClaims{"a": "rw", "exp": time.Now().Add(-time.Hour).Unix()})
	forged := token(t, otherKey, jwt.MapClaims{"a": "rw"})

	forEachTransport(t, func(t *testing.T, scheme string) {
		url := tgt.schemeURL(scheme)
		table := uniqueName("jwt_" + scheme)
		writer := openDB(t, url, libsql.WithAuthToken(rw))
		mustExec(t, writer, "CREATE TABLE "+table+" (v INTEGER)")
		mustExec(t, writer, "INSERT INTO "+table+" VALUES (1)")
		mustExec(t, openDB(t, url, libsql.WithAuthToken(onlyExp)), "INSERT INTO "+table+" VALUES (2)")

		reader := openDB(t, url, libsql.WithAuthToken(ro))
		if got := count(t, reader, table); got != 2 {
			t.Errorf("read-only token reads %d rows, want 2", got)
		}
		if _, err := reader.Exec("INSERT INTO " + table + " VALUES (3)"); err == nil {
			t.Error("read-only token could write")
		}
		if _, err := reader.Exec("CREATE TABLE " + table + "_x (v)"); err == nil {
			t.Error("read-only token could create a table")
		}

		denied := map[string][]libsql.Option{
			"expired":  {libsql.WithAuthToken(expired)},
			"forged":   {libsql.WithAuthToken(forged)},
			"no token": nil,
			"no exp":   {libsql.WithAuthToken(noExp)},
		}
		for name, opts := range denied {
			_, err := openDB(t, url, opts...).Exec("SELECT count(*) FROM " + table)
			if err == nil {
				t.Errorf("%s: query succeeded, want it denied", name)
				continue
			}
			if msg := strings.ToLower(err.Error()); !strings.Contains(msg, "unauthorized") && !strings.Contains(msg, "authentication") {
				t.Errorf("%s: error %q does not say it is an authentication failure", name, err)
			}
		}
		if got := count(t, writer, table); got != 2 {
			t.Errorf("after the denied writes %d rows, want 2", got)
		}
	})
}
