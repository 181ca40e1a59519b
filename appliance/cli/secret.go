package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"os"
	"slices"
	"strings"

	"golang.org/x/term"

	"github.com/dwk/fleet/appliance/fleet/workersecrets"
	"github.com/dwk/fleet/appliance/worker"
)

func init() {
	g := group{
		name:  "secret",
		about: "Put, list and delete a worker's secrets on a running fleet, as wrangler's secret commands do: stored sealed in the fleet's coordination database, applied by every replica without a restart. A stored secret overrides dwk.json's value of the same name until it is deleted.",
		subs: []subcommand{
			{"put", "store a secret read from stdin (a prompt on a terminal)", runSecretPut},
			{"list", "list the worker's secrets as JSON, names only", runSecretList},
			{"delete", "delete a stored secret", runSecretDelete},
		},
	}
	Register(Command{Name: "secret", Short: "put, list and delete a worker's secrets on a fleet: put|list|delete (wrangler's secret)", Run: g.run})
}

func runSecretPut(args []string, stdout, stderr io.Writer) int {
	const name = "secret put"
	f, fs := secretFlagSet(name, "NAME [--name WORKER] [--config dwk.json]",
		"Stores the value read from stdin (on a terminal: typed at a prompt, not echoed) as the secret NAME of the worker, sealed with a key derived from fleet.secret. A piped value loses its trailing whitespace, as in wrangler.", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	secret := pos[0]
	if err := workersecrets.ValidName(secret); err != nil {
		return fail(stderr, name, err)
	}
	// The value is read before Ctrl-C is caught, so that it ends a
	// prompt at once.
	t, err := f.resolve(context.Background(), stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	if err := t.clash(secret); err != nil {
		return fail(stderr, name, err)
	}
	value, err := readSecretValue(os.Stdin, isTerminal(os.Stdin), stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	ctx, cancel := commandContext()
	defer cancel()
	if err := t.dial(ctx, stderr); err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Creating the secret for the worker %q of fleet %q\n", t.worker, t.cfg.Fleet.Name)
	if err := t.store.Put(ctx, t.worker, secret, value); err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stderr, "Success! Uploaded secret %s\n", secret)
	if t.configured()[secret] {
		fmt.Fprintf(stderr, "It overrides dwk.json's value of %s until `dwk secret delete %s`.\n", secret, secret)
	}
	fmt.Fprintln(stderr, appliedWithin())
	return 0
}

func runSecretList(args []string, stdout, stderr io.Writer) int {
	const name = "secret list"
	f, fs := secretFlagSet(name, "[--name WORKER] [--config dwk.json]",
		`Prints the worker's secrets as JSON, [{"name", "type": "secret_text", "source"}], never a value: source "stored" for one put with dwk secret put, "config" for one dwk.json (or the project's .dev.vars) gives and no put overrides.`, stderr)
	if _, code := parseArgs(fs, args, 0, 0); code >= 0 {
		return code
	}
	ctx, cancel := commandContext()
	defer cancel()
	t, err := f.resolve(ctx, stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	if err := t.dial(ctx, stderr); err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	stored, err := t.store.Names(ctx, t.worker)
	if err != nil {
		return fail(stderr, name, err)
	}
	b, err := json.MarshalIndent(secretList(stored, t.configured()), "", "  ")
	if err != nil {
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stdout, "%s\n", b)
	return 0
}

func runSecretDelete(args []string, stdout, stderr io.Writer) int {
	const name = "secret delete"
	f, fs := secretFlagSet(name, "NAME [--name WORKER] [--config dwk.json]",
		"Deletes the stored secret NAME of the worker; its replicas then give dwk.json's value of NAME, or none. Asks first on a terminal.", stderr)
	pos, code := parseArgs(fs, args, 1, 1)
	if code >= 0 {
		return code
	}
	secret := pos[0]
	t, err := f.resolve(context.Background(), stderr)
	if err != nil {
		return fail(stderr, name, err)
	}
	if !confirm(stderr, fmt.Sprintf("Are you sure you want to permanently delete the secret %s on the worker %s?", secret, t.worker)) {
		fmt.Fprintln(stderr, "Not deleting.")
		return 0
	}
	ctx, cancel := commandContext()
	defer cancel()
	if err := t.dial(ctx, stderr); err != nil {
		return fail(stderr, name, err)
	}
	defer t.close()
	fmt.Fprintf(stderr, "Deleting the secret %s on the worker %q of fleet %q\n", secret, t.worker, t.cfg.Fleet.Name)
	err = t.store.Delete(ctx, t.worker, secret)
	switch {
	case errors.Is(err, workersecrets.ErrNotStored) && t.configured()[secret]:
		return fail(stderr, name, fmt.Errorf("the secret %s of worker %s was not put with dwk secret put: its value comes from dwk.json's workers[].bindings.secrets (or the project's .dev.vars); change it there and roll the fleet", secret, t.worker))
	case errors.Is(err, workersecrets.ErrNotStored):
		return fail(stderr, name, fmt.Errorf("worker %s has no secret %s; `dwk secret list --name %s` lists its secrets", t.worker, secret, t.worker))
	case err != nil:
		return fail(stderr, name, err)
	}
	fmt.Fprintf(stderr, "Success! Deleted secret %s\n", secret)
	if t.configured()[secret] {
		fmt.Fprintf(stderr, "The worker gets dwk.json's value of %s again.\n", secret)
	}
	fmt.Fprintln(stderr, appliedWithin())
	return 0
}

// appliedWithin says when replicas see a change, for the commands'
// output.
func appliedWithin() string {
	return fmt.Sprintf("Every replica applies it to events that start within %s (its poll interval) and a round trip to libSQL, without a restart; a Durable Object already in memory keeps the value it was constructed with until it is constructed again.", workersecrets.DefaultPollInterval)
}

// readSecretValue reads a secret's value: typed at a prompt, not echoed,
// when in is a terminal; else all of in (at most one byte more than a
// value may hold) without trailing whitespace, as wrangler reads it.
func readSecretValue(in *os.File, terminal bool, stderr io.Writer) (worker.Secret, error) {
	var b []byte
	var err error
	if terminal {
		fmt.Fprint(stderr, "Enter a secret value: ")
		b, err = term.ReadPassword(int(in.Fd()))
		fmt.Fprintln(stderr)
	} else {
		b, err = readPiped(in)
	}
	if err != nil {
		return "", fmt.Errorf("read the value from stdin: %w", err)
	}
	if len(b) == 0 {
		return "", errors.New("the value is empty: type it at the prompt, or pipe it in (printf %s \"$TOKEN\" | dwk secret put NAME ...)")
	}
	return worker.Secret(b), nil
}

// readPiped reads a piped value, its trailing whitespace removed.
func readPiped(r io.Reader) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, workersecrets.MaxValueBytes+1<<10))
	return []byte(strings.TrimRight(string(b), " \t\r\n")), err
}

// secretEntry is one line of `dwk secret list`, in wrangler's form plus
// where the value comes from.
type secretEntry struct {
	Name   string `json:"name"`
	Type   string `json:"type"`
	Source string `json:"source"`
}

// secretList merges the stored names and the configured ones, sorted by
// name; a stored one hides the configured one it overrides.
func secretList(stored []string, configured map[string]bool) []secretEntry {
	source := map[string]string{}
	for name := range configured {
		source[name] = "config"
	}
	for _, name := range stored {
		source[name] = "stored"
	}
	out := []secretEntry{}
	for _, name := range slices.Sorted(maps.Keys(source)) {
		out = append(out, secretEntry{Name: name, Type: "secret_text", Source: source[name]})
	}
	return out
}
