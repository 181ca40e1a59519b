package wrangler

import (
	"regexp"
	"strings"
	"time"
)

// readers read each key the table marks read into the loader's Project.
// A reader reports problems in its key's value; checks that span keys are
// in finish.
var readers = map[string]func(l *loader, o *obj, k string){
	"name":                    readName,
	"main":                    readMain,
	"compatibility_date":      readCompatibilityDate,
	"compatibility_flags":     readCompatibilityFlags,
	"vars":                    readVars,
	"secrets":                 readSecretsKey,
	"kv_namespaces":           readKV,
	"r2_buckets":              readR2,
	"d1_databases":            readD1,
	"durable_objects":         readDurableObjects,
	"migrations":              readMigrations,
	"queues":                  readQueues,
	"services":                readServices,
	"triggers":                readTriggers,
	"assets":                  readAssets,
	"build":                   readBuild,
	"rules":                   readRules,
	"find_additional_modules": readBundleBool(func(b *Bundle) *bool { return &b.FindAdditionalModules }),
	"preserve_file_names":     readBundleBool(func(b *Bundle) *bool { return &b.PreserveFileNames }),
	"no_bundle":               readBundleBool(func(b *Bundle) *bool { return &b.NoBundle }),
	"minify":                  readBundleBool(func(b *Bundle) *bool { return &b.Minify }),
	"keep_names":              readBundleBool(func(b *Bundle) *bool { return &b.KeepNames }),
	"base_dir":                readBaseDir,
	"define":                  readDefine,
	"alias":                   readAlias,
	"tsconfig":                readTSConfig,
	"jsx_factory":             readJSX(func(b *Bundle) *string { return &b.JSXFactory }),
	"jsx_fragment":            readJSX(func(b *Bundle) *string { return &b.JSXFragment }),
	"limits":                  readLimits,
}

// maxCPUMs is the largest limits.cpu_ms Cloudflare accepts: 5 minutes.
const maxCPUMs = 300_000

// readLimits reads limits: cpu_ms is the CPU time one event may use;
// subrequests is not enforced.
func readLimits(l *loader, o *obj, k string) {
	lo := o.child(k)
	if lo == nil {
		return
	}
	if ms, ok := lo.integer("cpu_ms", 1, maxCPUMs); ok {
		l.p.CPULimit = time.Duration(ms) * time.Millisecond
	}
	lo.ignore("subrequests", "dwk does not count subrequests")
	lo.done()
}

// workerName is wrangler's rule for worker names (isValidName).
var workerName = regexp.MustCompile(`^[a-z0-9_][a-z0-9_-]*$`)

func readName(l *loader, o *obj, k string) {
	s, ok := o.str(k)
	switch {
	case !ok:
		return
	case s == "":
		l.r.errorf(o.at(k), "must not be empty: the worker's name, such as \"my-worker\"")
		return
	case !workerName.MatchString(s):
		l.r.errorf(o.at(k), "must be lowercase letters, digits, '-' and '_', starting with a letter, digit or '_' (wrangler's rule), got %q", s)
		return
	}
	l.p.Name = s
	if l.nameSuffix != "" && (o.base == nil || o.base[k] == "") {
		l.p.Name += l.nameSuffix
	}
}

func readMain(l *loader, o *obj, k string) {
	s := o.nonEmptyStr(k)
	if strings.HasSuffix(s, ".py") {
		l.r.errorf(o.at(k), "not supported by dwk: %q is a Python worker; dwk runs JavaScript and TypeScript", s)
		return
	}
	if s != "" {
		l.p.Main = l.abs(s)
	}
}

func readCompatibilityDate(l *loader, o *obj, k string) {
	s, ok := o.str(k)
	if !ok {
		return
	}
	if strings.ContainsAny(s, "–—") {
		l.r.errorf(o.at(k), "must use plain hyphens (-), not en or em dashes, got %q", s)
		return
	}
	if _, err := time.Parse(time.DateOnly, s); err != nil {
		l.r.errorf(o.at(k), "must be a date written YYYY-MM-DD, such as \"2025-01-15\", got %q", s)
		return
	}
	l.p.CompatibilityDate = s
}

