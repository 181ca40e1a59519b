package internalauth

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func mustKey(t *testing.T, secret string) Key {
	t.Helper()
	k, err := New([]byte(secret))
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func TestNew(t *testing.T) {
	if _, err := New(nil); !errors.Is(err, ErrNoSecret) {
		t.Errorf("New(nil) err = %v, want ErrNoSecret", err)
	}
	a, b, c := mustKey(t, "s1"), mustKey(t, "s1"), mustKey(t, "s2")
	if a.HeaderValue() != b.HeaderValue() {
		t.Error("same secret gave different keys")
	}
	if a.HeaderValue() == c.HeaderValue() {
		t.Error("different secrets gave the same key")
	}
	// Golden: HMAC-SHA256("s1", "dwk internal v1"), so every replica and
	// every version of dwk agree on the derivation.
	const want = "Dwk-Internal 6177ebe7333a113b8b78665ecc5448b3361be30de91657fa20e19be7844b2982"
	if got := a.HeaderValue(); got != want {
		t.Errorf("HeaderValue = %q, want %q", got, want)
	}
	for _, s := range []string{fmt.Sprint(a), fmt.Sprintf("%v %+v %#v", a, a, a)} {
		if strings.Contains(s, a.HeaderValue()[len("Dwk-Internal "):]) {
			t.Errorf("formatting leaks the key: %s", s)
		}
	}
}

func TestVerify(t *testing.T) {
	k := mustKey(t, "secret")
	other := mustKey(t, "other")
	hexKey := strings.TrimPrefix(k.HeaderValue(), "Dwk-Internal ")
	tests := []struct {
		name   string
		header string
		want   error
	}{
		{"valid", k.HeaderValue(), nil},
		{"scheme case-insensitive", "dwk-internal " + hexKey, nil},
		{"missing", "", ErrMissing},
		{"bearer", "Bearer " + hexKey, ErrMissing},
		{"no credential", "Dwk-Internal", ErrMissing},
		{"other fleet", other.HeaderValue(), ErrInvalid},
		{"not hex", "Dwk-Internal zz", ErrInvalid},
		{"short", "Dwk-Internal " + hexKey[:10], ErrInvalid},
	}
	for _, tc := range tests {
		r := httptest.NewRequest(http.MethodGet, "/", nil)
		if tc.header != "" {
			r.Header.Set("Authorization", tc.header)
		}
		got := k.Verify(r)
		if (tc.want == nil) != (got == nil) || (tc.want != nil && !errors.Is(got, tc.want)) {
			t.Errorf("%s: Verify = %v, want %v", tc.name, got, tc.want)
		}
	}
	var zero Key
	r := httptest.NewRequest(http.MethodGet, "/", nil)
	r.Header.Set("Authorization", zero.HeaderValue())
	if err := zero.Verify(r); err == nil {
		t.Error("the zero Key accepted a request")
	}
}

func TestMiddlewareAndTransport(t *testing.T) {
	k := mustKey(t, "secret")
	var sawAuth []string
	srv := httptest.NewServer(k.Middleware(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sawAuth = r.Header.Values("Authorization")
		io.WriteString(w, "inside")
	})))
	defer srv.Close()

	tests := []struct {
		name     string
		client   *http.Client
		wantCode int
		wantBody string
	}{
		{"with key", &http.Client{Transport: k.Transport(nil)}, http.StatusOK, "inside"},
		{"without key", http.DefaultClient, http.StatusUnauthorized, "missing"},
		{"wrong fleet", &http.Client{Transport: mustKey(t, "other").Transport(nil)}, http.StatusUnauthorized, "wrong internal key"},
	}
	for _, tc := range tests {
		req, _ := http.NewRequest(http.MethodGet, srv.URL, nil)
		req.Header.Set("X-Keep", "1")
		resp, err := tc.client.Do(req)
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != tc.wantCode || !strings.Contains(string(body), tc.wantBody) {
			t.Errorf("%s: got %d %q, want %d containing %q", tc.name, resp.StatusCode, body, tc.wantCode, tc.wantBody)
		}
		if req.Header.Get("Authorization") != "" {
			t.Errorf("%s: Transport modified the caller's request", tc.name)
		}
	}
	if len(sawAuth) != 0 {
		t.Errorf("handler saw Authorization %q; the middleware must strip the key", sawAuth)
	}
}
