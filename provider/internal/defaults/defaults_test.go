package defaults

import (
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/config"
)

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		d    time.Duration
		want string
	}{
		{10 * time.Second, "10s"},
		{30 * time.Second, "30s"},
		{1500 * time.Millisecond, "1.5s"},
		{90 * time.Second, "1m30s"},
		{2 * time.Minute, "2m"},
		{time.Hour, "1h"},
		{time.Hour + time.Second, "1h0m1s"},
	} {
		got := Duration(tt.d)
		if got != tt.want {
			t.Errorf("Duration(%v) = %q, want %q", tt.d, got, tt.want)
		}
		if back, err := time.ParseDuration(got); err != nil || back != tt.d {
			t.Errorf("Duration(%v) = %q parses as %v, %v", tt.d, got, back, err)
		}
	}
}

// TestFromConfig checks that the defaults dwk.json has are config's.
func TestFromConfig(t *testing.T) {
	for _, tt := range []struct {
		name      string
		got, want time.Duration
	}{
		{"drain timeout", parse(t, DrainTimeout), config.DefaultDrainTimeout},
		{"lease TTL", parse(t, LeaseTTL), config.DefaultLeaseTTL},
	} {
		if tt.got != tt.want {
			t.Errorf("%s = %v, want config's %v", tt.name, tt.got, tt.want)
		}
	}
	for _, tt := range []struct {
		port int64
		addr string
	}{{PublicPort, config.DefaultPublic}, {InternalPort, config.DefaultInternal}} {
		if _, p, _ := net.SplitHostPort(tt.addr); p != strconv.FormatInt(tt.port, 10) {
			t.Errorf("port %d, want the port of config's %s", tt.port, tt.addr)
		}
	}
	c := config.Default()
	if LogLevel != c.Log.Level || LogLevel == "" {
		t.Errorf("log level %q, want config's %q", LogLevel, c.Log.Level)
	}
	if StorageMode != c.Storage.Mode {
		t.Errorf("storage mode %q, want config's %q", StorageMode, c.Storage.Mode)
	}
}

func parse(t *testing.T, s string) time.Duration {
	t.Helper()
	d, err := time.ParseDuration(s)
	if err != nil {
		t.Fatalf("%q: %v", s, err)
	}
	return d
}
