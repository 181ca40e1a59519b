package wrangler

import (
	"path/filepath"
	"regexp"
)

// finish runs the checks that span keys, on the view just read, and
// fills the defaults that depend on other keys. A missing inherited key
// (name, main, compatibility_date) is reported at the top level, where
// setting it serves every environment.
func (l *loader) finish(o *obj) {
	p := l.p
	if p.Name == "" && !o.has("name") {
		l.r.errorf("name", "is required: the worker's name, such as \"my-worker\"")
	}
	l.checkMain(o)
	if !o.has("compatibility_date") {
		l.r.warnf("compatibility_date", "is not set, so the runtime uses its default date, as wrangler dev does; set it to the date the worker was written for, such as \"2025-01-15\"")
	}
	for i, f := range p.CompatibilityFlags {
		if !knownFlags[f] {
			l.r.warnf(index(o.at("compatibility_flags"), i), "dwk does not know the flag %q: it is passed to the runtime, which may behave as if it were not set", f)
		}
	}
	if p.Bundle.BaseDir == "" && p.Main != "" {
		p.Bundle.BaseDir = filepath.Dir(p.Main)
	}
	if p.Bundle.NoBundle && !o.has("find_additional_modules") {
		p.Bundle.FindAdditionalModules = true // wrangler's default without bundling
	}
	l.checkDurableObjects()
	l.checkBindingNames()
	l.checkConsumers()
}

func (l *loader) checkMain(o *obj) {
	p := l.p
	if p.Main != "" || o.has("main") {
		return
	}
	if p.Assets == nil || p.Assets.Directory == "" {
		l.r.errorf("main", "is required: the worker's entry module, such as \"src/index.ts\" (or set assets.directory alone for a worker that only serves files)")
		return
	}
	if p.Assets.Binding != "" {
		l.r.errorf(join(o.at("assets"), "binding"), "needs main: a worker that only serves files has no code to read the binding %q (wrangler refuses this too)", p.Assets.Binding)
	}
}

// checkDurableObjects compares the bindings with the classes migrations
// leave.
func (l *loader) checkDurableObjects() {
	h, _ := replay(l.p.Migrations, nil)
	for i, b := range l.p.DurableObjects {
		if b.ScriptName != "" || b.ClassName == "" {
			continue
		}
		if _, live := h.live[b.ClassName]; live {
			continue
		}
		path := join(l.doPaths[i], "class_name")
		if tag := deletedBy(h, b.ClassName); tag != "" {
			l.r.errorf(path, "binds class %q, which migration %q deleted: remove the binding, or bind a class that exists", b.ClassName, tag)
			continue
		}
		l.r.warnf(path, "class %q is created by no migration, so dwk cannot tell how its storage began; add a migration, such as tag = \"v1\" with new_sqlite_classes = [%q]", b.ClassName, b.ClassName)
	}
}

func deletedBy(h *history, class string) string {
	for _, d := range h.deleted {
		if d.Name == class {
			return d.Tag
		}
	}
	return ""
}

// jsIdentifier is a name the worker can write as env.NAME.
var jsIdentifier = regexp.MustCompile(`^[A-Za-z_$][A-Za-z0-9_$]*$`)

// checkBindingNames refuses binding names that are not JavaScript
// identifiers, and any name used twice, across every kind of binding, vars
// and required secrets included (wrangler refuses duplicates too).
func (l *loader) checkBindingNames() {
	first := map[string]string{}
	for _, b := range l.bindings {
		if b.resource && !jsIdentifier.MatchString(b.name) {
			l.r.errorf(b.path, "must be a JavaScript identifier (letters, digits, _ and $, not starting with a digit), got %q", b.name)
		}
		if prev, dup := first[b.name]; dup {
			l.r.errorf(b.path, "the name %q is already used by %s: every binding, var and secret needs its own name", b.name, prev)
			continue
		}
		first[b.name] = b.path
	}
}

// checkConsumers refuses two consumers of one queue: a queue has one
// consumer worker.
func (l *loader) checkConsumers() {
	first := map[string]string{}
	for i, c := range l.p.Queues.Consumers {
		if c.Queue == "" {
			continue
		}
		path := join(l.consumers[i], "queue")
		if prev, dup := first[c.Queue]; dup {
			l.r.errorf(path, "queue %q already has a consumer at %s: a queue has one consumer", c.Queue, prev)
			continue
		}
		first[c.Queue] = path
	}
}
