package cli

import (
	"fmt"
	"io/fs"
	"path/filepath"
	"sort"
	"strings"

	"github.com/dwk/fleet/appliance/bindings/d1/d1migrations"
	"github.com/dwk/fleet/appliance/jsworker/project"
)

// d1Ref is a D1 database a command named, resolved.
type d1Ref struct {
	// label names it in messages: "DB (notes-db)".
	label string
	// store is its dwk store name.
	store string
	// Its migrations: directory, glob relative to it, tracking table.
	dir, pattern, table string
	// fsys holds the migrations when they are in a built project's
	// archive (dir then names them in messages).
	fsys fs.FS
}

// resolveD1 finds the database name names: a binding or a database name
// (database_name in a wrangler file, the store name in dwk.json), as
// wrangler takes them.
func (t *target) resolveD1(name string) (d1Ref, error) {
	var found []d1Ref
	var known []string
	add := func(r d1Ref) {
		for _, f := range found {
			if f.store == r.store {
				return
			}
		}
		found = append(found, r)
	}
	for _, w := range t.workers {
		fromProject := map[string]bool{}
		if w.wr != nil {
			for _, d := range w.wr.D1Databases {
				store := w.cfg.Bindings.D1[d.Binding]
				fromProject[d.Binding] = true
				known = append(known, fmt.Sprintf("%s (database %s)", d.Binding, d.DatabaseName))
				if d.Binding != name && d.DatabaseName != name && store != name {
					continue
				}
				pattern, err := filepath.Rel(d.MigrationsDir, d.MigrationsPattern)
				if err != nil {
					pattern = d1migrations.DefaultPattern
				}
				ref := d1Ref{label: fmt.Sprintf("%s (%s)", d.Binding, d.DatabaseName), store: store, dir: d.MigrationsDir, pattern: pattern, table: d.MigrationsTable}
				if w.art != nil {
					if ref.fsys, err = w.art.Migrations(d.Binding); err != nil {
						ref.fsys = nil
					}
					ref.dir = w.art.Path() + ":" + d.MigrationsDir
				}
				add(ref)
			}
		}
		for binding, store := range w.cfg.Bindings.D1 {
			if fromProject[binding] {
				continue
			}
			known = append(known, fmt.Sprintf("%s (database %s)", binding, store))
			if binding == name || store == name {
				add(d1Ref{label: fmt.Sprintf("%s (%s)", binding, store), store: store, dir: filepath.Join(w.dir, "migrations")})
			}
		}
	}
	switch len(found) {
	case 1:
		return found[0], nil
	case 0:
		if len(known) == 0 {
			return d1Ref{}, fmt.Errorf("%s binds no D1 database: add a d1_databases entry (or, in dwk.json, bindings.d1) for %q", t.path, name)
		}
		return d1Ref{}, fmt.Errorf("no D1 database is named or bound as %q in %s; it has %s", name, t.path, strings.Join(dedupe(known), ", "))
	}
	return d1Ref{}, fmt.Errorf("%q names %d different D1 databases in %s's workers: pass --worker NAME to pick the worker whose binding you mean", name, len(found), t.path)
}

// resolveKV finds the KV namespace of a binding (wrangler's --binding) or
// of a namespace id (--namespace-id, taken as it is, as wrangler takes it).
func (t *target) resolveKV(binding, id string) (string, error) {
	if (binding == "") == (id == "") {
		return "", fmt.Errorf("pass --binding NAME (a kv_namespaces binding of %s) or --namespace-id ID, one of them", t.path)
	}
	if id != "" {
		store, err := project.StoreName(id)
		if err != nil {
			return "", fmt.Errorf("--namespace-id: %w", err)
		}
		return store, nil
	}
	stores := map[string]bool{}
	var known []string
	for _, w := range t.workers {
		for b, store := range w.cfg.Bindings.KV {
			known = append(known, b)
			if b == binding {
				stores[store] = true
			}
		}
	}
	switch len(stores) {
	case 1:
		for s := range stores {
			return s, nil
		}
	case 0:
		if len(known) == 0 {
			return "", fmt.Errorf("%s binds no KV namespace: add a kv_namespaces entry with binding %q, or pass --namespace-id ID", t.path, binding)
		}
		return "", fmt.Errorf("no KV namespace is bound as %q in %s; its KV bindings are %s", binding, t.path, strings.Join(dedupe(known), ", "))
	}
	return "", fmt.Errorf("binding %s names different KV namespaces in %s's workers: pass --worker NAME", binding, t.path)
}

// resolveR2 finds the bucket of a BUCKET/KEY path: a bucket's name
// (bucket_name), as wrangler takes it, or else a binding's name. A name
// the configuration does not know is taken as a bucket name too, as
// wrangler does.
func (t *target) resolveR2(bucket string) (string, error) {
	store, err := project.StoreName(bucket)
	if err != nil {
		return "", fmt.Errorf("bucket %q: %w", bucket, err)
	}
	byBinding := map[string]bool{}
	for _, w := range t.workers {
		for b, s := range w.cfg.Bindings.R2 {
			if s == store {
				return store, nil
			}
			if b == bucket {
				byBinding[s] = true
			}
		}
	}
	if len(byBinding) == 1 {
		for s := range byBinding {
			return s, nil
		}
	}
	return store, nil
}

// dedupe returns names sorted, each once.
func dedupe(names []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, n := range names {
		if !seen[n] {
			seen[n] = true
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}
