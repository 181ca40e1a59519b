package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	object := group{
		name:  "r2 object",
		about: "Work on single objects of an R2 bucket, named BUCKET/KEY (the bucket's bucket_name, then the key).",
		subs: []subcommand{
			{"get", "write an object to a file, or to stdout with --pipe", runR2Get},
			{"put", "store a file (--file) or stdin (--pipe) as an object", runR2Put},
			{"delete", "delete an object", runR2Delete},
		},
	}
	r2 := group{
		name:  "r2",
		about: "Work on R2 buckets, with wrangler's commands, flags and output: a local data directory with --local, or a fleet's buckets.",
		subs:  []subcommand{{"object", "get, put and delete objects", object.run}},
	}
	Register(Command{Name: "r2", Short: "work on R2 buckets: object get|put|delete (wrangler's r2)", Run: r2.run})
}

const r2StoreUsage = " [--local [--data-dir DIR]] [--config FILE]"

// splitObjectPath splits BUCKET/KEY at its first slash, as wrangler does.
func splitObjectPath(p string) (bucket, key string, err error) {
	bucket, key, ok := strings.Cut(p, "/")
	if !ok || bucket == "" || key == "" {
		return "", "", fmt.Errorf("object path %q must be BUCKET/KEY: the bucket's name, a slash, then the key", p)
	}
	return bucket, key, nil
}

// openR2 opens the stores and the bucket of an object path.
func (f *storeFlags) openR2(ctx context.Context, objectPath string, stderr io.Writer) (*target, string, string, worker.R2Bucket, error) {
	bucket, key, err := splitObjectPath(objectPath)
	if err != nil {
		return nil, "", "", nil, err
	}
	t, err := f.open(ctx, kindR2, stderr)
	if err != nil {
		return nil, "", "", nil, err
	}
	store, err := t.resolveR2(bucket)
	if err != nil {
		t.close()
		return nil, "", "", nil, err
	}
	b, err := t.st.R2(store)
	if err != nil {
		t.close()
		return nil, "", "", nil, fmt.Errorf("open R2 bucket %s: %w", store, err)
	}
	return t, store, key, b, nil
}

func r2FlagSet(name, usage, about string, stderr io.Writer) (*storeFlags, *flag.FlagSet) {
	fs := newFlagSet(name, usage+r2StoreUsage, about, stderr)
	f := &storeFlags{}
	f.register(fs)
	return f, fs
}

func runR2Get(args []string, stdout, stderr io.Writer) int {
	const name = "r2 object get"
	f, fs := r2FlagSet(name, "BUCKET/KEY [--file FILE | --pipe]",
		"Writes the object KEY of BUCKET to FILE, to stdout with --pipe, or else, as wrangler does, to a file named KEY in this directory.", stderr)
	file := fs.String("file", "", "the file to write")
	fs.StringVar(file, "f", "", "short for --file")
	pipe := fs.Bool("pipe", false, "write the object to stdout")
	fs.BoolVar(pipe, "p", false, "short for --pipe")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	if *file != "" && *pipe {
		fmt.Fprintf(stderr, "dwk %s: --file and --pipe are exclusive\n", name)
		return 2
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, key, b, err := f.openR2(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	dest := *file
	if dest == "" && !*pipe {
		if filepath.IsAbs(key) || !filepath.IsLocal(filepath.FromSlash(key)) {
			return fail(stderr, name, fmt.Errorf("key %q is not a file name in this directory: pass --file FILE or --pipe", key))
		}
		dest = filepath.FromSlash(key)
	}
	if !*pipe {
		fmt.Fprintf(stderr, "Downloading %q from %q.\n", key, store)
	}
	obj, err := b.Get(ctx, key, nil)
	if errors.Is(err, worker.ErrNotFound) {
		return fail(stderr, name, fmt.Errorf("the specified key %q does not exist in bucket %s", key, store))
	}
	if err != nil {
		return fail(stderr, name, err)
	}
	defer obj.Body.Close()
	if *pipe {
		if _, err := io.Copy(stdout, obj.Body); err != nil {
			return fail(stderr, name, err)
		}
		return 0
	}
	if err := writeFileFrom(dest, obj.Body); err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintln(stderr, "Download complete.")
	return 0
}

// writeFileFrom writes r to path through a temporary file, so that path
// is whole or untouched.
func writeFileFrom(path string, r io.Reader) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name())
	if _, err := io.Copy(tmp, r); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}

