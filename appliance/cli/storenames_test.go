package cli

import (
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/config"
	"github.com/dwk/fleet/appliance/jsworker/wrangler"
)

// namesTarget is a dwk.json with a Workers project (notes) and a Go
// worker (chat) that binds the same KV binding name to another namespace.
func namesTarget() *target {
	notes := boundWorker{
		cfg: config.Worker{Name: "notes", Bindings: config.Bindings{
			D1: map[string]string{"DB": "notes-db"}, KV: map[string]string{"NOTES": "abc123"}, R2: map[string]string{"FILES": "notes-files"},
		}},
		wr: &wrangler.Project{D1Databases: []wrangler.D1Database{{
			Binding: "DB", DatabaseName: "Notes DB", MigrationsDir: "/p/db", MigrationsTable: "schema_log", MigrationsPattern: "/p/db/*/migration.sql",
		}}},
		dir: "/p",
	}
	chat := boundWorker{
		cfg: config.Worker{Name: "chat", Bindings: config.Bindings{
			D1: map[string]string{"CHAT": "chat"}, KV: map[string]string{"NOTES": "other"},
		}},
		dir: "/etc/dwk",
	}
	return &target{path: "dwk.json", workers: []boundWorker{notes, chat}}
}

func TestResolveD1(t *testing.T) {
	tests := []struct {
		name string
		want d1Ref
		err  string
	}{
		{"DB", d1Ref{label: "DB (Notes DB)", store: "notes-db", dir: "/p/db", pattern: "*/migration.sql", table: "schema_log"}, ""},
		{"Notes DB", d1Ref{label: "DB (Notes DB)", store: "notes-db", dir: "/p/db", pattern: "*/migration.sql", table: "schema_log"}, ""},
		{"notes-db", d1Ref{label: "DB (Notes DB)", store: "notes-db", dir: "/p/db", pattern: "*/migration.sql", table: "schema_log"}, ""},
		{"CHAT", d1Ref{label: "CHAT (chat)", store: "chat", dir: "/etc/dwk/migrations"}, ""},
		{"chat", d1Ref{label: "CHAT (chat)", store: "chat", dir: "/etc/dwk/migrations"}, ""},
		{"nope", d1Ref{}, `no D1 database is named or bound as "nope" in dwk.json; it has CHAT (database chat), DB (database Notes DB)`},
	}
	for _, tt := range tests {
		got, err := namesTarget().resolveD1(tt.name)
		if tt.err != "" {
			if err == nil || err.Error() != tt.err {
				t.Errorf("resolveD1(%q) error = %v, want %q", tt.name, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("resolveD1(%q) = %+v, %v; want %+v", tt.name, got, err, tt.want)
		}
	}
}

func TestResolveKV(t *testing.T) {
	tests := []struct {
		binding, id string
		workers     []int // indexes into namesTarget's workers; nil for all
		want, err   string
	}{
		{"NOTES", "", []int{0}, "abc123", ""},
		{"NOTES", "", []int{1}, "other", ""},
		{"NOTES", "", nil, "", "pass --worker NAME"},
		{"", "ABC 123", nil, "abc-123", ""},
		{"NOPE", "", nil, "", `no KV namespace is bound as "NOPE" in dwk.json; its KV bindings are NOTES`},
		{"", "", nil, "", "pass --binding NAME"},
		{"NOTES", "abc", nil, "", "pass --binding NAME"},
	}
	for _, tt := range tests {
		tg := namesTarget()
		if tt.workers != nil {
			var ws []boundWorker
			for _, i := range tt.workers {
				ws = append(ws, tg.workers[i])
			}
			tg.workers = ws
		}
		got, err := tg.resolveKV(tt.binding, tt.id)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("resolveKV(%q, %q) error = %v, want one with %q", tt.binding, tt.id, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("resolveKV(%q, %q) = %q, %v; want %q", tt.binding, tt.id, got, err, tt.want)
		}
	}
}

func TestResolveR2(t *testing.T) {
	tests := []struct{ bucket, want string }{
		{"notes-files", "notes-files"},
		{"FILES", "notes-files"},
		{"Other_Bucket", "other_bucket"},
	}
	for _, tt := range tests {
		if got, err := namesTarget().resolveR2(tt.bucket); err != nil || got != tt.want {
			t.Errorf("resolveR2(%q) = %q, %v; want %q", tt.bucket, got, err, tt.want)
		}
	}
}

func TestSplitObjectPath(t *testing.T) {
	tests := []struct{ path, bucket, key string }{
		{"files/a/b.txt", "files", "a/b.txt"},
		{"files/", "", ""},
		{"files", "", ""},
		{"/key", "", ""},
	}
	for _, tt := range tests {
		b, k, err := splitObjectPath(tt.path)
		if (err != nil) != (tt.bucket == "") || b != tt.bucket || k != tt.key {
			t.Errorf("splitObjectPath(%q) = %q, %q, %v; want %q, %q", tt.path, b, k, err, tt.bucket, tt.key)
		}
	}
}
