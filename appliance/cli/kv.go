package cli

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"time"

	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	key := group{
		name:  "kv key",
		about: "Work on single keys of a KV namespace, named by its binding (--binding) or its id (--namespace-id).",
		subs: []subcommand{
			{"get", "print a key's value", runKVGet},
			{"put", "write a key (its value, or a file with --path)", runKVPut},
			{"list", "list the keys as JSON", runKVList},
			{"delete", "delete a key", runKVDelete},
		},
	}
	bulk := group{
		name:  "kv bulk",
		about: "Write or delete many keys of a KV namespace from a JSON file, in wrangler's format.",
		subs: []subcommand{
			{"put", "write the keys of a JSON file: [{\"key\", \"value\", \"base64\"?, \"expiration\"?, \"expiration_ttl\"?, \"metadata\"?}]", runKVBulkPut},
			{"delete", "delete the keys of a JSON file: [\"key\", ...]", runKVBulkDelete},
		},
	}
	kv := group{
		name:  "kv",
		about: "Work on KV namespaces, with wrangler's commands, flags and output: a local data directory with --local, or a fleet's namespaces.",
		subs: []subcommand{
			{"key", "get, put, list and delete single keys", key.run},
			{"bulk", "put and delete keys from a JSON file", bulk.run},
		},
	}
	Register(Command{Name: "kv", Short: "work on KV namespaces: key get|put|list|delete, bulk put|delete (wrangler's kv)", Run: kv.run})
}

// kvFlags are the flags that name a KV namespace.
type kvFlags struct {
	storeFlags
	binding, id string
}

// kvFlagSet returns a KV command's flag set with the store flags and the
// namespace flags registered.
func kvFlagSet(name, usage, about string, stderr io.Writer) (*kvFlags, *flag.FlagSet) {
	fs := newFlagSet(name, usage+" (--binding NAME | --namespace-id ID) [--local [--data-dir DIR]] [--config FILE]", about, stderr)
	f := &kvFlags{}
	f.storeFlags.register(fs)
	fs.StringVar(&f.binding, "binding", "", "the namespace's binding in the wrangler file (or in dwk.json's bindings.kv)")
	fs.StringVar(&f.id, "namespace-id", "", "the namespace's id, as kv_namespaces' id gives it (the name dwk keeps it under)")
	return f, fs
}

// openKV opens the stores and the namespace the flags name.
func (f *kvFlags) openKV(ctx context.Context, stderr io.Writer) (*target, string, worker.KVNamespace, error) {
	t, err := f.open(ctx, kindKV, stderr)
	if err != nil {
		return nil, "", nil, err
	}
	store, err := t.resolveKV(f.binding, f.id)
	if err != nil {
		t.close()
		return nil, "", nil, err
	}
	kv, err := t.st.KV(store)
	if err != nil {
		t.close()
		return nil, "", nil, fmt.Errorf("open KV namespace %s: %w", store, err)
	}
	return t, store, kv, nil
}

func runKVGet(args []string, stdout, stderr io.Writer) int {
	const name = "kv key get"
	f, fs := kvFlagSet(name, "KEY [--text]", "Prints the value of KEY, byte for byte (with --text, as UTF-8 text and a newline). A missing key is an error.", stderr)
	asText := fs.Bool("text", false, "print the value as UTF-8 text, with a newline")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, _, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	v, err := kv.Get(ctx, pos[0])
	if errors.Is(err, worker.ErrNotFound) {
		fmt.Fprintln(stderr, "Value not found")
		return 1
	}
	if err != nil {
		return fail(stderr, name, err)
	}
	if *asText {
		fmt.Fprintln(stdout, string(v))
		return 0
	}
	stdout.Write(v)
	return 0
}

