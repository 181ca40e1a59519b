package dwkstorage

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/dwk/fleet/appliance/fleet/coord"
	"github.com/dwk/fleet/appliance/fleet/coord/tuple"
)

// TestFiles stores, loads, lists and deletes keys the way certmagic lays
// them out, against a real libSQL server, and reads the raw coordination
// entries to check what is stored.
func TestFiles(t *testing.T) {
	db := newDatabase(t)
	st := db.open(t)
	k := newKV(t, st, Options{Prefix: "files"})
	ctx := ctxFor(t)

	const (
		crt  = "certificates/acme/example.com/example.com.crt"
		key  = "certificates/acme/example.com/example.com.key"
		meta = "certificates/acme/example.com/example.com.json"
		crt2 = "certificates/acme/example.org/example.org.crt"
		acct = "acme/acme/users/ops@example.com/ops.json"
	)
	secretPEM := []byte("-----BEGIN EC PRIVATE KEY-----\nMHcCAQEEIAbcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJ\n-----END EC PRIVATE KEY-----\n")
	values := map[string][]byte{
		crt: bytes.Repeat([]byte("certificate "), 400), key: secretPEM, meta: []byte(`{"sans":["example.com"]}`),
		crt2: []byte("another certificate"), acct: []byte(`{"status":"valid"}`),
	}
	before := time.Now().Add(-time.Second)
	for name, v := range values {
		if err := k.Store(ctx, name, v); err != nil {
			t.Fatal(err)
		}
	}

	t.Run("load", func(t *testing.T) {
		for name, want := range values {
			got, err := k.Load(ctx, name)
			if err != nil || !bytes.Equal(got, want) {
				t.Errorf("Load(%s) = %.20q, %v; want %.20q", name, got, err, want)
			}
		}
		if err := k.Store(ctx, meta, []byte("v2")); err != nil {
			t.Fatal(err)
		}
		if got, err := k.Load(ctx, meta); err != nil || string(got) != "v2" {
			t.Errorf("Load after overwrite = %q, %v", got, err)
		}
		for _, missing := range []string{"certificates/acme/example.net/example.net.crt", "certificates/acme", "nothing"} {
			if _, err := k.Load(ctx, missing); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Load(%s) = %v, want fs.ErrNotExist", missing, err)
			}
		}
		if _, err := k.Load(ctx, ""); !errors.Is(err, ErrInvalidKey) {
			t.Errorf("Load(\"\") = %v, want ErrInvalidKey", err)
		}
		if err := k.Store(ctx, "big", make([]byte, MaxValueSize+1)); !errors.Is(err, ErrValueTooLarge) {
			t.Errorf("Store of %d bytes = %v, want ErrValueTooLarge", MaxValueSize+1, err)
		}
	})

	t.Run("stat and exists", func(t *testing.T) {
		info, err := k.Stat(ctx, crt)
		if err != nil {
			t.Fatal(err)
		}
		if !info.IsTerminal || info.Key != crt || info.Size != int64(len(values[crt])) ||
			info.Modified.Before(before) || info.Modified.After(time.Now().Add(time.Second)) {
			t.Errorf("Stat(file) = %+v", info)
		}
		for _, dir := range []string{"certificates", "certificates/acme/example.com", "/certificates/acme/"} {
			info, err := k.Stat(ctx, dir)
			if err != nil || info.IsTerminal {
				t.Errorf("Stat(%s) = %+v, %v; want a directory", dir, info, err)
			}
			if !k.Exists(ctx, dir) {
				t.Errorf("Exists(%s) = false", dir)
			}
		}
		for _, missing := range []string{"certificates/acme/example.net", "certificates/acme/example.com/example.com.crt/x", "certificate"} {
			if _, err := k.Stat(ctx, missing); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("Stat(%s) = %v, want fs.ErrNotExist", missing, err)
			}
			if k.Exists(ctx, missing) {
				t.Errorf("Exists(%s) = true", missing)
			}
		}
	})

	t.Run("list", func(t *testing.T) {
		for _, tc := range []struct {
			dir       string
			recursive bool
			want      []string
		}{
			{"", false, []string{"acme", "certificates"}},
			{"certificates", false, []string{"certificates/acme"}},
			{"certificates/acme", false, []string{"certificates/acme/example.com", "certificates/acme/example.org"}},
			{"certificates/acme/example.com", false, []string{crt, meta, key}},
			{"certificates", true, []string{
				"certificates/acme", "certificates/acme/example.com", crt, meta, key,
				"certificates/acme/example.org", crt2,
			}},
			{crt, false, nil},
		} {
			got, err := k.List(ctx, tc.dir, tc.recursive)
			if err != nil || !slices.Equal(got, tc.want) {
				t.Errorf("List(%q, %v) = %q, %v; want %q", tc.dir, tc.recursive, got, err, tc.want)
			}
		}
		if _, err := k.List(ctx, "certificates/other", true); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("List(missing) = %v, want fs.ErrNotExist", err)
		}
	})

	t.Run("sealed at rest", func(t *testing.T) {
		raw, err := st.Get(ctx, k.keys.data(split(key)))
		if err != nil || !raw.Exists() {
			t.Fatalf("raw entry of %s: %+v, %v", key, raw, err)
		}
		for _, plain := range [][]byte{secretPEM, []byte("PRIVATE KEY"), []byte("MHcCAQEEIAbcdefgh")} {
			if bytes.Contains(raw.Value, plain) {
				t.Errorf("the stored value of %s holds %q", key, plain)
			}
		}
		// The same database read with another secret (the fleet secret
		// was rotated): no value, reported as missing so that certmagic
		// obtains it again, with ErrWrongSecret and a warning naming the
		// key.
		var logged bytes.Buffer
		other := newKV(t, st, Options{Prefix: "files", Secret: []byte("not the fleet secret"),
			Logger: slog.New(slog.NewTextHandler(io.MultiWriter(&logged, t.Output()), nil))})
		v, err := other.Load(ctx, key)
		if !errors.Is(err, ErrWrongSecret) || !errors.Is(err, fs.ErrNotExist) || v != nil {
			t.Errorf("Load with another secret = %q, %v; want ErrWrongSecret and fs.ErrNotExist", v, err)
		}
		if err != nil && !strings.Contains(err.Error(), "different secret") {
			t.Errorf("error %q does not say the secret differs", err)
		}
		if !strings.Contains(logged.String(), "level=WARN") || !strings.Contains(logged.String(), key) {
			t.Errorf("no warning naming %s; log:\n%s", key, logged.String())
		}
		if _, err := other.Stat(ctx, key); !errors.Is(err, fs.ErrNotExist) || !errors.Is(err, ErrWrongSecret) {
			t.Errorf("Stat with another secret = %v; want ErrWrongSecret and fs.ErrNotExist", err)
		}
		if other.Exists(ctx, key) {
			t.Errorf("Exists(%s) with another secret = true", key)
		}
		// A value moved under another name does not open.
		moved := k.keys.data(split("certificates/acme/example.com/moved.key"))
		mustCommit(t, st.Atomic().Set(moved, raw.Value, 0))
		if _, err := k.Load(ctx, "certificates/acme/example.com/moved.key"); !errors.Is(err, ErrCorrupt) || errors.Is(err, fs.ErrNotExist) {
			t.Errorf("Load of a moved value = %v, want ErrCorrupt (not fs.ErrNotExist)", err)
		}
		if err := k.Delete(ctx, "certificates/acme/example.com/moved.key"); err != nil {
			t.Fatal(err)
		}
	})

	t.Run("prefixes are separate", func(t *testing.T) {
		other := newKV(t, st, Options{Prefix: "other"})
		if _, err := other.List(ctx, "", true); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("List of another prefix = %v, want fs.ErrNotExist", err)
		}
	})

	t.Run("delete", func(t *testing.T) {
		if err := k.Delete(ctx, crt2); err != nil {
			t.Fatal(err)
		}
		if k.Exists(ctx, crt2) || k.Exists(ctx, "certificates/acme/example.org") {
			t.Error("file or its now empty directory still exists")
		}
		if err := k.Delete(ctx, "certificates/acme/example.net/nothing"); err != nil {
			t.Errorf("Delete(missing) = %v, want nil", err)
		}
		if err := k.Delete(ctx, "certificates"); err != nil {
			t.Fatal(err)
		}
		for _, name := range []string{crt, key, meta, "certificates"} {
			if k.Exists(ctx, name) {
				t.Errorf("%s exists after deleting its directory", name)
			}
		}
		if got, err := k.List(ctx, "", true); err != nil || !slices.Equal(got, []string{"acme", "acme/acme", "acme/acme/users", "acme/acme/users/ops@example.com", acct}) {
			t.Errorf("List after delete = %q, %v", got, err)
		}
	})
}

