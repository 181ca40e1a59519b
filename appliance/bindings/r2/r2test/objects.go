package r2test

import (
	"bytes"
	"crypto/md5"
	"crypto/sha256"
	"maps"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func (s *suite) testPutHeadGet(t *testing.T) {
	b, p := s.bucket(t)
	allBytes := make([]byte, 256)
	for i := range allBytes {
		allBytes[i] = byte(i)
	}
	tests := []struct {
		name string
		body []byte
	}{
		{"empty", nil},
		{"text", []byte("hello, r2\n")},
		{"binary", allBytes},
		{"one MiB", readPattern(t, 1, 1<<20)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := p + tt.name
			created := put(t, b, key, tt.body, nil)
			checkObject(t, "Put", created, key, tt.body)
			if created.Range != nil {
				t.Errorf("Put: Range = %+v, want nil", created.Range)
			}
			h := head(t, b, key)
			checkObject(t, "Head", h, key, tt.body)
			if h.Version != created.Version {
				t.Errorf("Head: Version = %q, want %q from Put", h.Version, created.Version)
			}
			if !sameUploaded(h.Uploaded, created.Uploaded) {
				t.Errorf("Head: Uploaded = %v, Put said %v", h.Uploaded, created.Uploaded)
			}
			// A sanity bound only: the store's clock may differ from ours.
			if d := time.Since(h.Uploaded).Abs(); d > time.Hour {
				t.Errorf("Head: Uploaded = %v is %v away from now", h.Uploaded, d)
			}
			o, got := get(t, b, key, nil)
			checkObject(t, "Get", &o.R2Object, key, tt.body)
			if !bytes.Equal(got, tt.body) {
				t.Errorf("Get: body of %d bytes differs from the %d put", len(got), len(tt.body))
			}
			if o.Range != nil {
				t.Errorf("Get without range: Range = %+v, want nil", o.Range)
			}
		})
	}
}

func (s *suite) testMetadata(t *testing.T) {
	b, p := s.bucket(t)
	httpMeta := worker.R2HTTPMetadata{
		ContentType:        "text/plain; charset=utf-8",
		ContentLanguage:    "en-GB",
		ContentDisposition: `attachment; filename="a.txt"`,
		ContentEncoding:    "identity",
		CacheControl:       "max-age=60",
		CacheExpiry:        time.Date(2031, 5, 6, 7, 8, 9, 0, time.UTC),
	}
	custom := map[string]string{"owner": "alice", "purpose": "r2 test"}
	tests := []struct {
		name   string
		http   worker.R2HTTPMetadata
		custom map[string]string
	}{
		{"none", worker.R2HTTPMetadata{}, nil},
		{"http", httpMeta, nil},
		{"custom", worker.R2HTTPMetadata{}, custom},
		{"both", httpMeta, custom},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := p + tt.name
			put(t, b, key, []byte("x"), &worker.R2PutOptions{HTTPMetadata: tt.http, CustomMetadata: tt.custom})
			h := head(t, b, key)
			o, _ := get(t, b, key, nil)
			for what, got := range map[string]*worker.R2Object{"Head": h, "Get": &o.R2Object} {
				checkHTTPMetadata(t, what, got.HTTPMetadata, tt.http)
				if !maps.Equal(got.CustomMetadata, tt.custom) {
					t.Errorf("%s: CustomMetadata = %v, want %v", what, got.CustomMetadata, tt.custom)
				}
			}
		})
	}
}

func checkHTTPMetadata(t *testing.T, what string, got, want worker.R2HTTPMetadata) {
	t.Helper()
	if !got.CacheExpiry.Equal(want.CacheExpiry) {
		t.Errorf("%s: CacheExpiry = %v, want %v", what, got.CacheExpiry, want.CacheExpiry)
	}
	got.CacheExpiry, want.CacheExpiry = time.Time{}, time.Time{}
	if got != want {
		t.Errorf("%s: HTTPMetadata = %+v, want %+v", what, got, want)
	}
}