func runKVPut(args []string, stdout, stderr io.Writer) int {
	const name = "kv key put"
	f, fs := kvFlagSet(name, "KEY [VALUE] [--path FILE] [--metadata JSON] [--ttl SECONDS | --expiration UNIX_SECONDS]",
		"Writes KEY with VALUE, or with the content of the file --path names.", stderr)
	path := fs.String("path", "", "read the value from this file")
	metadata := fs.String("metadata", "", "JSON to keep with the key (at most 1024 bytes)")
	ttl := fs.Float64("ttl", 0, "seconds until the key expires")
	expiration := fs.Float64("expiration", 0, "when the key expires, in seconds since the Unix epoch")
	pos, code := parseArgs(fs, args, 1, 2)
	if code >= 0 {
		return code
	}
	if (len(pos) == 2) == (*path != "") {
		fmt.Fprintf(stderr, "dwk %s: pass VALUE or --path FILE, one of them\n", name)
		return 2
	}
	var value []byte
	if *path != "" {
		b, err := os.ReadFile(*path)
		if err != nil {
			return fail(stderr, name, fmt.Errorf("--path: %w", err))
		}
		value = b
	} else {
		value = []byte(pos[1])
	}
	opts, err := kvPutOptions(*metadata, *ttl, *expiration)
	if err != nil {
		return fail(stderr, name, err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	if *path != "" {
		fmt.Fprintf(stderr, "Writing the contents of %s to the key %q on namespace %s.\n", *path, pos[0], store)
	} else {
		fmt.Fprintf(stderr, "Writing the value %q to key %q on namespace %s.\n", pos[1], pos[0], store)
	}
	if err := kv.Put(ctx, pos[0], value, opts); err != nil {
		return fail(stderr, name, err)
	}
	return 0
}

// kvPutOptions makes a put's options from wrangler's flags (or bulk
// fields): metadata as JSON text, a TTL and an expiration in seconds
// (zero for none).
func kvPutOptions(metadata string, ttl, expiration float64) (*worker.KVPutOptions, error) {
	opts := &worker.KVPutOptions{}
	if metadata != "" {
		if !json.Valid([]byte(metadata)) {
			return nil, fmt.Errorf("metadata %q is not JSON: write it as a JSON value, for example '{\"author\":\"me\"}'", metadata)
		}
		opts.Metadata = json.RawMessage(metadata)
	}
	switch {
	case ttl < 0 || expiration < 0 || math.IsNaN(ttl) || math.IsNaN(expiration):
		return nil, errors.New("ttl and expiration must be positive numbers of seconds")
	case ttl > 0 && expiration > 0:
		return nil, errors.New("ttl and expiration are exclusive: give the time to live, or the time of expiry")
	case ttl > 0:
		opts.ExpirationTTL = time.Duration(ttl * float64(time.Second))
	case expiration > 0:
		opts.Expiration = time.UnixMilli(int64(expiration * 1000))
	}
	return opts, nil
}

func runKVList(args []string, stdout, stderr io.Writer) int {
	const name = "kv key list"
	f, fs := kvFlagSet(name, "[--prefix PREFIX]", "Prints the keys of the namespace as a JSON array of {\"name\", \"expiration\"?, \"metadata\"?}, in byte order, as wrangler does.", stderr)
	prefix := fs.String("prefix", "", "list only the keys that start with this")
	if _, code := parseArgs(fs, args, 0, 0); code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, _, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	type key struct {
		Name       string          `json:"name"`
		Expiration int64           `json:"expiration,omitempty"`
		Metadata   json.RawMessage `json:"metadata,omitempty"`
	}
	keys := []key{}
	cursor := ""
	for {
		page, err := kv.List(ctx, &worker.KVListOptions{Prefix: *prefix, Cursor: cursor})
		if err != nil {
			return fail(stderr, name, err)
		}
		for _, k := range page.Keys {
			out := key{Name: k.Name, Metadata: k.Metadata}
			if !k.Expiration.IsZero() {
				out.Expiration = k.Expiration.Unix()
			}
			keys = append(keys, out)
		}
		if page.ListComplete || page.Cursor == "" {
			break
		}
		cursor = page.Cursor
	}
	b, err := json.MarshalIndent(keys, "", "  ")
	if err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

func runKVDelete(args []string, stdout, stderr io.Writer) int {
	const name = "kv key delete"
	f, fs := kvFlagSet(name, "KEY", "Deletes KEY; deleting a missing key is not an error.", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Deleting the key %q on namespace %s.\n", pos[0], store)
	if err := kv.Delete(ctx, pos[0]); err != nil {
		return fail(stderr, name, err)
	}
	return 0
}
