package jsprojects

import (
	"fmt"
	"net/http"
	"reflect"
	"strings"
	"testing"
)

// note is a note as the notes API answers it.
type note struct {
	ID      int64    `json:"id"`
	Title   string   `json:"title"`
	Body    string   `json:"body"`
	Pinned  bool     `json:"pinned"`
	Tags    []string `json:"tags"`
	Created string   `json:"created_at"`
}

const bookmarkHeader = "X-D1-Bookmark"

// testNotes drives the notes API: migrations applied by the CLI, CRUD
// over D1, zod's messages for bad input, and D1 sessions that carry a
// bookmark from one request to the next (across front doors on a fleet).
func testNotes(t *testing.T, s *site) {
	api := func(i int, path string) string { return s.url(i, "/notes/api"+path) }

	var m struct{ Applied []string }
	do(t, "GET", api(0, "/migrations"), nil).want(t, 200, "migrations").json(t, &m)
	if want := []string{"0001_create_notes.sql", "0002_tags_and_pins.sql"}; !reflect.DeepEqual(m.Applied, want) {
		t.Fatalf("migrations applied = %q, want %q", m.Applied, want)
	}

	r := do(t, "POST", api(0, "/notes"), map[string]any{"title": "  Groceries ", "body": "milk, eggs", "tags": []string{"shopping", "home"}, "pinned": true}).want(t, 201, "create")
	var a note
	r.json(t, &a)
	if a.ID == 0 || a.Title != "Groceries" || a.Body != "milk, eggs" || !a.Pinned || !reflect.DeepEqual(a.Tags, []string{"home", "shopping"}) || a.Created == "" {
		t.Fatalf("created note = %+v", a)
	}
	bm := r.header.Get(bookmarkHeader)
	if bm == "" {
		t.Fatalf("create answered no %s", bookmarkHeader)
	}

	// Read it back through the other door, in a session from the write's bookmark.
	r = do(t, "GET", api(1, fmt.Sprintf("/notes/%d", a.ID)), nil, bookmarkHeader, bm).want(t, 200, "read own write")
	var got note
	r.json(t, &got)
	if !reflect.DeepEqual(got, a) {
		t.Errorf("read back %+v, want %+v", got, a)
	}
	if b := r.header.Get(bookmarkHeader); b < bm {
		t.Errorf("read's bookmark %q is behind the write's %q", b, bm)
	}

	t.Run("validation", func(t *testing.T) {
		for _, tc := range []struct {
			name, method, path string
			body               any
			wantError, path2   string
		}{
			{"empty title", "POST", "/notes", map[string]any{"title": "   ", "body": "x"}, "title must not be empty", "title"},
			{"long title", "POST", "/notes", map[string]any{"title": strings.Repeat("t", 201), "body": ""}, "title must be at most 200 characters", "title"},
			{"bad tag", "POST", "/notes", map[string]any{"title": "t", "body": "b", "tags": []string{"ok", "Not OK"}}, "a tag is 1 to 32 lowercase letters, digits and dashes", "tags.1"},
			{"too many tags", "POST", "/notes", map[string]any{"title": "t", "body": "b", "tags": []string{"a", "b", "c", "d", "e", "f"}}, "a note has at most 5 tags", "tags"},
			{"pinned not a boolean", "POST", "/notes", map[string]any{"title": "t", "body": "b", "pinned": "yes"}, "Invalid input: expected boolean, received string", "pinned"},
			{"not JSON", "POST", "/notes", "{title:", "the body must be JSON", ""},
			{"empty change", "PATCH", fmt.Sprintf("/notes/%d", a.ID), map[string]any{}, "a change names at least one field", ""},
			{"bad filter", "GET", "/notes?tag=No%20Spaces", nil, "a tag is 1 to 32 lowercase letters, digits and dashes", "tag"},
		} {
			t.Run(tc.name, func(t *testing.T) {
				var e struct{ Error, Path string }
				do(t, tc.method, api(0, tc.path), tc.body).want(t, 400, tc.name).json(t, &e)
				if e.Error != tc.wantError || e.Path != tc.path2 {
					t.Errorf("got error %q at %q, want %q at %q", e.Error, e.Path, tc.wantError, tc.path2)
				}
			})
		}
	})

	var b note
	do(t, "POST", api(1, "/notes"), map[string]any{"title": "Ideas", "body": "a D1 app"}).want(t, 201, "create b").json(t, &b)
	if b.Pinned || len(b.Tags) != 0 {
		t.Fatalf("defaults: got %+v, want unpinned without tags", b)
	}

	list := func(q string) []int64 {
		t.Helper()
		var l struct{ Notes []note }
		do(t, "GET", api(0, "/notes"+q), nil).want(t, 200, "list "+q).json(t, &l)
		ids := []int64{}
		for _, n := range l.Notes {
			ids = append(ids, n.ID)
		}
		return ids
	}
	for _, tc := range []struct {
		q    string
		want []int64
	}{
		{"", []int64{a.ID, b.ID}},
		{"?tag=shopping", []int64{a.ID}},
		{"?pinned=false", []int64{b.ID}},
		{"?tag=shopping&pinned=false", []int64{}},
	} {
		if got := list(tc.q); !reflect.DeepEqual(got, tc.want) {
			t.Errorf("list%s = %v, want %v", tc.q, got, tc.want)
		}
	}

	var changed note
	do(t, "PATCH", api(1, fmt.Sprintf("/notes/%d", a.ID)), map[string]any{"title": "Errands", "tags": []string{"errands"}}).want(t, 200, "patch").json(t, &changed)
	if changed.Title != "Errands" || changed.Body != a.Body || !reflect.DeepEqual(changed.Tags, []string{"errands"}) {
		t.Errorf("patched note = %+v", changed)
	}
	do(t, "PATCH", api(0, "/notes/999999"), map[string]any{"pinned": false}).want(t, 404, "patch a missing note")

	var st struct {
		Notes int
		Tags  map[string]int
	}
	do(t, "GET", api(0, "/stats"), nil).want(t, 200, "stats").json(t, &st)
	if st.Notes != 2 || !reflect.DeepEqual(st.Tags, map[string]int{"errands": 1}) {
		t.Errorf("stats = %+v, want 2 notes and tags {errands: 1}", st)
	}

	do(t, "DELETE", api(0, fmt.Sprintf("/notes/%d", b.ID)), nil).want(t, 204, "delete")
	do(t, "DELETE", api(1, fmt.Sprintf("/notes/%d", b.ID)), nil).want(t, 404, "delete again")
	do(t, "GET", api(1, fmt.Sprintf("/notes/%d", b.ID)), nil).want(t, 404, "read a deleted note")

	t.Run("sessions", func(t *testing.T) {
		// Each write's bookmark is ahead of the last, and a read that
		// sends it sees the write, whichever door serves it.
		last := ""
		for i := range 6 {
			title := fmt.Sprintf("version %d", i)
			r := do(t, "PATCH", api(i, fmt.Sprintf("/notes/%d", a.ID)), map[string]any{"title": title}, bookmarkHeader, last).want(t, 200, "write in a session")
			bm := r.header.Get(bookmarkHeader)
			if bm <= last {
				t.Fatalf("write %d: bookmark %q is not ahead of %q", i, bm, last)
			}
			last = bm
			var n note
			do(t, "GET", api(i+1, fmt.Sprintf("/notes/%d", a.ID)), nil, bookmarkHeader, bm).want(t, 200, "read in a session").json(t, &n)
			if n.Title != title {
				t.Fatalf("read after write %d: title %q, want %q", i, n.Title, title)
			}
		}
		r := do(t, "GET", api(0, fmt.Sprintf("/notes/%d", a.ID)), nil, bookmarkHeader, "not-a-bookmark")
		if r.status != http.StatusBadRequest || !strings.Contains(string(r.body), "bookmark") {
			t.Errorf("a malformed bookmark: got %s, want 400 naming the bookmark", r)
		}
	})
}
