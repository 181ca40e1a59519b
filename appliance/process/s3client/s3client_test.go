package s3client

import (
	"context"
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
)

func TestCheckEndpoint(t *testing.T) {
	for endpoint, want := range map[string]string{
		"":                       "",
		"http://127.0.0.1:7070":  "",
		"https://s3.example.com": "",
		"127.0.0.1:7070":         "endpoint:",
		"store.example.com":      "want an http or https URL with a host",
		"ftp://store":            "want an http or https URL with a host",
		"http://":                "want an http or https URL with a host",
		"http://a b":             "endpoint:",
	} {
		err := CheckEndpoint(endpoint)
		if want == "" && err != nil || want != "" && (err == nil || !strings.Contains(err.Error(), want)) {
			t.Errorf("CheckEndpoint(%q) = %v, want %q", endpoint, err, want)
		}
	}
}

// TestNewDefaults: a client built from static credentials signs for the
// default region and tries an idempotent request DefaultMaxAttempts times.
func TestNewDefaults(t *testing.T) {
	c, err := New(context.Background(), Config{Endpoint: "http://127.0.0.1:1", AccessKey: "a", SecretKey: "s", PathStyle: true})
	if err != nil {
		t.Fatal(err)
	}
	o := c.Options()
	if o.Region != config.DefaultRegion || !o.UsePathStyle || o.Retryer.MaxAttempts() != DefaultMaxAttempts {
		t.Errorf("region %q, path style %v, attempts %d; want %q, true, %d", o.Region, o.UsePathStyle, o.Retryer.MaxAttempts(), config.DefaultRegion, DefaultMaxAttempts)
	}
}
