package r2test

import (
	"fmt"
	"slices"
	"sync"
	"testing"

	"github.com/dwk/fleet/appliance/worker"
)

func objectKeys(objs []worker.R2Object) []string {
	keys := make([]string, len(objs))
	for i, o := range objs {
		keys[i] = o.Key
	}
	return keys
}

func sortedCopy(keys []string) []string { return slices.Sorted(slices.Values(keys)) }

func equalStrings(a, b []string) bool { return slices.Equal(a, b) || len(a)+len(b) == 0 }

// putKeys stores each key with the key as its body, eight at a time.
func putKeys(t *testing.T, b worker.R2Bucket, keys []string) {
	t.Helper()
	sem := make(chan struct{}, 8)
	var wg sync.WaitGroup
	errs := make(chan error, len(keys))
	for _, key := range keys {
		wg.Go(func() {
			sem <- struct{}{}
			defer func() { <-sem }()
			if _, err := b.Put(t.Context(), key, nil, nil); err != nil {
				errs <- fmt.Errorf("Put(%q): %w", key, err)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
}

// list returns one page and fails the test on error.
func list(t *testing.T, b worker.R2Bucket, opts worker.R2ListOptions) *worker.R2Objects {
	t.Helper()
	page, err := b.List(t.Context(), &opts)
	if err != nil {
		t.Fatalf("List(%+v): %v", opts, err)
	}
	return page
}

func (s *suite) testListOrder(t *testing.T) {
	b, p := s.bucket(t)
	names := []string{"é", "a0", "~", "a/b", "B", "a-b"}
	var keys []string
	for _, n := range names {
		keys = append(keys, p+n)
	}
	putKeys(t, b, keys)
	page := list(t, b, worker.R2ListOptions{Prefix: p})
	want := []string{p + "B", p + "a-b", p + "a/b", p + "a0", p + "~", p + "é"}
	if got := objectKeys(page.Objects); !slices.Equal(got, want) {
		t.Errorf("List keys = %q, want byte order %q", got, want)
	}
	if page.Truncated || len(page.DelimitedPrefixes) != 0 {
		t.Errorf("List: Truncated = %v, DelimitedPrefixes = %q; want false, none", page.Truncated, page.DelimitedPrefixes)
	}
	for _, o := range page.Objects {
		body := []byte{} // putKeys stores empty bodies
		if o.Size != 0 || o.ETag != md5Hex(body) || o.HTTPETag != `"`+md5Hex(body)+`"` || o.Uploaded.IsZero() {
			t.Errorf("listed %q: Size %d, ETag %q, HTTPETag %q, Uploaded %v", o.Key, o.Size, o.ETag, o.HTTPETag, o.Uploaded)
		}
	}
}

func (s *suite) testListPrefix(t *testing.T) {
	b, p := s.bucket(t)
	putKeys(t, b, []string{p + "x/abc", p + "x/abd", p + "x/ac", p + "y/ab"})
	tests := []struct {
		prefix string
		want   []string
	}{
		{p + "x/ab", []string{p + "x/abc", p + "x/abd"}},
		{p + "x/", []string{p + "x/abc", p + "x/abd", p + "x/ac"}},
		{p + "x/abc", []string{p + "x/abc"}},
		{p + "z", nil},
		{p, []string{p + "x/abc", p + "x/abd", p + "x/ac", p + "y/ab"}},
	}
	for _, tt := range tests {
		page := list(t, b, worker.R2ListOptions{Prefix: tt.prefix})
		if got := objectKeys(page.Objects); !equalStrings(got, tt.want) {
			t.Errorf("List(prefix %q) = %q, want %q", tt.prefix, got, tt.want)
		}
	}
}

func (s *suite) testListDelimiter(t *testing.T) {
	b, p := s.bucket(t)
	putKeys(t, b, []string{
		p + "a/1", p + "a/2", p + "b/x/1", p + "b/y", p + "c", p + "d.txt", p + "e/1",
		p + "dash/f-1-x", p + "dash/f-2", p + "dash/g",
	})
	tests := []struct {
		name       string
		opts       worker.R2ListOptions
		objects    []string
		delimiters []string
	}{
		{"top", worker.R2ListOptions{Prefix: p, Delimiter: "/"},
			[]string{p + "c", p + "d.txt"}, []string{p + "a/", p + "b/", p + "dash/", p + "e/"}},
		{"nested", worker.R2ListOptions{Prefix: p + "b/", Delimiter: "/"},
			[]string{p + "b/y"}, []string{p + "b/x/"}},
		{"partial segment", worker.R2ListOptions{Prefix: p + "d", Delimiter: "/"},
			[]string{p + "d.txt"}, []string{p + "dash/"}},
		{"other delimiter", worker.R2ListOptions{Prefix: p + "dash/", Delimiter: "-"},
			[]string{p + "dash/g"}, []string{p + "dash/f-"}},
		{"startAfter inside a prefix", worker.R2ListOptions{Prefix: p, Delimiter: "/", StartAfter: p + "a/1"},
			[]string{p + "c", p + "d.txt"}, []string{p + "a/", p + "b/", p + "dash/", p + "e/"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			page := list(t, b, tt.opts)
			if got := objectKeys(page.Objects); !equalStrings(got, tt.objects) {
				t.Errorf("Objects = %q, want %q", got, tt.objects)
			}
			if !equalStrings(page.DelimitedPrefixes, tt.delimiters) {
				t.Errorf("DelimitedPrefixes = %q, want %q", page.DelimitedPrefixes, tt.delimiters)
			}
			if page.Truncated {
				t.Errorf("Truncated = true, want false")
			}
		})
	}
}

// testListPagination pages through a mix of objects and delimited prefixes
// with several limits and checks every page is full, in order, and that the
// pages add up to the whole listing.
func (s *suite) testListPagination(t *testing.T) {
	b, p := s.bucket(t)
	var keys, entries []string
	for i := range 40 {
		keys = append(keys, fmt.Sprintf("%sm%02d.txt", p, i))
		entries = append(entries, fmt.Sprintf("%sm%02d.txt", p, i))
		if i%3 == 0 {
			for j := range 3 {
				keys = append(keys, fmt.Sprintf("%sm%02d/%d", p, i, j))
			}
			entries = append(entries, fmt.Sprintf("%sm%02d/", p, i))
		}
	}
	putKeys(t, b, keys)
	for _, limit := range []int{1, 2, 7, 20, 54, 1000} {
		t.Run(fmt.Sprintf("delimited limit %d", limit), func(t *testing.T) {
			got := paginate(t, b, worker.R2ListOptions{Prefix: p, Delimiter: "/", Limit: limit}, len(entries))
			if !slices.Equal(got, entries) {
				t.Errorf("pages add up to\n%q\nwant\n%q", got, entries)
			}
		})
	}
	for _, limit := range []int{3, 1000} {
		t.Run(fmt.Sprintf("flat limit %d", limit), func(t *testing.T) {
			got := paginate(t, b, worker.R2ListOptions{Prefix: p, Limit: limit}, len(keys))
			if want := sortedCopy(keys); !slices.Equal(got, want) {
				t.Errorf("pages add up to\n%q\nwant\n%q", got, want)
			}
		})
	}
}

// paginate lists every page of opts, checks each, and returns the entries
// (object keys and delimited prefixes) in order.
func paginate(t *testing.T, b worker.R2Bucket, opts worker.R2ListOptions, total int) []string {
	t.Helper()
	var all []string
	for pages := 1; ; pages++ {
		page := list(t, b, opts)
		entries := sortedCopy(append(objectKeys(page.Objects), page.DelimitedPrefixes...))
		if len(entries) > opts.Limit {
			t.Fatalf("page %d has %d entries, limit %d", pages, len(entries), opts.Limit)
		}
		all = append(all, entries...)
		if !page.Truncated {
			if len(all) == total && len(entries) == 0 && pages > 1 {
				t.Errorf("page %d is empty: the page before should not have been truncated", pages)
			}
			return all
		}
		if len(entries) != opts.Limit {
			t.Errorf("truncated page %d has %d entries, want the limit %d", pages, len(entries), opts.Limit)
		}
		if page.Cursor == "" {
			t.Fatalf("page %d is truncated but has no cursor", pages)
		}
		if pages > total+1 {
			t.Fatalf("more than %d pages for %d entries", pages, total)
		}
		opts.Cursor = page.Cursor
	}
}

func (s *suite) testListStartAfter(t *testing.T) {
	b, p := s.bucket(t)
	putKeys(t, b, []string{p + "a", p + "b", p + "c", p + "d"})
	tests := []struct {
		after string
		want  []string
	}{
		{"", []string{p + "a", p + "b", p + "c", p + "d"}},
		{p + "b", []string{p + "c", p + "d"}},
		{p + "bb", []string{p + "c", p + "d"}},
		{p + "d", nil},
		{p, []string{p + "a", p + "b", p + "c", p + "d"}},
	}
	for _, tt := range tests {
		page := list(t, b, worker.R2ListOptions{Prefix: p, StartAfter: tt.after})
		if got := objectKeys(page.Objects); !equalStrings(got, tt.want) {
			t.Errorf("List(startAfter %q) = %q, want %q", tt.after, got, tt.want)
		}
	}
	got := paginate(t, b, worker.R2ListOptions{Prefix: p, StartAfter: p + "a", Limit: 1}, 3)
	if want := []string{p + "b", p + "c", p + "d"}; !slices.Equal(got, want) {
		t.Errorf("paged List(startAfter a) = %q, want %q", got, want)
	}
}

func (s *suite) testListLimit(t *testing.T) {
	b, p := s.bucket(t)
	keys := make([]string, 1001)
	for i := range keys {
		keys[i] = fmt.Sprintf("%s%04d", p, i)
	}
	putKeys(t, b, keys)
	for _, limit := range []int{0, 5000} {
		page := list(t, b, worker.R2ListOptions{Prefix: p, Limit: limit})
		if len(page.Objects) != 1000 || !page.Truncated || page.Cursor == "" {
			t.Errorf("List(limit %d): %d objects, Truncated %v, Cursor %q; want 1000, true, a cursor",
				limit, len(page.Objects), page.Truncated, page.Cursor)
			continue
		}
		rest := list(t, b, worker.R2ListOptions{Prefix: p, Limit: limit, Cursor: page.Cursor})
		if got := objectKeys(rest.Objects); !slices.Equal(got, keys[1000:]) || rest.Truncated {
			t.Errorf("second page (limit %d) = %q, Truncated %v; want %q, false", limit, got, rest.Truncated, keys[1000:])
		}
	}
	if _, err := b.List(t.Context(), &worker.R2ListOptions{Prefix: p, Limit: -1}); err == nil {
		t.Errorf("List(limit -1): err = nil, want an error")
	}
}
