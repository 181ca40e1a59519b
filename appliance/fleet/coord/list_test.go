package coord

import (
	"errors"
	"math"
	"slices"
	"testing"

	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// mixedKeys are keys of every part type under the prefix ("p").
var mixedKeys = []tuple.Key{
	{"p", []byte{}},
	{"p", []byte{0}},
	{"p", []byte{0, 1}},
	{"p", ""},
	{"p", "a"},
	{"p", "a", int64(1)},
	{"p", "a\x00"},
	{"p", "b"},
	{"p", int64(math.MinInt64)},
	{"p", int64(-1)},
	{"p", int64(0)},
	{"p", int64(300)},
	{"p", -0.5},
	{"p", 0.0},
	{"p", math.Inf(1)},
	{"p", false},
	{"p", true},
}

func TestList(t *testing.T) {
	srv := startServer(t)
	s := srv.open(t, Options{})
	ctx := ctxFor(t)
	a := s.Atomic()
	// Insert in scrambled order, plus keys outside the prefix and the
	// prefix key itself.
	for i := len(mixedKeys) - 1; i >= 0; i -= 2 {
		a.Set(mixedKeys[i], []byte(mixedKeys[i].String()), 0)
	}
	for i := len(mixedKeys) - 2; i >= 0; i -= 2 {
		a.Set(mixedKeys[i], []byte(mixedKeys[i].String()), 0)
	}
	a.Set(tuple.Key{"p"}, []byte("prefix itself"), 0).
		Set(tuple.Key{"o"}, []byte("before"), 0).
		Set(tuple.Key{"q"}, []byte("after"), 0).
		Set(tuple.Key{"p\x00"}, []byte("string extension, not a tuple extension"), 0)
	mustCommit(t, a)

	want := slices.Clone(mixedKeys)
	slices.SortFunc(want, tuple.Compare)
	if !slices.EqualFunc(want, mixedKeys, tuple.Equal) {
		t.Fatal("mixedKeys is not in tuple order")
	}

	keysOf := func(es []Entry) []tuple.Key {
		out := make([]tuple.Key, len(es))
		for i, e := range es {
			out[i] = e.Key
			if string(e.Value) != e.Key.String() && len(e.Key) == 2 {
				t.Errorf("value of %v = %q", e.Key, e.Value)
			}
		}
		return out
	}
	listAll := func(sel Selector, o ListOptions) ([]tuple.Key, int) {
		t.Helper()
		var got []tuple.Key
		pages := 0
		for {
			page, err := s.List(ctx, sel, o)
			if err != nil {
				t.Fatalf("List(%+v, %+v): %v", sel, o, err)
			}
			pages++
			got = append(got, keysOf(page.Entries)...)
			if page.Cursor == "" {
				return got, pages
			}
			if pages > 100 {
				t.Fatal("pagination does not end")
			}
			o.Cursor = page.Cursor
		}
	}

	t.Run("Prefix", func(t *testing.T) {
		got, pages := listAll(Selector{Prefix: tuple.Key{"p"}}, ListOptions{})
		if !slices.EqualFunc(got, want, tuple.Equal) || pages != 1 {
			t.Errorf("List(prefix p) = %v in %d pages, want %v", got, pages, want)
		}
	})
	t.Run("Pagination", func(t *testing.T) {
		got, pages := listAll(Selector{Prefix: tuple.Key{"p"}}, ListOptions{Limit: 3})
		if !slices.EqualFunc(got, want, tuple.Equal) || pages != (len(want)+2)/3 {
			t.Errorf("paginated = %v in %d pages, want %v in %d", got, pages, want, (len(want)+2)/3)
		}
	})
	t.Run("ReversePagination", func(t *testing.T) {
		rev := slices.Clone(want)
		slices.Reverse(rev)
		got, _ := listAll(Selector{Prefix: tuple.Key{"p"}}, ListOptions{Limit: 4, Reverse: true})
		if !slices.EqualFunc(got, rev, tuple.Equal) {
			t.Errorf("reverse = %v, want %v", got, rev)
		}
	})
	t.Run("StartEnd", func(t *testing.T) {
		got, _ := listAll(Selector{Prefix: tuple.Key{"p"}, Start: tuple.Key{"p", "a"}, End: tuple.Key{"p", int64(300)}}, ListOptions{Limit: 2})
		if w := want[4:11]; !slices.EqualFunc(got, w, tuple.Equal) {
			t.Errorf("[a, 300) = %v, want %v", got, w)
		}
		got, _ = listAll(Selector{Start: tuple.Key{"o"}, End: tuple.Key{"p", []byte{0, 1}}}, ListOptions{})
		if w := []tuple.Key{{"o"}, {"p"}, {"p", []byte{}}, {"p", []byte{0}}}; !slices.EqualFunc(got, w, tuple.Equal) {
			t.Errorf("[o, (p, 0x0001)) = %v, want %v", got, w)
		}
	})
	t.Run("Everything", func(t *testing.T) {
		got, _ := listAll(Selector{}, ListOptions{Limit: 5})
		if len(got) != len(mixedKeys)+4 || !tuple.Equal(got[0], tuple.Key{"o"}) || !tuple.Equal(got[len(got)-1], tuple.Key{"q"}) {
			t.Errorf("all keys = %v", got)
		}
	})
	t.Run("MaxValueBytes", func(t *testing.T) {
		page, err := s.List(ctx, Selector{Prefix: tuple.Key{"p"}}, ListOptions{MaxValueBytes: 3})
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range page.Entries {
			if full := e.Key.String(); string(e.Value) != full[:min(3, len(full))] {
				t.Errorf("value of %v = %q, want its first 3 bytes", e.Key, e.Value)
			}
		}
	})
	t.Run("Cursors", func(t *testing.T) {
		page, err := s.List(ctx, Selector{Prefix: tuple.Key{"p"}}, ListOptions{Limit: 2})
		if err != nil || page.Cursor == "" {
			t.Fatalf("first page: %+v, %v", page, err)
		}
		for _, tt := range []struct {
			name string
			sel  Selector
			o    ListOptions
			want error
		}{
			{"garbage", Selector{Prefix: tuple.Key{"p"}}, ListOptions{Cursor: "!!"}, ErrInvalidCursor},
			{"other direction", Selector{Prefix: tuple.Key{"p"}}, ListOptions{Cursor: page.Cursor, Reverse: true}, ErrInvalidCursor},
			{"other selector", Selector{Prefix: tuple.Key{"q"}}, ListOptions{Cursor: page.Cursor}, ErrInvalidCursor},
			{"limit", Selector{}, ListOptions{Limit: MaxListLimit + 1}, ErrInvalidLimit},
			{"bad prefix", Selector{Prefix: tuple.Key{uint8(1)}}, ListOptions{}, ErrInvalidKey},
		} {
			if _, err := s.List(ctx, tt.sel, tt.o); !errors.Is(err, tt.want) {
				t.Errorf("%s: err = %v, want %v", tt.name, err, tt.want)
			}
		}
	})
}