// TestDeleteLargeDirectory deletes more keys than one atomic operation
// may.
func TestDeleteLargeDirectory(t *testing.T) {
	db := newDatabase(t)
	st := db.open(t)
	k := newKV(t, st, Options{})
	ctx := ctxFor(t)
	n := coord.MaxMutations + 10
	for i := 0; i < n; i += coord.MaxMutations {
		a := st.Atomic()
		for j := i; j < min(i+coord.MaxMutations, n); j++ {
			ck := k.keys.data([]string{"ocsp", fmt.Sprintf("staple-%04d", j)})
			a.Set(ck, k.seal.seal(tuple.MustEncode(ck), []byte("staple"), time.Now()), 0)
		}
		mustCommit(t, a)
	}
	got, err := k.List(ctx, "ocsp", false)
	if err != nil || len(got) != n {
		t.Fatalf("List = %d keys, %v; want %d", len(got), err, n)
	}
	if err := k.Delete(ctx, "ocsp"); err != nil {
		t.Fatal(err)
	}
	if _, err := k.List(ctx, "ocsp", false); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("List after Delete = %v, want fs.ErrNotExist", err)
	}
}

func mustCommit(t testing.TB, a *coord.Atomic) {
	t.Helper()
	res, err := a.Commit(ctxFor(t))
	if err != nil || !res.OK {
		t.Fatalf("Commit = %+v, %v", res, err)
	}
}
