package jsprojects

import (
	"encoding/hex"
	"fmt"
	"reflect"
	"sort"
	"testing"
	"time"

	"github.com/dwk/fleet/test/wait"
)

// kvKey is a key as KV's list shows it.
type kvKey struct {
	Name       string         `json:"name"`
	Expiration int64          `json:"expiration"`
	Metadata   map[string]any `json:"metadata"`
}

// testKV drives the KV API: put with a TTL and metadata, get as text,
// json, arrayBuffer and stream, getWithMetadata, a bulk get, list pages by
// cursor, expiry and delete. Writes and reads go through different doors.
func testKV(t *testing.T, s *site) {
	kv := func(i int, path string) string { return s.url(i, "/kv"+path) }
	put := func(i int, key string, value []byte, ttl int, meta string) {
		t.Helper()
		q := ""
		if ttl > 0 {
			q = fmt.Sprintf("?ttl=%d", ttl)
		}
		do(t, "PUT", kv(i, "/items/"+key+q), value, "X-KV-Metadata", meta).want(t, 204, "put "+key)
	}

	binary := make([]byte, 256)
	for i := range binary {
		binary[i] = byte(i)
	}
	before := time.Now()
	put(0, "doc-json", []byte(`{"title":"kv","list":[1,2,3]}`), 3600, `{"owner":"ann","rev":1}`)
	put(0, "doc-text", []byte("plain text ✓"), 0, "")
	put(1, "doc-bin", binary, 0, `{"kind":"bytes"}`)

	t.Run("get", func(t *testing.T) {
		if r := do(t, "GET", kv(1, "/items/doc-text?type=text"), nil).want(t, 200, "text"); string(r.body) != "plain text ✓" {
			t.Errorf("text = %q", r.body)
		}
		var j struct {
			Kind  string
			Value map[string]any
		}
		do(t, "GET", kv(1, "/items/doc-json?type=json"), nil).want(t, 200, "json").json(t, &j)
		if want := map[string]any{"title": "kv", "list": []any{1.0, 2.0, 3.0}}; j.Kind != "object" || !reflect.DeepEqual(j.Value, want) {
			t.Errorf("json = %+v, want an object %v", j, want)
		}
		var ab struct {
			IsArrayBuffer bool
			ByteLength    int
			Hex           string
		}
		do(t, "GET", kv(0, "/items/doc-bin?type=arrayBuffer"), nil).want(t, 200, "arrayBuffer").json(t, &ab)
		if !ab.IsArrayBuffer || ab.ByteLength != 256 || ab.Hex != hex.EncodeToString(binary) {
			t.Errorf("arrayBuffer = %+v, want the 256 bytes 00..ff", ab)
		}
		if r := do(t, "GET", kv(1, "/items/doc-bin?type=stream"), nil).want(t, 200, "stream"); !reflect.DeepEqual(r.body, binary) {
			t.Errorf("stream = %x, want 00..ff", r.body)
		}
		do(t, "GET", kv(0, "/items/missing?type=json"), nil).want(t, 404, "a missing key")
	})

	t.Run("getWithMetadata", func(t *testing.T) {
		var m struct {
			Value    string
			Metadata map[string]any
		}
		do(t, "GET", kv(1, "/meta/doc-json"), nil).want(t, 200, "meta").json(t, &m)
		if m.Value != `{"title":"kv","list":[1,2,3]}` || !reflect.DeepEqual(m.Metadata, map[string]any{"owner": "ann", "rev": 1.0}) {
			t.Errorf("getWithMetadata = %+v", m)
		}
		do(t, "GET", kv(1, "/meta/doc-text"), nil).want(t, 200, "meta without metadata").json(t, &m)
		if m.Metadata != nil {
			t.Errorf("metadata of a key put without it = %v, want null", m.Metadata)
		}
	})

	t.Run("bulk get", func(t *testing.T) {
		var got map[string]*string
		do(t, "GET", kv(0, "/many?key=doc-text&key=nope"), nil).want(t, 200, "bulk").json(t, &got)
		if got["doc-text"] == nil || *got["doc-text"] != "plain text ✓" || got["nope"] != nil || len(got) != 2 {
			t.Errorf("bulk get = %v", got)
		}
	})

	t.Run("list pages", func(t *testing.T) {
		var want []string
		for i := range 7 {
			k := fmt.Sprintf("page-%02d", i)
			want = append(want, k)
			put(i, k, []byte("v"), 0, fmt.Sprintf(`{"i":%d}`, i))
		}
		var names []string
		cursor, pages := "", 0
		for {
			var l struct {
				Keys         []kvKey
				ListComplete bool `json:"list_complete"`
				Cursor       string
			}
			do(t, "GET", kv(pages, "/list?prefix=page-&limit=3&cursor="+cursor), nil).want(t, 200, "list").json(t, &l)
			pages++
			if len(l.Keys) > 3 {
				t.Fatalf("page %d has %d keys, limit 3", pages, len(l.Keys))
			}
			for _, k := range l.Keys {
				names = append(names, k.Name)
				if k.Metadata["i"] == nil {
					t.Errorf("%s listed without its metadata", k.Name)
				}
			}
			if l.ListComplete {
				break
			}
			if l.Cursor == "" || pages > 10 {
				t.Fatalf("page %d is not the last but has cursor %q", pages, l.Cursor)
			}
			cursor = l.Cursor
		}
		if !reflect.DeepEqual(names, want) || pages != 3 {
			t.Errorf("listed %v in %d pages, want %v in 3", names, pages, want)
		}

		var l struct{ Keys []kvKey }
		do(t, "GET", kv(1, "/list?prefix=doc-"), nil).want(t, 200, "list docs").json(t, &l)
		got := map[string]kvKey{}
		for _, k := range l.Keys {
			got[k.Name] = k
		}
		keys := make([]string, 0, len(got))
		for k := range got {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		if !reflect.DeepEqual(keys, []string{"doc-bin", "doc-json", "doc-text"}) {
			t.Fatalf("list prefix doc- = %v", keys)
		}
		exp := time.Unix(got["doc-json"].Expiration, 0)
		if lo, hi := before.Add(3600*time.Second-2*time.Second), time.Now().Add(3600*time.Second+2*time.Second); exp.Before(lo) || exp.After(hi) {
			t.Errorf("doc-json expires at %v, want an hour after its put (%v..%v)", exp, lo, hi)
		}
		if got["doc-text"].Expiration != 0 {
			t.Errorf("doc-text, put without a TTL, expires at %d", got["doc-text"].Expiration)
		}
	})

	t.Run("expiry", func(t *testing.T) {
		// dwk takes TTLs under Cloudflare's 60 s minimum, so the test need not wait a minute.
		put(0, "fleeting", []byte("soon gone"), 1, "")
		wait.Within(t, 15*time.Second, "the key with a 1 s TTL to expire", func() bool {
			return do(t, "GET", kv(1, "/items/fleeting"), nil).status == 404
		})
	})

	t.Run("delete", func(t *testing.T) {
		do(t, "DELETE", kv(0, "/items/doc-text"), nil).want(t, 204, "delete")
		do(t, "GET", kv(1, "/items/doc-text"), nil).want(t, 404, "get after delete")
		do(t, "DELETE", kv(1, "/items/doc-text"), nil).want(t, 204, "deleting a missing key")
	})
}
