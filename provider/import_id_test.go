package provider

import (
	"strings"
	"testing"
)

func TestParseImportID(t *testing.T) {
	id, err := parseImportID("files@https://s3.example:9000?region=eu-1&path_style=true", "region", "path_style")
	if err != nil || id.Name != "files" || id.URL != "https://s3.example:9000" || id.Region != "eu-1" || id.PathStyle == nil || !*id.PathStyle {
		t.Fatalf("got %+v, %v", id, err)
	}
	if id, err := parseImportID("coord"); err != nil || id.URL != "" || id.Name != "coord" {
		t.Fatalf("got %+v, %v", id, err)
	}
	for in, want := range map[string]string{
		"@http://x":                   "has no name",
		"db@ftp://x":                  "not an http:// or https:// URL",
		"db@http://x?region=y":        `unknown parameter "region"`,
		"b@http://x?path_style=maybe": "not true or false",
	} {
		params := []string{}
		if strings.HasPrefix(in, "b@") {
			params = []string{"region", "path_style"}
		}
		if _, err := parseImportID(in, params...); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: err = %v, want %q", in, err, want)
		}
	}
}
