package artifact

import "testing"

func TestIgnoreRules(t *testing.T) {
	tests := []struct {
		rules string
		name  string
		dir   bool
		want  bool
	}{
		// wrangler's defaults, at the root only
		{"", ".assetsignore", false, true},
		{"", "_headers", false, true},
		{"", "_redirects", false, true},
		{"", "docs/_headers", false, false},
		{"", ".well-known", true, false},
		{"", "index.html", false, false},
		// a name without '/' matches at any depth, files and directories
		{"*.map", "app.js.map", false, true},
		{"*.map", "js/app.js.map", false, true},
		{"*.map", "app.js", false, false},
		{"drafts", "drafts", true, true},
		{"drafts", "a/drafts", true, true},
		{"drafts", "drafts", false, true},
		// a trailing '/' matches directories only
		{"drafts/", "drafts", true, true},
		{"drafts/", "drafts", false, false},
		// a leading or middle '/' anchors at the root
		{"/secret.txt", "secret.txt", false, true},
		{"/secret.txt", "a/secret.txt", false, false},
		{"a/b.txt", "a/b.txt", false, true},
		{"a/b.txt", "x/a/b.txt", false, false},
		// "**"
		{"**/tmp", "tmp", true, true},
		{"**/tmp", "a/b/tmp", true, true},
		{"a/**/z", "a/z", false, true},
		{"a/**/z", "a/b/c/z", false, true},
		{"a/**", "a/x", false, true},
		{"a/**", "a", true, false},
		// '*' matches a leading dot, as in gitignore
		{"*", ".env", false, true},
		// negation: the last matching rule wins
		{"*.txt\n!keep.txt", "keep.txt", false, false},
		{"*.txt\n!keep.txt", "drop.txt", false, true},
		{"!keep.txt\n*.txt", "keep.txt", false, true},
		// classes, '?', escapes, comments, blank lines, CRLF
		{"file[0-9].txt", "file7.txt", false, true},
		{"file[!0-9].txt", "file7.txt", false, false},
		{"file[!0-9].txt", "filex.txt", false, true},
		{"?.txt", "a.txt", false, true},
		{"?.txt", "ab.txt", false, false},
		{`\#notes`, "#notes", false, true},
		{"# comment", "# comment", false, false},
		{"\n\n  \nx\r\n", "x", false, true},
		{`\!bang`, "!bang", false, true},
		{"trailing   ", "trailing", false, true},
	}
	for _, tt := range tests {
		if got := parseIgnore(tt.rules).ignored(tt.name, tt.dir); got != tt.want {
			t.Errorf("rules %q: ignored(%q, dir=%t) = %t, want %t", tt.rules, tt.name, tt.dir, got, tt.want)
		}
	}
}