func (s *suite) testOverwrite(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "k"
	first := put(t, b, key, []byte("first"), &worker.R2PutOptions{CustomMetadata: map[string]string{"v": "1"}})
	second := put(t, b, key, []byte("second body"), nil)
	if first.Version == second.Version {
		t.Errorf("two writes share Version %q", first.Version)
	}
	h := head(t, b, key)
	checkObject(t, "Head", h, key, []byte("second body"))
	if h.Version != second.Version {
		t.Errorf("Head: Version = %q, want %q", h.Version, second.Version)
	}
	if len(h.CustomMetadata) != 0 {
		t.Errorf("Head: CustomMetadata = %v, want none (a put replaces metadata)", h.CustomMetadata)
	}
	if _, got := get(t, b, key, nil); string(got) != "second body" {
		t.Errorf("Get = %q, want %q", got, "second body")
	}
	third := put(t, b, key, []byte("second body"), nil)
	if third.Version == second.Version {
		t.Errorf("rewriting the same body kept Version %q", third.Version)
	}
}

func (s *suite) testNotFound(t *testing.T) {
	b, p := s.bucket(t)
	key := p + "missing"
	_, err := b.Head(t.Context(), key)
	wantErr(t, "Head", err, worker.ErrNotFound)
	_, err = b.Get(t.Context(), key, nil)
	wantErr(t, "Get", err, worker.ErrNotFound)
	_, err = b.Get(t.Context(), key, &worker.R2GetOptions{Range: &worker.R2Range{Offset: 1}})
	wantErr(t, "ranged Get", err, worker.ErrNotFound)
	_, err = b.Get(t.Context(), key, &worker.R2GetOptions{OnlyIf: &worker.R2Conditional{EtagMatches: "*"}})
	wantErr(t, "conditional Get", err, worker.ErrNotFound)
	if err := b.Delete(t.Context(), key); err != nil {
		t.Errorf("Delete of a missing key: %v", err)
	}
}

func (s *suite) testKeys(t *testing.T) {
	b, p := s.bucket(t)
	keys := []string{
		p + "ünïcödé",
		p + "日本語/ファイル.txt",
		p + "emoji 🙂 key",
		p + "spaces and+plus=equals",
		p + "percent%20and%2F",
		p + "query?and#hash",
		p + "punct!$&'()*,;@~",
		p + `quotes "<xml>" & back\slash`,
		p + "dots.and..more...",
		longKey(p),
	}
	for i, key := range keys {
		body := []byte(key)
		put(t, b, key, body, nil)
		checkObject(t, "Head", head(t, b, key), key, body)
		if _, got := get(t, b, key, nil); !bytes.Equal(got, body) {
			t.Errorf("key %d: Get = %q, want %q", i, got, body)
		}
	}
	page, err := b.List(t.Context(), &worker.R2ListOptions{Prefix: p})
	if err != nil {
		t.Fatalf("List: %v", err)
	}
	want := sortedCopy(keys)
	if got := objectKeys(page.Objects); !equalStrings(got, want) {
		t.Errorf("List keys =\n%q\nwant\n%q", got, want)
	}
}

// longKey returns a key of exactly 1024 bytes under prefix, in segments of
// at most 201 bytes.
func longKey(prefix string) string {
	var sb strings.Builder
	sb.WriteString(prefix)
	for 1024-sb.Len() > 201 {
		sb.WriteString(strings.Repeat("k", 200) + "/")
	}
	sb.WriteString(strings.Repeat("k", 1024-sb.Len()))
	return sb.String()
}

func (s *suite) testInvalidKeys(t *testing.T) {
	b, p := s.bucket(t)
	ctx := t.Context()
	tests := []struct{ name, key string }{
		{"empty", ""},
		{"too long", longKey(p) + "k"},
		{"not utf-8", p + "bad\xff\xfe"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := b.Head(ctx, tt.key)
			wantErr(t, "Head", err, worker.ErrR2KeyInvalid)
			_, err = b.Get(ctx, tt.key, nil)
			wantErr(t, "Get", err, worker.ErrR2KeyInvalid)
			_, err = b.Put(ctx, tt.key, strings.NewReader("x"), nil)
			wantErr(t, "Put", err, worker.ErrR2KeyInvalid)
			wantErr(t, "Delete", b.Delete(ctx, p+"valid", tt.key), worker.ErrR2KeyInvalid)
			_, err = b.CreateMultipartUpload(ctx, tt.key, nil)
			wantErr(t, "CreateMultipartUpload", err, worker.ErrR2KeyInvalid)
		})
	}
}

