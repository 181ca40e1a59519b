package wrangler

import "testing"

func TestClassNamespacesFollowRenames(t *testing.T) {
	p := &Project{
		Migrations: []Migration{
			{Tag: "v1", NewClasses: []string{"Counter"}, NewSQLiteClasses: []string{"ChatRoom", "Temp"}},
			{Tag: "v2", RenamedClasses: []RenamedClass{{From: "ChatRoom", To: "Room"}}},
			{Tag: "v3", RenamedClasses: []RenamedClass{{From: "Room", To: "Lobby"}}, DeletedClasses: []string{"Temp"}},
			{Tag: "v4", NewSQLiteClasses: []string{"Room"}, RenamedClasses: []RenamedClass{{From: "Counter", To: "Tally"}}},
			{Tag: "v5", DeletedClasses: []string{"Tally"}},
		},
		DurableObjects: []DurableObjectBinding{
			{Name: "LOBBY", ClassName: "Lobby"},
			{Name: "LOOSE", ClassName: "Unmigrated"},
			{Name: "REMOTE", ClassName: "Elsewhere", ScriptName: "other-worker"},
		},
	}
	wantNS := map[string]string{"Lobby": "ChatRoom", "Room": "Room", "Unmigrated": "Unmigrated"}
	if d := diff(p.ClassNamespaces(), wantNS); d != "" {
		t.Errorf("ClassNamespaces%s", d)
	}
	wantDeleted := []DeletedClass{
		{Name: "Temp", Namespace: "Temp", Tag: "v3"},
		{Name: "Tally", Namespace: "Counter", Tag: "v5"},
	}
	if d := diff(p.DeletedClasses(), wantDeleted); d != "" {
		t.Errorf("DeletedClasses%s", d)
	}
	wantClasses := []DurableObjectClass{
		{Name: "Lobby", Namespace: "ChatRoom", SQLite: true},
		{Name: "Room", Namespace: "Room", SQLite: true},
	}
	if d := diff(p.DurableObjectClasses(), wantClasses); d != "" {
		t.Errorf("DurableObjectClasses%s", d)
	}
}

func TestReplayErrors(t *testing.T) {
	tests := []struct {
		name    string
		ms      []Migration
		wantAt  int
		wantMsg string
	}{
		{"duplicate tag", []Migration{{Tag: "v1"}, {Tag: "v2"}, {Tag: "v1"}}, 2,
			`tag "v1" is already used by migrations[0]: every migration needs its own tag`},
		{"created twice", []Migration{{Tag: "v1", NewClasses: []string{"A"}}, {Tag: "v2", NewSQLiteClasses: []string{"A"}}}, 1,
			`creates class "A", which already exists`},
		{"renamed from nothing", []Migration{{Tag: "v1", RenamedClasses: []RenamedClass{{From: "A", To: "B"}}}}, 0,
			`renames class "A", which no earlier migration created (or it was already renamed or deleted)`},
		{"renamed from an old name", []Migration{
			{Tag: "v1", NewClasses: []string{"A"}},
			{Tag: "v2", RenamedClasses: []RenamedClass{{From: "A", To: "B"}}},
			{Tag: "v3", RenamedClasses: []RenamedClass{{From: "A", To: "C"}}},
		}, 2, `renames class "A", which no earlier migration created (or it was already renamed or deleted)`},
		{"renamed onto a live class", []Migration{{Tag: "v1", NewClasses: []string{"A", "B"}, RenamedClasses: []RenamedClass{{From: "A", To: "B"}}}}, 0,
			`renames class "A" to "B", which already exists`},
		{"deleted twice", []Migration{{Tag: "v1", NewClasses: []string{"A"}}, {Tag: "v2", DeletedClasses: []string{"A"}}, {Tag: "v3", DeletedClasses: []string{"A"}}}, 2,
			`deletes class "A", which no earlier migration created (or it was already renamed or deleted)`},
		{"a deleted class's name reused", []Migration{{Tag: "v1", NewClasses: []string{"A"}}, {Tag: "v2", DeletedClasses: []string{"A"}}, {Tag: "v3", NewClasses: []string{"A"}}}, 2,
			`creates class "A", but a class of that name was created by migration "v1" and since renamed or deleted; dwk keeps storage by a class's first name, so give the new class another name`},
		{"a renamed class's first name reused", []Migration{{Tag: "v1", NewClasses: []string{"A"}}, {Tag: "v2", RenamedClasses: []RenamedClass{{From: "A", To: "B"}}, NewSQLiteClasses: []string{"A"}}}, 1,
			`creates class "A", which already exists`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := replay(tt.ms, nil)
			if err == nil {
				t.Fatalf("replay succeeded; want %q at migrations[%d]", tt.wantMsg, tt.wantAt)
			}
			if err.migration != tt.wantAt || err.msg != tt.wantMsg {
				t.Errorf("got migrations[%d]: %s\nwant migrations[%d]: %s", err.migration, err.msg, tt.wantAt, tt.wantMsg)
			}
		})
	}
}

func TestDurableObjectWarnings(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"no migrations", minimal + "[[durable_objects.bindings]]\nname = \"ROOM\"\nclass_name = \"Room\"\n", []string{
			`wrangler.toml: durable_objects.bindings[0].class_name: class "Room" is created by no migration, so dwk cannot tell how its storage began; add a migration, such as tag = "v1" with new_sqlite_classes = ["Room"]`,
		}},
		{"another worker's class needs no migration", minimal + "[[durable_objects.bindings]]\nname = \"ROOM\"\nclass_name = \"Room\"\nscript_name = \"rooms\"\n", nil},
		{"migrated class", minimal + "[[durable_objects.bindings]]\nname = \"ROOM\"\nclass_name = \"Room\"\n[[migrations]]\ntag = \"v1\"\nnew_sqlite_classes = [\"Room\"]\n", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p, err := load(t, "wrangler.toml", tt.src, Options{})
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, w := range p.Warnings {
				got = append(got, w.String())
			}
			if d := diff(got, tt.want); d != "" {
				t.Errorf("warnings%s", d)
			}
		})
	}
}
