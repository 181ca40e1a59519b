package wrangler

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestFindPrecedence(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  string
	}{
		{"json first", []string{"wrangler.toml", "wrangler.jsonc", "wrangler.json"}, "wrangler.json"},
		{"then jsonc", []string{"wrangler.toml", "wrangler.jsonc"}, "wrangler.jsonc"},
		{"then toml", []string{"wrangler.toml"}, "wrangler.toml"},
		{"other files do not count", []string{"wrangler.yaml", "package.json", "wrangler.toml"}, "wrangler.toml"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			for _, f := range tt.files {
				if err := os.WriteFile(filepath.Join(dir, f), nil, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			got, err := Find(dir)
			if err != nil {
				t.Fatal(err)
			}
			if want := filepath.Join(dir, tt.want); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
		})
	}
}

func TestFindNothing(t *testing.T) {
	dir := t.TempDir()
	_, err := Find(dir)
	if !errors.Is(err, ErrNotFound) {
		t.Fatalf("got %v, want ErrNotFound", err)
	}
	want := "no wrangler configuration file in " + dir + ": looked for wrangler.json, wrangler.jsonc, wrangler.toml"
	if err.Error() != want {
		t.Errorf("got %q, want %q", err, want)
	}
}

func TestFindDirectoryNamedLikeTheFile(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "wrangler.json"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := Find(dir); err == nil {
		t.Fatal("Find succeeded on a directory named wrangler.json")
	}
}
