package provider

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
)

// importID is a parsed import id, NAME or NAME@URL: the URL names the
// store when the resource overrides the provider's connection (dwk_bucket's
// s3.endpoint, with region and path_style as query parameters;
// dwk_database's libsql.admin_url). Credentials never go in an id: they
// come from the provider's configuration or its environment.
type importID struct {
	Name   string
	URL    string // without the query; "" for NAME alone
	Region string
	// PathStyle is nil unless the query sets path_style.
	PathStyle *bool
}

// parseImportID parses id; params are the query parameters the resource
// takes.
func parseImportID(id string, params ...string) (importID, error) {
	name, rest, found := strings.Cut(id, "@")
	out := importID{Name: name}
	if name == "" {
		return out, fmt.Errorf("import id %q has no name; use NAME or NAME@URL", id)
	}
	if !found {
		return out, nil
	}
	u, err := url.Parse(rest)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return out, fmt.Errorf("import id %q: %q after @ is not an http:// or https:// URL", id, rest)
	}
	q := u.Query()
	for k := range q {
		if !contains(params, k) {
			return out, fmt.Errorf("import id %q: unknown parameter %q (this resource takes %s)", id, k, paramList(params))
		}
	}
	out.Region = q.Get("region")
	if v := q.Get("path_style"); v != "" {
		b, err := strconv.ParseBool(v)
		if err != nil {
			return out, fmt.Errorf("import id %q: path_style=%q is not true or false", id, v)
		}
		out.PathStyle = &b
	}
	u.RawQuery = ""
	out.URL = u.String()
	return out, nil
}

func contains(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func paramList(params []string) string {
	if len(params) == 0 {
		return "none"
	}
	return strings.Join(params, ", ")
}
