package wrangler

import "testing"

func TestSuggest(t *testing.T) {
	known := []string{"kv_namespaces", "d1_databases", "name", "main", "vars", "compatibility_date"}
	tests := []struct{ word, want string }{
		{"kv_namspaces", "kv_namespaces"},
		{"d1_database", "d1_databases"},
		{"compatability_date", "compatibility_date"},
		{"nme", "name"},
		{"var", "vars"},
		{"x", ""},
		{"routez", ""},
		{"completely_different", ""},
	}
	for _, tt := range tests {
		if got := suggest(tt.word, known); got != tt.want {
			t.Errorf("suggest(%q) = %q, want %q", tt.word, got, tt.want)
		}
	}
}

func TestEditDistance(t *testing.T) {
	tests := []struct {
		a, b string
		want int
	}{
		{"", "", 0}, {"a", "", 1}, {"", "abc", 3}, {"kitten", "sitting", 3}, {"main", "main", 0}, {"ab", "ba", 2},
	}
	for _, tt := range tests {
		if got := editDistance(tt.a, tt.b); got != tt.want {
			t.Errorf("editDistance(%q, %q) = %d, want %d", tt.a, tt.b, got, tt.want)
		}
	}
}

func TestJoin(t *testing.T) {
	tests := []struct{ path, key, want string }{
		{"", "name", "name"},
		{"env.staging", "vars", "env.staging.vars"},
		{"vars", "API-KEY", "vars.API-KEY"},
		{"vars", "a.b", `vars["a.b"]`},
		{"alias", "@scope/pkg", `alias["@scope/pkg"]`},
		{"", "$schema", "$schema"},
	}
	for _, tt := range tests {
		if got := join(tt.path, tt.key); got != tt.want {
			t.Errorf("join(%q, %q) = %q, want %q", tt.path, tt.key, got, tt.want)
		}
	}
}
