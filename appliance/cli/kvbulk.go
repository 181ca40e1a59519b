package cli

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"

	"github.com/dwk/fleet/appliance/worker"
)

// kvPair is one entry of a `kv bulk put` file, wrangler's KeyValue.
type kvPair struct {
	key, value string
	base64     bool
	expiration float64
	ttl        float64
	metadata   json.RawMessage
}

// kvPairShape is what each entry of a bulk put file must look like, as
// wrangler says it.
const kvPairShape = `Each item in the array should be an object that matches:

interface KeyValue {
  key: string;
  value: string;
  expiration?: number;
  expiration_ttl?: number;
  metadata?: object;
  base64?: boolean;
}`

// readKVPairs reads a bulk put file, with wrangler's checks: every entry
// of the wrong shape is an error, each unexpected property a warning.
func readKVPairs(path string) ([]kvPair, []string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, nil, err
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return nil, nil, fmt.Errorf("unexpected JSON input from %q: expected an array of key-value objects: %v", path, err)
	}
	var pairs []kvPair
	var problems, warnings []string
	for i, raw := range items {
		p, unexpected, ok := parseKVPair(raw)
		if !ok {
			problems = append(problems, fmt.Sprintf("The item at index %d is %s", i, compactJSON(raw)))
			continue
		}
		if len(unexpected) > 0 {
			warnings = append(warnings, fmt.Sprintf("The item at index %d contains unexpected properties: %q.", i, unexpected))
		}
		pairs = append(pairs, p)
	}
	if len(problems) > 0 {
		return nil, nil, fmt.Errorf("unexpected JSON input from %q.\n%s\n\n%s", path, kvPairShape, strings.Join(problems, "\n"))
	}
	return pairs, warnings, nil
}

// parseKVPair checks one entry's properties and their types.
func parseKVPair(raw json.RawMessage) (kvPair, []string, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(raw, &m); err != nil || m == nil {
		return kvPair{}, nil, false
	}
	var p kvPair
	ok := true
	field := func(name string, into any, required bool) {
		v, present := m[name]
		delete(m, name)
		if !present {
			ok = ok && !required
			return
		}
		if bytes.Equal(bytes.TrimSpace(v), []byte("null")) || json.Unmarshal(v, into) != nil {
			ok = false
		}
	}
	field("key", &p.key, true)
	field("value", &p.value, true)
	field("base64", &p.base64, false)
	field("expiration", &p.expiration, false)
	field("expiration_ttl", &p.ttl, false)
	if v, present := m["metadata"]; present {
		delete(m, "metadata")
		var obj map[string]any
		if json.Unmarshal(v, &obj) != nil || obj == nil {
			ok = false
		}
		p.metadata = v
	}
	var unexpected []string
	for k := range m {
		unexpected = append(unexpected, k)
	}
	sort.Strings(unexpected)
	return p, unexpected, ok
}

func compactJSON(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

func runKVBulkPut(args []string, stdout, stderr io.Writer) int {
	const name = "kv bulk put"
	f, fs := kvFlagSet(name, "FILE", "Writes every key of FILE, a JSON array of {\"key\", \"value\", \"base64\"?, \"expiration\"?, \"expiration_ttl\"?, \"metadata\"?}\n"+
		"(wrangler's format: value is text, or base64 of bytes with \"base64\": true; expiration in seconds since the Unix epoch,\n"+
		"expiration_ttl in seconds). Keys are written one by one, in order: a failure leaves the earlier ones written.", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	pairs, warnings, err := readKVPairs(pos[0])
	if err != nil {
		return fail(stderr, name, err)
	}
	if len(warnings) > 0 {
		fmt.Fprintf(stderr, "Unexpected key-value properties in %q.\n%s\n", pos[0], strings.Join(warnings, "\n"))
	}
	type put struct {
		key   string
		value []byte
		opts  *worker.KVPutOptions
	}
	puts := make([]put, len(pairs))
	for i, p := range pairs {
		v := []byte(p.value)
		if p.base64 {
			if v, err = base64.StdEncoding.DecodeString(p.value); err != nil {
				return fail(stderr, name, fmt.Errorf("item %d (key %q): value is not base64, though base64 is true: %v", i, p.key, err))
			}
		}
		opts, err := kvPutOptions(string(p.metadata), p.ttl, p.expiration)
		if err != nil {
			return fail(stderr, name, fmt.Errorf("item %d (key %q): %w", i, p.key, err))
		}
		puts[i] = put{p.key, v, opts}
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	for i, p := range puts {
		if err := kv.Put(ctx, p.key, p.value, p.opts); err != nil {
			return fail(stderr, name, fmt.Errorf("item %d (key %q): %w; the %d before it are written", i, p.key, err, i))
		}
	}
	fmt.Fprintf(stderr, "Wrote %d key%s to namespace %s.\n", len(puts), plural(len(puts)), store)
	fmt.Fprintln(stdout, "Success!")
	return 0
}

func runKVBulkDelete(args []string, stdout, stderr io.Writer) int {
	const name = "kv bulk delete"
	f, fs := kvFlagSet(name, "FILE [--force]", "Deletes every key of FILE, a JSON array of key names (wrangler's format).", stderr)
	force := fs.Bool("force", false, "delete without asking (dwk asks only when stdin is a terminal)")
	fs.BoolVar(force, "f", false, "short for --force")
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	b, err := os.ReadFile(pos[0])
	if err != nil {
		return fail(stderr, name, err)
	}
	var items []json.RawMessage
	if err := json.Unmarshal(b, &items); err != nil {
		return fail(stderr, name, fmt.Errorf("unexpected JSON input from %q: expected an array of strings: %v", pos[0], err))
	}
	keys := make([]string, 0, len(items))
	var problems []string
	for i, raw := range items {
		var k string
		if err := json.Unmarshal(raw, &k); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			problems = append(problems, fmt.Sprintf("The item at index %d is %s", i, compactJSON(raw)))
			continue
		}
		keys = append(keys, k)
	}
	if len(problems) > 0 {
		return fail(stderr, name, errors.New("unexpected JSON input from "+fmt.Sprintf("%q", pos[0])+".\nExpected an array of strings.\n"+strings.Join(problems, "\n")))
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, store, kv, err := f.openKV(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	if !*force && !confirm(stderr, fmt.Sprintf("Are you sure you want to delete all the keys read from %q from namespace %s on %s?", pos[0], store, t.where)) {
		fmt.Fprintf(stderr, "Not deleting keys read from %q.\n", pos[0])
		return 1
	}
	for i, k := range keys {
		if err := kv.Delete(ctx, k); err != nil {
			return fail(stderr, name, fmt.Errorf("key %q: %w; the %d before it are deleted", k, err, i))
		}
	}
	fmt.Fprintf(stderr, "Deleted %d key%s from namespace %s.\n", len(keys), plural(len(keys)), store)
	fmt.Fprintln(stdout, "Success!")
	return 0
}
