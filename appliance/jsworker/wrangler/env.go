package wrangler

// envView is what an environment sees: its own keys, the inherited keys
// it does not set taken from the top level, and the top-level-only keys.
// Each key keeps the path it was written at, so a problem in an inherited
// value names the top-level key. Keys that environments do not inherit
// are left out, with wrangler's warning when the top level has them.
func envView(r *report, top map[string]any, name string, raw map[string]any) *obj {
	path := join("env", name)
	o := &obj{r: r, path: path, m: map[string]any{}, base: map[string]string{}}
	for _, k := range sortedKeys(raw) {
		row, known := keyByName(k)
		switch {
		case k == "env":
			r.warnf(join(path, k), "ignored: environments do not nest")
			continue
		case known && row.scope == topOnly:
			r.warnf(join(path, k), "ignored: %q is read at the top level only, for every environment (wrangler ignores it here too); move it to the top level", k)
			continue
		}
		o.m[k] = raw[k]
		o.base[k] = path
	}
	for _, row := range keys {
		v, atTop := top[row.name]
		if !atTop {
			continue
		}
		_, inEnv := raw[row.name]
		switch {
		case row.scope == topOnly, row.scope == inherited && !inEnv:
			o.m[row.name] = v
			o.base[row.name] = ""
		case row.scope == perEnv && !inEnv:
			r.warnf(path, "%q is set at the top level but not in this environment, and environments do not inherit it: the worker gets none; add %q to %s if it needs it", row.name, row.name, path)
		}
	}
	warnMissingEntries(r, top, raw, path)
	return o
}

// warnMissingEntries warns, as wrangler does, about vars, define entries
// and bindings that the top level has and the environment, which sets the
// key, lacks: environments do not inherit them one by one either.
func warnMissingEntries(r *report, top, env map[string]any, path string) {
	for _, k := range []string{"vars", "define"} {
		t, ok1 := top[k].(map[string]any)
		e, ok2 := env[k].(map[string]any)
		if !ok1 || !ok2 {
			continue
		}
		for _, name := range sortedKeys(t) {
			if _, ok := e[name]; !ok {
				r.warnf(join(path, k), "%q is in the top level's %s but not here, and environments do not inherit it", name, k)
			}
		}
	}
	lists := []struct{ key, field string }{
		{"kv_namespaces", "binding"},
		{"r2_buckets", "binding"},
		{"d1_databases", "binding"},
		{"services", "binding"},
	}
	for _, l := range lists {
		warnMissingBindings(r, join(path, l.key), top[l.key], env[l.key], l.field)
	}
	warnMissingBindings(r, join(path, "durable_objects.bindings"), dig(top, "durable_objects", "bindings"), dig(env, "durable_objects", "bindings"), "name")
	warnMissingBindings(r, join(path, "queues.producers"), dig(top, "queues", "producers"), dig(env, "queues", "producers"), "binding")
}

func warnMissingBindings(r *report, path string, top, env any, field string) {
	t, ok1 := top.([]any)
	e, ok2 := env.([]any)
	if !ok1 || !ok2 {
		return
	}
	have := map[any]bool{}
	for _, b := range e {
		if m, ok := b.(map[string]any); ok {
			have[m[field]] = true
		}
	}
	for _, b := range t {
		m, ok := b.(map[string]any)
		if !ok {
			continue
		}
		if name, ok := m[field].(string); ok && !have[name] {
			r.warnf(path, "binding %q is at the top level but not here, and environments do not inherit it", name)
		}
	}
}

// dig follows keys through nested objects, returning nil when one is
// missing.
func dig(m map[string]any, keys ...string) any {
	var v any = m
	for _, k := range keys {
		o, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = o[k]
	}
	return v
}
