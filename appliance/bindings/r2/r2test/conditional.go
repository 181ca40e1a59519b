package r2test

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

// condCase is a condition and whether it lets the request through, given an
// object with ETag etag uploaded at up.
type condCase struct {
	name string
	cond func(etag string, up time.Time) *worker.R2Conditional
	pass bool
}

// existingCases are RFC 9110 §13.2.2 evaluated against a stored object.
// Times are an hour off the reported Uploaded so a server clock and
// second-precision HTTP dates do not matter.
var existingCases = []condCase{
	{"etagMatches", func(e string, _ time.Time) *worker.R2Conditional { return &worker.R2Conditional{EtagMatches: e} }, true},
	{"etagMatches quoted", func(e string, _ time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagMatches: `"` + e + `"`}
	}, true},
	{"etagMatches star", func(string, time.Time) *worker.R2Conditional { return &worker.R2Conditional{EtagMatches: "*"} }, true},
	{"etagMatches other", func(string, time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagMatches: "0123456789abcdef0123456789abcdef"}
	}, false},
	{"etagDoesNotMatch other", func(string, time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagDoesNotMatch: "0123456789abcdef0123456789abcdef"}
	}, true},
	{"etagDoesNotMatch same", func(e string, _ time.Time) *worker.R2Conditional { return &worker.R2Conditional{EtagDoesNotMatch: e} }, false},
	{"etagDoesNotMatch quoted", func(e string, _ time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagDoesNotMatch: `"` + e + `"`}
	}, false},
	{"etagDoesNotMatch star", func(string, time.Time) *worker.R2Conditional { return &worker.R2Conditional{EtagDoesNotMatch: "*"} }, false},
	{"uploadedBefore later", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{UploadedBefore: up.Add(time.Hour)}
	}, true},
	{"uploadedBefore earlier", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{UploadedBefore: up.Add(-time.Hour)}
	}, false},
	{"uploadedAfter earlier", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{UploadedAfter: up.Add(-time.Hour)}
	}, true},
	{"uploadedAfter later", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{UploadedAfter: up.Add(time.Hour)}
	}, false},
	{"etagMatches overrides uploadedBefore", func(e string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagMatches: e, UploadedBefore: up.Add(-time.Hour)}
	}, true},
	{"etagDoesNotMatch overrides uploadedAfter", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagDoesNotMatch: "0123456789abcdef0123456789abcdef", UploadedAfter: up.Add(time.Hour)}
	}, true},
	{"etagMatches and etagDoesNotMatch", func(e string, _ time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{EtagMatches: e, EtagDoesNotMatch: e}
	}, false},
	{"uploadedBefore and uploadedAfter", func(_ string, up time.Time) *worker.R2Conditional {
		return &worker.R2Conditional{UploadedBefore: up.Add(time.Hour), UploadedAfter: up.Add(-time.Hour)}
	}, true},
}

func (s *suite) testConditionalGet(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "k"
	body := []byte("conditional body")
	put(t, b, key, body, nil)
	h := head(t, b, key)
	for _, tt := range existingCases {
		t.Run(tt.name, func(t *testing.T) {
			cond := tt.cond(h.ETag, h.Uploaded)
			o, err := b.Get(t.Context(), key, &worker.R2GetOptions{OnlyIf: cond})
			if tt.pass {
				if err != nil {
					t.Fatalf("Get(%+v): %v", cond, err)
				}
				if got := readAll(t, o.Body); !bytes.Equal(got, body) {
					t.Errorf("Get body = %q, want %q", got, body)
				}
				return
			}
			wantErr(t, "Get", err, worker.ErrPreconditionFailed)
			if o == nil {
				t.Fatalf("Get(%+v) returned no object with ErrPreconditionFailed", cond)
			}
			if o.Body != nil {
				o.Body.Close()
				t.Errorf("Get(%+v): Body is set on a failed precondition", cond)
			}
			if o.ETag != h.ETag || o.Size != h.Size || o.Key != key {
				t.Errorf("Get(%+v) metadata = %s/%d/%q, want %s/%d/%q", cond, o.ETag, o.Size, o.Key, h.ETag, h.Size, key)
			}
		})
	}
	t.Run("precondition before range", func(t *testing.T) {
		_, err := b.Get(t.Context(), key, &worker.R2GetOptions{
			OnlyIf: &worker.R2Conditional{EtagMatches: "0123456789abcdef0123456789abcdef"},
			Range:  &worker.R2Range{Offset: 1000},
		})
		wantErr(t, "Get", err, worker.ErrPreconditionFailed)
	})
}

func (s *suite) testConditionalPut(t *testing.T) {
	b, p := s.bucket(t)
	for i, tt := range existingCases {
		t.Run(tt.name, func(t *testing.T) {
			key := p + "case" + string(rune('a'+i))
			put(t, b, key, []byte("old"), nil)
			old := head(t, b, key)
			cond := tt.cond(old.ETag, old.Uploaded)
			o, err := b.Put(t.Context(), key, strings.NewReader("new"), &worker.R2PutOptions{OnlyIf: cond})
			want := []byte("new")
			if tt.pass {
				if err != nil {
					t.Fatalf("Put(%+v): %v", cond, err)
				}
				checkObject(t, "Put", o, key, want)
			} else {
				wantErr(t, "Put", err, worker.ErrPreconditionFailed)
				want = []byte("old")
			}
			checkObject(t, "Head", head(t, b, key), key, want)
		})
	}
	missing := []struct {
		name string
		cond *worker.R2Conditional
		pass bool
	}{
		{"etagDoesNotMatch star creates", &worker.R2Conditional{EtagDoesNotMatch: "*"}, true},
		{"etagDoesNotMatch other creates", &worker.R2Conditional{EtagDoesNotMatch: "0123456789abcdef0123456789abcdef"}, true},
		{"etagMatches star", &worker.R2Conditional{EtagMatches: "*"}, false},
		{"etagMatches other", &worker.R2Conditional{EtagMatches: "0123456789abcdef0123456789abcdef"}, false},
	}
	for _, tt := range missing {
		t.Run("missing "+tt.name, func(t *testing.T) {
			key := p + strings.ReplaceAll(tt.name, " ", "-")
			_, err := b.Put(t.Context(), key, strings.NewReader("x"), &worker.R2PutOptions{OnlyIf: tt.cond})
			if tt.pass {
				if err != nil {
					t.Fatalf("Put(%+v): %v", tt.cond, err)
				}
				head(t, b, key)
				return
			}
			wantErr(t, "Put", err, worker.ErrPreconditionFailed)
			wantNotFound(t, b, key)
		})
	}
	t.Run("create only once", func(t *testing.T) {
		key := p + "once"
		createOnly := &worker.R2PutOptions{OnlyIf: &worker.R2Conditional{EtagDoesNotMatch: "*"}}
		first := put(t, b, key, []byte("first"), createOnly)
		_, err := b.Put(t.Context(), key, strings.NewReader("second"), createOnly)
		wantErr(t, "second create-only Put", err, worker.ErrPreconditionFailed)
		if h := head(t, b, key); h.Version != first.Version {
			t.Errorf("Head: Version = %q, want the first write's %q", h.Version, first.Version)
		}
	})
}
