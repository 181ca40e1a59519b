package jsprojects

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"reflect"
	"regexp"
	"strings"
	"sync"
	"testing"
)

// jwtSecret is JWT_SECRET in projects/compat's wrangler.jsonc.
const jwtSecret = "correct horse battery staple"

// testCompat checks the Node.js modules of nodejs_compat, the Web APIs,
// HTMLRewriter and WebAssembly against what Go computes for the same
// inputs.
func testCompat(t *testing.T, s *site) {
	compat := func(i int, path string) string { return s.url(i, "/compat"+path) }

	t.Run("node", func(t *testing.T) {
		var got map[string]map[string]any
		do(t, "GET", compat(0, "/node"), nil).want(t, 200, "node").json(t, &got)
		sha1abc := sha1.Sum([]byte("abc"))
		sha256abc := sha256.Sum256([]byte("abc"))
		mac := hmac.New(sha256.New, []byte("key"))
		mac.Write([]byte("The quick brown fox jumps over the lazy dog"))
		uuid, _ := got["crypto"]["uuid"].(string)
		if !regexp.MustCompile(`^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$`).MatchString(uuid) {
			t.Errorf("randomUUID() = %q, not a version 4 UUID", uuid)
		}
		delete(got["crypto"], "uuid")
		want := map[string]map[string]any{
			"buffer": {
				"base64": base64.StdEncoding.EncodeToString([]byte("héllo wörld")), "hex": "0102feff", "byteLength": 13.0,
				"word": "deadbeef", "readBack": float64(0xdeadbeef), "concat": "abcd", "isBuffer": true,
			},
			"events": {"heard": []any{"x+y", "once", "z+w"}, "ready": 42.0, "listeners": 1.0},
			"crypto": {
				"sha256": hex.EncodeToString(sha256abc[:]), "sha1Chunks": base64.StdEncoding.EncodeToString(sha1abc[:]),
				"hmac": hex.EncodeToString(mac.Sum(nil)), "equal": true, "unequal": false,
			},
			"util": {"format": `answer=42 {"ok":true}`, "inspect": "{ a: [ 1, { b: 'two' } ] }", "isDate": true, "promisified": "slept 5"},
			"path": {
				"join": "/srv/data/notes.txt", "extname": ".gz", "basename": "report", "relative": "../../d",
				"parse": map[string]any{"root": "/", "dir": "/home/u", "base": "file.txt", "ext": ".txt", "name": "file"},
			},
			// nodejs_compat with a compatibility date from 2025-04-01 fills
			// process.env with the vars, JSON ones as their text.
			"env": {"greeting": "hello from vars", "limitsType": "string"},
		}
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s:\n got %v\nwant %v", k, got[k], want[k])
			}
		}
	})

	t.Run("AsyncLocalStorage", func(t *testing.T) {
		// Concurrent requests interleave on the worker's isolates; each
		// must see its own store after every await.
		var wg sync.WaitGroup
		for i := range 12 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				id := fmt.Sprintf("req-%d", i)
				r, err := send("GET", compat(i, "/als?id="+id), nil)
				if err != nil || r.status != 200 {
					t.Errorf("%s: %v %v", id, r, err)
					return
				}
				var got struct {
					ID    string
					Seen  []string
					After string
				}
				json.Unmarshal(r.body, &got)
				want := []string{"start", "timer", "microtask", "queueMicrotask", "inner1", "inner2"}
				for j := range want {
					want[j] += ":" + id
				}
				if got.ID != id || !reflect.DeepEqual(got.Seen, want) || got.After != "none" {
					t.Errorf("%s: got %+v, want %v and no store outside run", id, got, want)
				}
			}()
		}
		wg.Wait()
	})

	t.Run("web", func(t *testing.T) {
		var got map[string]map[string]any
		do(t, "GET", compat(1, "/web"), nil).want(t, 200, "web").json(t, &got)
		want := map[string]map[string]any{
			"encoding": {"bytes": 10.0, "roundTrip": "€uro ✓", "split": "€uro ✓", "fatal": "TypeError"},
			"url": {
				"href": "https://example.com/a/c?x=9&y=two&z=a+b%26c#frag", "pathname": "/a/c", "z": "a b&c",
				"params": "page=2&q=dwk+fleet", "canParse": false,
			},
			"clone": {
				"isDate": true, "time": "2024-02-29T00:00:00.000Z", "setInMap": true, "cycle": true,
				"list": []any{1.0, "two", map[string]any{"three": 3.0}}, "cloneError": "DataCloneError",
			},
			"abort": {"timeout": "TimeoutError", "reason": "stopped by caller", "anyAborted": true},
			"vars":  {"greeting": "hello from vars", "limits": map[string]any{"maxItems": 3.0}},
		}
		for k := range want {
			if !reflect.DeepEqual(got[k], want[k]) {
				t.Errorf("%s:\n got %v\nwant %v", k, got[k], want[k])
			}
		}
	})

	t.Run("Set-Cookie", func(t *testing.T) {
		r := do(t, "GET", compat(0, "/cookies"), nil).want(t, 200, "cookies")
		want := []string{"session=abc123; Path=/; HttpOnly; Secure; SameSite=Lax", "theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT"}
		if got := r.header.Values("Set-Cookie"); !reflect.DeepEqual(got, want) {
			t.Errorf("Set-Cookie headers = %q, want %q", got, want)
		}
		var b struct {
			GetSetCookie []string
			Joined       string
		}
		r.json(t, &b)
		if !reflect.DeepEqual(b.GetSetCookie, want) || b.Joined != strings.Join(want, ", ") {
			t.Errorf("getSetCookie() = %q, get() = %q", b.GetSetCookie, b.Joined)
		}
	})

	t.Run("HTMLRewriter", func(t *testing.T) {
		r := do(t, "GET", compat(1, "/rewrite"), nil).want(t, 200, "rewrite")
		want := `<!doctype html>
<html><head><title>New &amp; improved</title></head>
<body>
<a href="/new/one">one</a>
<a href="/new/two?x=1">two</a>
<a href="https://elsewhere.example/" rel="noopener">away</a>
<p>Keep <b>this</b>.</p>
</body></html><!-- rewrote 2 links -->`
		if string(r.body) != want || r.header.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("rewritten page (%s):\n%s\nwant:\n%s", r.header.Get("Content-Type"), r.body, want)
		}
	})

	t.Run("WebAssembly", func(t *testing.T) {
		for i, tc := range []struct{ a, b, n, add, scaled, sum int }{
			{2, 40, 100, 42, 420, 5050},
			{-7, 3, 0, -4, -40, 0},
		} {
			var got struct {
				IsModule              bool
				Exports               []string
				Add, AddScaled, SumTo int
			}
			do(t, "GET", compat(i, fmt.Sprintf("/wasm?a=%d&b=%d&n=%d", tc.a, tc.b, tc.n)), nil).want(t, 200, "wasm").json(t, &got)
			if !got.IsModule || !reflect.DeepEqual(got.Exports, []string{"memory:memory", "function:add", "function:addScaled", "function:sumTo"}) ||
				got.Add != tc.add || got.AddScaled != tc.scaled || got.SumTo != tc.sum {
				t.Errorf("wasm(%d, %d, %d) = %+v, want add %d, addScaled %d, sumTo %d", tc.a, tc.b, tc.n, got, tc.add, tc.scaled, tc.sum)
			}
		}
	})

	t.Run("JWT HS256", func(t *testing.T) {
		var tok struct{ Token string }
		do(t, "GET", compat(0, "/jwt/hs256?sub=ann"), nil).want(t, 200, "sign").json(t, &tok)
		parts := strings.Split(tok.Token, ".")
		if len(parts) != 3 {
			t.Fatalf("token %q", tok.Token)
		}
		mac := hmac.New(sha256.New, []byte(jwtSecret))
		mac.Write([]byte(parts[0] + "." + parts[1]))
		if want := base64.RawURLEncoding.EncodeToString(mac.Sum(nil)); parts[2] != want {
			t.Errorf("signature %s, want HMAC-SHA256 %s", parts[2], want)
		}
		header, _ := base64.RawURLEncoding.DecodeString(parts[0])
		claims, _ := base64.RawURLEncoding.DecodeString(parts[1])
		if string(header) != `{"alg":"HS256","typ":"JWT"}` || string(claims) != `{"sub":"ann","iat":1700000000}` {
			t.Errorf("header %s, claims %s", header, claims)
		}
		var v struct {
			Valid  bool
			Claims map[string]any
		}
		do(t, "GET", compat(1, "/jwt/verify?token="+tok.Token), nil).want(t, 200, "verify").json(t, &v)
		if !v.Valid || v.Claims["sub"] != "ann" {
			t.Errorf("verify(own token) = %+v", v)
		}
		forged := parts[0] + "." + base64.RawURLEncoding.EncodeToString([]byte(`{"sub":"admin","iat":1700000000}`)) + "." + parts[2]
		do(t, "GET", compat(0, "/jwt/verify?token="+forged), nil).want(t, 200, "verify a forgery").json(t, &v)
		if v.Valid {
			t.Error("a token with changed claims verified")
		}
	})

	t.Run("JWT ES256", func(t *testing.T) {
		var got struct {
			Token                      string
			JWK                        struct{ Kty, Crv, X, Y string }
			Verified, TamperedVerified bool
		}
		do(t, "GET", compat(1, "/jwt/es256?sub=bo"), nil).want(t, 200, "es256").json(t, &got)
		if !got.Verified || got.TamperedVerified || got.JWK.Kty != "EC" || got.JWK.Crv != "P-256" {
			t.Fatalf("es256 = %+v", got)
		}
		parts := strings.Split(got.Token, ".")
		x, _ := base64.RawURLEncoding.DecodeString(got.JWK.X)
		y, _ := base64.RawURLEncoding.DecodeString(got.JWK.Y)
		sig, _ := base64.RawURLEncoding.DecodeString(parts[2])
		if len(parts) != 3 || len(sig) != 64 {
			t.Fatalf("token %q: want three parts and a 64-byte r||s signature", got.Token)
		}
		pub := &ecdsa.PublicKey{Curve: elliptic.P256(), X: new(big.Int).SetBytes(x), Y: new(big.Int).SetBytes(y)}
		digest := sha256.Sum256([]byte(parts[0] + "." + parts[1]))
		if !ecdsa.Verify(pub, digest[:], new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])) {
			t.Error("Go does not verify the worker's ES256 signature with the exported JWK")
		}
	})
}
