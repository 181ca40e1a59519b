package wrangler

// readVars reads vars: each value a string or any other JSON value, as
// wrangler allows. A TOML date is refused, as wrangler refuses it, since
// JavaScript would see a Date-shaped string it did not write.
func readVars(l *loader, o *obj, k string) {
	v := o.child(k)
	if v == nil {
		return
	}
	for _, name := range sortedKeys(v.m) {
		v.get(name)
		path := v.at(name)
		if d := findDate(v.m[name]); d != "" {
			l.r.errorf(path, "is a TOML date (%s), which wrangler does not accept either: write it as a string, %s = \"%s\"", d, name, d)
			continue
		}
		l.p.Vars[name] = v.m[name]
		l.bind(name, path, false)
	}
}

// findDate returns the text of the first TOML date inside v, if any.
func findDate(v any) string {
	switch v := v.(type) {
	case tomlDate:
		return string(v)
	case []any:
		for _, e := range v {
			if d := findDate(e); d != "" {
				return d
			}
		}
	case map[string]any:
		for _, k := range sortedKeys(v) {
			if d := findDate(v[k]); d != "" {
				return d
			}
		}
	}
	return ""
}

// readSecretsKey reads the secrets key: secrets.required names the
// secrets the worker needs.
func readSecretsKey(l *loader, o *obj, k string) {
	s := o.child(k)
	if s == nil {
		return
	}
	l.secretsKey = true
	l.requiredPath = s.at("required")
	if req, ok := s.strs("required"); ok {
		l.p.RequiredSecrets = req
		for i, name := range req {
			l.bind(name, index(s.at("required"), i), false)
		}
	}
	s.done()
}
