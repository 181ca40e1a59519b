package d1central

import (
	"strings"
	"testing"
	"time"
)

func TestNamespaceFor(t *testing.T) {
	tests := []struct {
		prefix, db string
		want       string
		err        bool
	}{
		{"", "chat", "d1-chat", false},
		{"prod-", "chat_db", "prod-d1-chat_db", false},
		{"", "Chat", "", true},
		{"", "a.b", "", true},
		{"", "", "", true},
		{"-", "x", "", true},
		{"", strings.Repeat("x", 61), "", true},
	}
	for _, tt := range tests {
		got, err := NamespaceFor(tt.prefix, tt.db)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("NamespaceFor(%q, %q) = %q, %v; want %q, error %v", tt.prefix, tt.db, got, err, tt.want, tt.err)
		}
	}
}

func TestConfigValidate(t *testing.T) {
	tests := []struct {
		name string
		cfg  Config
		want []string // substrings of the error; none: valid
	}{
		{"minimal", Config{URL: "http://127.0.0.1:8080"}, nil},
		{"libsql scheme", Config{URL: "libsql://db.example.com", Namespace: "d1-x"}, nil},
		{"missing url", Config{}, []string{"url: required"}},
		{"bad scheme", Config{URL: "ftp://host"}, []string{"url:"}},
		{"token in url", Config{URL: "http://host?authToken=x"}, []string{"no query"}},
		{"everything wrong", Config{URL: "http://h", Namespace: "Bad", Timeout: -time.Second, RetryBackoff: -1},
			[]string{"namespace:", "timeout:", "retry backoff:"}},
	}
	for _, tt := range tests {
		err := tt.cfg.Validate()
		if (err != nil) != (tt.want != nil) {
			t.Errorf("%s: Validate() = %v, want error %v", tt.name, err, tt.want != nil)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: Validate() = %v, want it to mention %q", tt.name, err, w)
			}
		}
	}
	if _, err := Open(Config{}); err == nil {
		t.Errorf("Open of an empty config succeeded")
	}
}

func TestDefaults(t *testing.T) {
	c := Config{URL: "http://h"}.withDefaults()
	if c.Timeout != DefaultTimeout || c.Retries != DefaultRetries || c.RetryBackoff != DefaultRetryBackoff {
		t.Errorf("defaults = %v %v %v", c.Timeout, c.Retries, c.RetryBackoff)
	}
	if c := (Config{Retries: -1}).withDefaults(); c.Retries != 0 {
		t.Errorf("Retries -1 became %d, want 0", c.Retries)
	}
}