func (s *suite) testChecksums(t *testing.T) {
	b, p := s.bucket(t)
	body := []byte("checksummed body")
	goodMD5, goodSHA := md5.Sum(body), sha256.Sum256(body)
	badMD5, badSHA := md5.Sum([]byte("other")), sha256.Sum256([]byte("other"))
	tests := []struct {
		name    string
		md5     []byte
		sha256  []byte
		wantErr error
	}{
		{"md5", goodMD5[:], nil, nil},
		{"sha256", nil, goodSHA[:], nil},
		{"both", goodMD5[:], goodSHA[:], nil},
		{"bad md5", badMD5[:], nil, worker.ErrChecksumMismatch},
		{"bad sha256", nil, badSHA[:], worker.ErrChecksumMismatch},
		{"good md5 bad sha256", goodMD5[:], badSHA[:], worker.ErrChecksumMismatch},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := p + tt.name
			o, err := b.Put(t.Context(), key, bytes.NewReader(body), &worker.R2PutOptions{MD5: tt.md5, SHA256: tt.sha256})
			wantErr(t, "Put", err, tt.wantErr)
			if tt.wantErr != nil {
				wantNotFound(t, b, key)
				return
			}
			h := head(t, b, key)
			for what, got := range map[string]*worker.R2Object{"Put": o, "Head": h} {
				if tt.md5 != nil && !bytes.Equal(got.Checksums.MD5, tt.md5) {
					t.Errorf("%s: Checksums.MD5 = %x, want %x", what, got.Checksums.MD5, tt.md5)
				}
				if tt.sha256 != nil && !bytes.Equal(got.Checksums.SHA256, tt.sha256) {
					t.Errorf("%s: Checksums.SHA256 = %x, want %x", what, got.Checksums.SHA256, tt.sha256)
				}
			}
		})
	}
	t.Run("mismatch keeps the old object", func(t *testing.T) {
		key := p + "kept"
		old := put(t, b, key, []byte("old"), nil)
		_, err := b.Put(t.Context(), key, bytes.NewReader(body), &worker.R2PutOptions{MD5: badMD5[:]})
		wantErr(t, "Put", err, worker.ErrChecksumMismatch)
		if h := head(t, b, key); h.ETag != old.ETag || h.Version != old.Version {
			t.Errorf("Head = %s/%s, want the old object %s/%s", h.ETag, h.Version, old.ETag, old.Version)
		}
	})
}

func (s *suite) testDelete(t *testing.T) {
	b, p := s.bucket(t)
	ctx := t.Context()
	var keys []string
	for i := range 5 {
		key := p + string(rune('a'+i))
		put(t, b, key, []byte(key), nil)
		keys = append(keys, key)
	}
	if err := b.Delete(ctx); err != nil {
		t.Errorf("Delete(): %v", err)
	}
	if err := b.Delete(ctx, keys[0]); err != nil {
		t.Fatalf("Delete one: %v", err)
	}
	wantNotFound(t, b, keys[0])
	head(t, b, keys[1])
	if err := b.Delete(ctx, keys[1], keys[2], p+"never-existed", keys[3], keys[0]); err != nil {
		t.Fatalf("Delete many: %v", err)
	}
	for _, key := range keys[:4] {
		wantNotFound(t, b, key)
	}
	head(t, b, keys[4])
	tooMany := make([]string, 1001)
	for i := range tooMany {
		tooMany[i] = keys[4]
	}
	if err := b.Delete(ctx, tooMany...); err == nil {
		t.Errorf("Delete of 1001 keys: err = nil, want an error")
	}
	head(t, b, keys[4])
}
