package wrangler

import "fmt"

func readDurableObjects(l *loader, o *obj, k string) {
	d := o.child(k)
	if d == nil {
		return
	}
	if !d.has("bindings") {
		l.r.errorf(d.path, "needs a \"bindings\" array, as wrangler requires")
	}
	d.objects("bindings", func(i int, e *obj) {
		b := DurableObjectBinding{}
		b.Name = e.requiredStr("name", "the name the worker reads the namespace by, as env.NAME")
		l.bind(b.Name, e.at("name"), true)
		b.ClassName = e.requiredStr("class_name", "the exported class that implements the object")
		b.ScriptName = e.nonEmptyStr("script_name")
		b.Environment, _ = e.str("environment")
		if e.has("environment") && !e.has("script_name") {
			l.r.errorf(e.at("environment"), "needs script_name: environment names the environment of the worker script_name names")
		}
		e.ignore("remote", remoteWhy)
		l.p.DurableObjects = append(l.p.DurableObjects, b)
		l.doPaths = append(l.doPaths, e.path)
	})
	d.done()
}

func readMigrations(l *loader, o *obj, k string) {
	o.objects(k, func(i int, e *obj) {
		m := Migration{Tag: e.requiredStr("tag", "a name for the migration, unique in the list")}
		m.NewClasses, _ = e.strs("new_classes")
		m.NewSQLiteClasses, _ = e.strs("new_sqlite_classes")
		e.objects("renamed_classes", func(j int, r *obj) {
			m.RenamedClasses = append(m.RenamedClasses, RenamedClass{
				From: r.requiredStr("from", "the class's old name"),
				To:   r.requiredStr("to", "the class's new name"),
			})
		})
		m.DeletedClasses, _ = e.strs("deleted_classes")
		e.refuse("transferred_classes", "dwk cannot move a class's objects between workers")
		l.p.Migrations = append(l.p.Migrations, m)
		l.migrations = append(l.migrations, e.path)
	})
	if _, err := replay(l.p.Migrations, l.migrations); err != nil {
		l.r.errorf(l.migrations[err.migration], "%s", err.msg)
	}
}

// DurableObjectClass is a Durable Object class as the migrations leave it.
type DurableObjectClass struct {
	// Name is the class's current name.
	Name string
	// Namespace is the name the class was first created as. Its objects'
	// storage is kept under it, so they survive renames.
	Namespace string
	// SQLite is true for a class created by new_sqlite_classes, false for
	// new_classes (key-value storage).
	SQLite bool
}

// DeletedClass is a class a migration deleted.
type DeletedClass struct {
	// Name is the class's name when it was deleted.
	Name string
	// Namespace is the name it was first created as: its storage, which
	// goes with it.
	Namespace string
	// Tag is the migration that deleted it.
	Tag string
}

// migrationError is the first thing wrong with a sequence of migrations.
type migrationError struct {
	migration int // index into the sequence
	msg       string
}

// history is the state replaying migrations builds.
type history struct {
	live    map[string]DurableObjectClass
	order   []string // live class names in creation order
	deleted []DeletedClass
	// used holds every namespace ever created, so a deleted class's name
	// is not reused for new storage.
	used map[string]string // namespace → tag that created it
}

// replay applies migrations in order. Within one migration, new classes
// come first, then renames, then deletions. It stops at the first thing
// wrong, since later migrations build on earlier ones. paths, when given,
// are the migrations' key paths, for messages that point at another one.
func replay(ms []Migration, paths []string) (*history, *migrationError) {
	h := &history{live: map[string]DurableObjectClass{}, used: map[string]string{}}
	tags := map[string]int{}
	name := func(i int) string {
		if i < len(paths) {
			return paths[i]
		}
		return index("migrations", i)
	}
	for i, m := range ms {
		fail := func(format string, args ...any) (*history, *migrationError) {
			return h, &migrationError{migration: i, msg: fmt.Sprintf(format, args...)}
		}
		if j, dup := tags[m.Tag]; dup && m.Tag != "" {
			return fail("tag %q is already used by %s: every migration needs its own tag", m.Tag, name(j))
		}
		tags[m.Tag] = i
		for _, c := range m.NewClasses {
			if err := h.create(c, false, m.Tag); err != "" {
				return fail("%s", err)
			}
		}
		for _, c := range m.NewSQLiteClasses {
			if err := h.create(c, true, m.Tag); err != "" {
				return fail("%s", err)
			}
		}
		for _, r := range m.RenamedClasses {
			if err := h.rename(r.From, r.To); err != "" {
				return fail("%s", err)
			}
		}
		for _, c := range m.DeletedClasses {
			cls, ok := h.live[c]
			if !ok {
				return fail("deletes class %q, which no earlier migration created (or it was already renamed or deleted)", c)
			}
			h.remove(c)
			h.deleted = append(h.deleted, DeletedClass{Name: c, Namespace: cls.Namespace, Tag: m.Tag})
		}
	}
	return h, nil
}

func (h *history) create(name string, sqlite bool, tag string) string {
	if _, ok := h.live[name]; ok {
		return fmt.Sprintf("creates class %q, which already exists", name)
	}
	if t, ok := h.used[name]; ok {
		return fmt.Sprintf("creates class %q, but a class of that name was created by migration %q and since renamed or deleted; dwk keeps storage by a class's first name, so give the new class another name", name, t)
	}
	h.used[name] = tag
	h.live[name] = DurableObjectClass{Name: name, Namespace: name, SQLite: sqlite}
	h.order = append(h.order, name)
	return ""
}

func (h *history) rename(from, to string) string {
	cls, ok := h.live[from]
	if !ok {
		return fmt.Sprintf("renames class %q, which no earlier migration created (or it was already renamed or deleted)", from)
	}
	if _, ok := h.live[to]; ok {
		return fmt.Sprintf("renames class %q to %q, which already exists", from, to)
	}
	h.remove(from)
	cls.Name = to
	h.live[to] = cls
	h.order = append(h.order, to)
	return ""
}

func (h *history) remove(name string) {
	delete(h.live, name)
	for i, n := range h.order {
		if n == name {
			h.order = append(h.order[:i], h.order[i+1:]...)
			return
		}
	}
}

// DurableObjectClasses returns the classes the migrations leave, in the
// order they were created or last renamed. Load has checked the
// migrations; for a Project made otherwise, the replay stops at the first
// migration that does not apply.
func (p *Project) DurableObjectClasses() []DurableObjectClass {
	h, _ := replay(p.Migrations, nil)
	out := make([]DurableObjectClass, 0, len(h.order))
	for _, n := range h.order {
		out = append(out, h.live[n])
	}
	return out
}

// ClassNamespaces maps each Durable Object class this worker defines to
// the namespace its storage is kept under: the name it was first created
// as, following renames. A class bound in durable_objects but created by
// no migration (Load warns) maps to its own name.
func (p *Project) ClassNamespaces() map[string]string {
	out := map[string]string{}
	for _, c := range p.DurableObjectClasses() {
		out[c.Name] = c.Namespace
	}
	for _, b := range p.DurableObjects {
		if b.ScriptName == "" && b.ClassName != "" {
			if _, ok := out[b.ClassName]; !ok {
				out[b.ClassName] = b.ClassName
			}
		}
	}
	return out
}

// DeletedClasses lists the classes migrations deleted, in order: their
// objects and storage are to be removed.
func (p *Project) DeletedClasses() []DeletedClass {
	h, _ := replay(p.Migrations, nil)
	return h.deleted
}
