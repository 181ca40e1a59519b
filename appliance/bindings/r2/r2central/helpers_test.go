package r2central

import (
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func TestContentRange(t *testing.T) {
	tests := []struct {
		header   string
		length   int64
		wantSize int64
		wantPart *worker.R2Range
		wantErr  bool
	}{
		{"", 42, 42, nil, false},
		{"bytes 10-99/100", 90, 100, &worker.R2Range{Offset: 10, Length: 90}, false},
		{"bytes 0-0/1", 1, 1, &worker.R2Range{Offset: 0, Length: 1}, false},
		{"bytes */100", 0, 0, nil, true},
		{"bytes 5-4/100", 0, 0, nil, true},
		{"items 0-1/2", 0, 0, nil, true},
	}
	for _, tt := range tests {
		size, part, err := contentRange(tt.header, tt.length)
		if (err != nil) != tt.wantErr {
			t.Errorf("contentRange(%q): err = %v, want error %v", tt.header, err, tt.wantErr)
			continue
		}
		if err != nil {
			continue
		}
		if size != tt.wantSize || (part == nil) != (tt.wantPart == nil) || part != nil && *part != *tt.wantPart {
			t.Errorf("contentRange(%q) = %d, %+v; want %d, %+v", tt.header, size, part, tt.wantSize, tt.wantPart)
		}
	}
}

func TestPlainMetadata(t *testing.T) {
	tests := []struct {
		m    map[string]string
		want bool
	}{
		{nil, true},
		{map[string]string{"owner": "alice", "build-7": "x y"}, true},
		{map[string]string{"Owner": "alice"}, false},
		{map[string]string{"under_score": "x"}, false},
		{map[string]string{"dwk-anything": "x"}, false},
		{map[string]string{"k": "ü"}, false},
		{map[string]string{"k": " x"}, false},
		{map[string]string{"k": "=?UTF-8?Q?x?="}, false},
		{map[string]string{"k": ""}, false},
		{map[string]string{"k": "tab\there"}, false},
	}
	for _, tt := range tests {
		if got := plainMetadata(tt.m); got != tt.want {
			t.Errorf("plainMetadata(%q) = %v, want %v", tt.m, got, tt.want)
		}
	}
}

func TestMetadataRoundTrip(t *testing.T) {
	custom := map[string]string{"Mixed-Case": "wert ü", "dwk-version": "user's"}
	m, err := encodeMetadata("v1", custom, worker.R2HTTPMetadata{}, []byte{1, 2}, nil)
	if err != nil {
		t.Fatal(err)
	}
	up := time.Unix(1700000000, 0)
	o, err := headers{Metadata: m, LastModified: &up}.object("k", 3)
	if err != nil {
		t.Fatal(err)
	}
	if o.Version != "v1" || o.CustomMetadata["Mixed-Case"] != "wert ü" || o.CustomMetadata["dwk-version"] != "user's" ||
		len(o.CustomMetadata) != 2 || string(o.Checksums.MD5) != "\x01\x02" || o.Checksums.SHA256 != nil {
		t.Errorf("round trip = %+v", o)
	}
}

func TestConfigValidate(t *testing.T) {
	ok := Config{Bucket: "b"}
	tests := []struct {
		name    string
		mutate  func(c *Config)
		wantErr bool
	}{
		{"minimal", func(*Config) {}, false},
		{"full", func(c *Config) {
			*c = Config{Endpoint: "https://s3.example.com", Region: "eu-west-1", Bucket: "b", AccessKey: "a",
				SecretKey: "s", PathStyle: true, KeyPrefix: "r2/x/", Timeout: time.Second, MaxAttempts: 5}
		}, false},
		{"no bucket", func(c *Config) { c.Bucket = "" }, true},
		{"endpoint without scheme", func(c *Config) { c.Endpoint = "127.0.0.1:7070" }, true},
		{"ftp endpoint", func(c *Config) { c.Endpoint = "ftp://host" }, true},
		{"access key alone", func(c *Config) { c.AccessKey = "a" }, true},
		{"prefix with slash", func(c *Config) { c.KeyPrefix = "/r2/" }, true},
		{"prefix not utf-8", func(c *Config) { c.KeyPrefix = "\xff" }, true},
		{"negative timeout", func(c *Config) { c.Timeout = -time.Second }, true},
		{"negative attempts", func(c *Config) { c.MaxAttempts = -1 }, true},
	}
	for _, tt := range tests {
		c := ok
		tt.mutate(&c)
		if err := c.Validate(); (err != nil) != tt.wantErr {
			t.Errorf("%s: Validate() = %v, want error %v", tt.name, err, tt.wantErr)
		}
	}
}

func TestListCursor(t *testing.T) {
	var q listQuery
	if err := q.setCursor("tTOKEN"); err != nil || q.token != "TOKEN" {
		t.Errorf("token cursor: %+v, %v", q, err)
	}
	q = listQuery{after: "a"}
	if err := q.setCursor("k" + "Yi8"); err != nil || q.after != "b/" { // base64url("b/")
		t.Errorf("after cursor: %+v, %v", q, err)
	}
	for _, bad := range []string{"x", "k!!", "?abc"} {
		var q listQuery
		if err := q.setCursor(bad); err == nil {
			t.Errorf("setCursor(%q) = nil, want an error", bad)
		}
	}
}

func TestEnclosingGroup(t *testing.T) {
	tests := []struct {
		q    listQuery
		want string
	}{
		{listQuery{prefix: "p/", delim: "/", after: "p/a/1"}, "p/a/"},
		{listQuery{prefix: "p/", delim: "/", after: "p/a"}, ""},
		{listQuery{prefix: "p/", delim: "/", after: "o/a/1"}, ""},
		{listQuery{prefix: "p/", after: "p/a/1"}, ""},
		{listQuery{prefix: "p/", delim: "/", after: "p/a/1", token: "t"}, ""},
		{listQuery{prefix: "", delim: "--", after: "x--y--z"}, "x--"},
	}
	for _, tt := range tests {
		if got := tt.q.enclosingGroup(); got != tt.want {
			t.Errorf("enclosingGroup(%+v) = %q, want %q", tt.q, got, tt.want)
		}
	}
}