func runR2Put(args []string, stdout, stderr io.Writer) int {
	const name = "r2 object put"
	f, fs := r2FlagSet(name, "BUCKET/KEY (--file FILE | --pipe) [--content-type TYPE] [--content-disposition ...] [--content-encoding ...]\n"+
		"    [--content-language ...] [--cache-control ...] [--expires TIME] [--custom-metadata JSON]",
		"Stores FILE, or stdin with --pipe, as the object KEY of BUCKET, with the HTTP metadata the flags give.", stderr)
	file := fs.String("file", "", "the file to store")
	fs.StringVar(file, "f", "", "short for --file")
	pipe := fs.Bool("pipe", false, "store what stdin holds")
	fs.BoolVar(pipe, "p", false, "short for --pipe")
	var meta worker.R2HTTPMetadata
	for _, h := range []struct {
		long, short, usage string
		into               *string
	}{
		{"content-type", "ct", "the object's MIME type", &meta.ContentType},
		{"content-disposition", "cd", "its Content-Disposition", &meta.ContentDisposition},
		{"content-encoding", "ce", "its Content-Encoding", &meta.ContentEncoding},
		{"content-language", "cl", "its Content-Language", &meta.ContentLanguage},
		{"cache-control", "cc", "its Cache-Control", &meta.CacheControl},
	} {
		fs.StringVar(h.into, h.long, "", h.usage)
		fs.StringVar(h.into, h.short, "", "short for --"+h.long)
	}
	expires := fs.String("expires", "", "when the object stops being cacheable: RFC 3339, an HTTP date, or milliseconds since the Unix epoch")
	custom := fs.String("custom-metadata", "", "custom metadata as a JSON object of strings, e.g. '{\"owner\":\"me\"}' (a dwk addition)")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	if (*file == "") == !*pipe {
		fmt.Fprintf(stderr, "dwk %s: pass --file FILE or --pipe, one of them\n", name)
		return 2
	}
	opts := &worker.R2PutOptions{HTTPMetadata: meta}
	if *expires != "" {
		t, err := parseExpires(*expires)
		if err != nil {
			return fail(stderr, name, err)
		}
		opts.HTTPMetadata.CacheExpiry = t
	}
	if *custom != "" {
		if err := json.Unmarshal([]byte(*custom), &opts.CustomMetadata); err != nil {
			return fail(stderr, name, fmt.Errorf("--custom-metadata must be a JSON object of strings, like '{\"owner\":\"me\"}': %v", err))
		}
	}
	var body io.Reader = os.Stdin
	if *file != "" {
		fh, err := os.Open(*file)
		if err != nil {
			return fail(stderr, name, err)
		}
		defer fh.Close()
		body = fh
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, key, b, err := f.openR2(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Creating object %q in bucket %q.\n", key, store)
	if _, err := b.Put(ctx, key, body, opts); err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintln(stderr, "Upload complete.")
	return 0
}

// parseExpires reads --expires: RFC 3339, an HTTP date, or milliseconds
// since the Unix epoch (what wrangler's local mode takes).
func parseExpires(s string) (time.Time, error) {
	if ms, err := strconv.ParseInt(s, 10, 64); err == nil {
		return time.UnixMilli(ms).UTC(), nil
	}
	if t, err := time.Parse(time.RFC3339, s); err == nil {
		return t, nil
	}
	if t, err := http.ParseTime(s); err == nil {
		return t, nil
	}
	return time.Time{}, fmt.Errorf("--expires %q: write RFC 3339 (2030-01-02T15:04:05Z), an HTTP date or milliseconds since the Unix epoch", s)
}

func runR2Delete(args []string, stdout, stderr io.Writer) int {
	const name = "r2 object delete"
	f, fs := r2FlagSet(name, "BUCKET/KEY", "Deletes the object KEY of BUCKET; deleting a missing object is not an error.", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, key, b, err := f.openR2(ctx, pos[0], stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Deleting object %q from bucket %q.\n", key, store)
	if err := b.Delete(ctx, key); err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintln(stderr, "Delete complete.")
	return 0
}
