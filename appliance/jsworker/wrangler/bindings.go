package wrangler

import (
	"path/filepath"
	"regexp"
	"strings"
)

// remoteWhy is why dwk ignores a binding's remote key.
const remoteWhy = "dwk serves every binding itself; there are no remote bindings"

// readBinding reads an entry's binding name, which the worker reads it by.
func (l *loader) readBinding(e *obj, k string) string {
	name := e.requiredStr(k, "the name the worker reads it by, as env.NAME")
	l.bind(name, e.at(k), true)
	return name
}

func readKV(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		kv := KVNamespace{Binding: l.readBinding(e, "binding")}
		kv.ID = e.nonEmptyStr("id")
		kv.PreviewID, _ = e.str("preview_id")
		e.ignore("remote", remoteWhy)
		l.p.KVNamespaces = append(l.p.KVNamespaces, kv)
	})
}

// r2BucketName is Cloudflare's rule for bucket names (wrangler's
// isValidR2BucketName).
var r2BucketName = regexp.MustCompile(`^[a-z0-9][a-z0-9-]{1,61}[a-z0-9]$`)

const r2NameRule = "lowercase letters, digits and '-', 3 to 63 characters, starting and ending with a letter or digit"

func readR2(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		b := R2Bucket{Binding: l.readBinding(e, "binding")}
		b.BucketName = e.requiredStr("bucket_name", "dwk keeps the bucket's objects under this name")
		if b.BucketName != "" && !r2BucketName.MatchString(b.BucketName) {
			l.r.errorf(e.at("bucket_name"), "must be %s, got %q", r2NameRule, b.BucketName)
		}
		if s, ok := e.str("preview_bucket_name"); ok {
			if !r2BucketName.MatchString(s) {
				l.r.errorf(e.at("preview_bucket_name"), "must be %s, got %q", r2NameRule, s)
			}
			b.PreviewBucketName = s
		}
		e.ignore("jurisdiction", "dwk keeps the bucket where dwk.json says")
		e.ignore("remote", remoteWhy)
		e.ignore("local_dev", "it configures wrangler dev's S3 endpoint")
		l.p.R2Buckets = append(l.p.R2Buckets, b)
	})
}

func readD1(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		d := D1Database{Binding: l.readBinding(e, "binding"), MigrationsTable: "d1_migrations"}
		d.DatabaseName = e.requiredStr("database_name", "dwk keeps the database under this name")
		d.DatabaseID, _ = e.str("database_id")
		d.PreviewDatabaseID, _ = e.str("preview_database_id")
		dir, hasDir := e.str("migrations_dir")
		if hasDir && dir == "" {
			l.r.errorf(e.at("migrations_dir"), "must not be empty: remove the key for the default, \"migrations\"")
		}
		if dir == "" {
			dir = "migrations"
		}
		d.MigrationsDir = l.abs(dir)
		if t := e.nonEmptyStr("migrations_table"); t != "" {
			d.MigrationsTable = t
		}
		d.MigrationsPattern = filepath.Join(d.MigrationsDir, "*.sql")
		if pat, ok := e.str("migrations_pattern"); ok {
			// Wrangler's rule: the pattern names files inside
			// migrations_dir, which must be set explicitly.
			if !hasDir || !strings.HasPrefix(filepath.ToSlash(filepath.Clean(pat)), filepath.ToSlash(filepath.Clean(dir))+"/") {
				l.r.errorf(e.at("migrations_pattern"), "must start with migrations_dir followed by /, and migrations_dir must be set, got %q", pat)
			}
			d.MigrationsPattern = l.abs(pat)
		}
		e.ignore("database_internal_env", "it is an internal Cloudflare setting")
		e.ignore("remote", remoteWhy)
		l.p.D1Databases = append(l.p.D1Databases, d)
	})
}

func readServices(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		s := Service{Binding: l.readBinding(e, "binding")}
		s.Service = e.requiredStr("service", "the name of the worker to call")
		s.Entrypoint = e.nonEmptyStr("entrypoint")
		s.Environment, _ = e.str("environment")
		if props := e.child("props"); props != nil {
			s.Props = props.m
			for _, name := range sortedKeys(props.m) {
				if d := findDate(props.m[name]); d != "" {
					l.r.errorf(props.at(name), "is a TOML date (%s): write it as a string", d)
				}
			}
		}
		e.refuse("dev", "miniflare plugins do not run on dwk")
		e.ignore("remote", remoteWhy)
		l.p.Services = append(l.p.Services, s)
	})
}