func readCompatibilityFlags(l *loader, o *obj, k string) {
	if flags, ok := o.strs(k); ok {
		l.p.CompatibilityFlags = flags
	}
}

func readBundleBool(field func(*Bundle) *bool) func(*loader, *obj, string) {
	return func(l *loader, o *obj, k string) {
		if b, ok := o.boolean(k); ok {
			*field(&l.p.Bundle) = b
		}
	}
}

func readJSX(field func(*Bundle) *string) func(*loader, *obj, string) {
	return func(l *loader, o *obj, k string) {
		if s := o.nonEmptyStr(k); s != "" {
			*field(&l.p.Bundle) = s
		}
	}
}

func readBaseDir(l *loader, o *obj, k string) {
	if s := o.nonEmptyStr(k); s != "" {
		l.p.Bundle.BaseDir = l.abs(s)
	}
}

func readTSConfig(l *loader, o *obj, k string) {
	if s := o.nonEmptyStr(k); s != "" {
		l.p.Bundle.TSConfig = l.abs(s)
	}
}

func readDefine(l *loader, o *obj, k string) {
	if m, ok := o.strMap(k); ok {
		l.p.Bundle.Define = m
	}
}

func readAlias(l *loader, o *obj, k string) {
	if m, ok := o.strMap(k); ok {
		l.p.Bundle.Alias = m
	}
}

func readTriggers(l *loader, o *obj, k string) {
	t := o.child(k)
	if t == nil {
		return
	}
	if crons, ok := t.strs("crons"); ok {
		l.p.Crons = crons
	}
	t.refuse("events", "dwk has no Artifacts events")
	t.done()
}

// readBuild reads build: the custom build step.
func readBuild(l *loader, o *obj, k string) {
	b := o.child(k)
	if b == nil {
		return
	}
	l.p.Build.Command = b.nonEmptyStr("command")
	if s := b.nonEmptyStr("cwd"); s != "" {
		l.p.Build.Cwd = l.abs(s)
	}
	if v, ok := b.get("watch_dir"); ok {
		if s, isStr := v.(string); isStr {
			l.p.Build.WatchDirs = []string{l.abs(s)}
		} else if dirs, ok := l.r.strings(b.at("watch_dir"), v); ok {
			l.p.Build.WatchDirs = make([]string, len(dirs))
			for i, d := range dirs {
				l.p.Build.WatchDirs[i] = l.abs(d)
			}
		}
	}
	b.done()
}

// ruleTypes are the module types of rules dwk's bundler loads.
var ruleTypes = []string{"ESModule", "CommonJS", "Text", "Data", "CompiledWasm"}

func readRules(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		r := Rule{Type: e.requiredStr("type", "one of "+quoteList(ruleTypes))}
		switch {
		case r.Type == "PythonModule" || r.Type == "PythonRequirement":
			l.r.errorf(e.at("type"), "not supported by dwk: %q rules are for Python workers; dwk runs JavaScript and TypeScript", r.Type)
		case r.Type != "" && !oneOf(r.Type, ruleTypes):
			l.r.errorf(e.at("type"), "must be one of %s, got %q", quoteList(ruleTypes), r.Type)
		}
		if globs, ok := e.strs("globs"); ok {
			r.Globs = globs
		} else if !e.has("globs") {
			l.r.errorf(e.at("globs"), "is required: the file patterns the rule matches, such as [\"**/*.txt\"]")
		}
		r.Fallthrough, _ = e.boolean("fallthrough")
		l.p.Bundle.Rules = append(l.p.Bundle.Rules, r)
	})
}

func oneOf(s string, allowed []string) bool {
	for _, a := range allowed {
		if s == a {
			return true
		}
	}
	return false
}
