package libsql

import (
	"net/http/httptest"
	"strings"
	"testing"
	"time"
)

func TestValidateNamespace(t *testing.T) {
	for _, ok := range []string{"default", "a", "ns-1", "my_db", strings.Repeat("x", 63)} {
		if err := ValidateNamespace(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "-x", "A", "a.b", "a/b", "..", "ü", strings.Repeat("x", 64)} {
		if err := ValidateNamespace(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
}

func TestNamespaceFromRequest(t *testing.T) {
	tests := []struct {
		host    string
		headers map[string]string
		want    string
		err     bool
	}{
		{host: "127.0.0.1:8080", want: "default"},
		{host: "[::1]:8080", want: "default"},
		{host: "localhost:8080", want: "default"},
		{host: "ns1.localhost:8080", want: "ns1"},
		{host: "NS1.db.example.com", want: "ns1"},
		{host: "bad!.example.com", err: true},
		{host: "127.0.0.1", headers: map[string]string{"x-namespace": "hdr"}, want: "hdr"},
		{host: "ns1.localhost", headers: map[string]string{"x-namespace": "hdr"}, want: "hdr"},
		{host: "x", headers: map[string]string{"x-namespace-bin": "Ymlu"}, want: "bin"},
		{host: "x", headers: map[string]string{"x-namespace-bin": "%%"}, err: true},
		{host: "x", headers: map[string]string{"x-namespace": "../etc"}, err: true},
	}
	for _, tt := range tests {
		r := httptest.NewRequest("POST", "/v2/pipeline", nil)
		r.Host = tt.host
		for k, v := range tt.headers {
			r.Header.Set(k, v)
		}
		got, err := namespaceFromRequest(r, false)
		if tt.err {
			if err == nil {
				t.Errorf("%s %v: got %q, want an error", tt.host, tt.headers, got)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s %v: %q, %v; want %q", tt.host, tt.headers, got, err, tt.want)
		}
	}
	r := httptest.NewRequest("POST", "/", nil)
	r.Host = "ns1.localhost"
	if got, _ := namespaceFromRequest(r, true); got != DefaultNamespace {
		t.Errorf("with namespaces disabled: %q", got)
	}
}

func TestConfigValidate(t *testing.T) {
	if err := (Config{}).Validate(); err != nil {
		t.Fatalf("defaults: %v", err)
	}
	err := Config{Synchronous: "off", MaxStreams: -1, BusyTimeout: time.Minute, AuthJWTKey: "k", AuthJWTKeyFile: "f", AdminListenAddr: DefaultHTTPListenAddr}.Validate()
	for _, want := range []string{"synchronous", "max streams", "busy timeout", "either the JWT key file", "admin listen address"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Validate() = %v, want it to mention %q", err, want)
		}
	}
}
