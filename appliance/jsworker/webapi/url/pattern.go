package url

import (
	"errors"
	"sort"
	"strings"

	"github.com/dop251/goja"
	"github.com/dunglas/go-urlpattern"
)

// patternFields are URLPatternInit's members, in order.
var patternFields = [...]string{"protocol", "username", "password", "hostname", "port", "pathname", "search", "hash"}

// patternInit reads a URLPatternInit dictionary from o.
func patternInit(o *goja.Object) *urlpattern.URLPatternInit {
	str := func(name string) *string {
		v := o.Get(name)
		if v == nil || goja.IsUndefined(v) {
			return nil
		}
		s := v.String()
		return &s
	}
	return &urlpattern.URLPatternInit{
		Protocol: str("protocol"),
		Username: str("username"),
		Password: str("password"),
		Hostname: str("hostname"),
		Port:     str("port"),
		Pathname: str("pathname"),
		Search:   str("search"),
		Hash:     str("hash"),
		BaseURL:  str("baseURL"),
	}
}

// newPattern compiles a URLPattern from a pattern string (with baseURL,
// nil for none) or an init dictionary.
func newPattern(input goja.Value, baseURL *string, ignoreCase bool) (*urlpattern.URLPattern, error) {
	opts := &urlpattern.Options{IgnoreCase: ignoreCase}
	if o, ok := input.(*goja.Object); ok {
		if baseURL != nil {
			return nil, errors.New("a baseURL argument is not allowed with a URLPatternInit; put baseURL in the init object")
		}
		return patternInit(o).New(opts)
	}
	base := ""
	if baseURL != nil {
		base = *baseURL
		if base == "" {
			return nil, errors.New("invalid baseURL: the empty string")
		}
	}
	p, err := urlpattern.New(input.String(), base, opts)
	if errors.Is(err, urlpattern.ErrNoBaseURL) {
		return nil, errors.New("a relative pattern needs a baseURL")
	}
	return p, err
}

// patternStrings are p's component patterns in patternFields order.
func patternStrings(p *urlpattern.URLPattern) [8]string {
	return [8]string{p.Protocol(), p.Username(), p.Password(), p.Hostname(), p.Port(), p.Pathname(), p.Search(), p.Hash()}
}

// execPattern matches input (a URL string with baseURL, or an init
// dictionary) and builds exec's result without its inputs member, or
// null.
func execPattern(rt *goja.Runtime, p *urlpattern.URLPattern, input goja.Value, baseURL *string) (goja.Value, error) {
	var r *urlpattern.URLPatternResult
	if o, ok := input.(*goja.Object); ok {
		if baseURL != nil {
			return nil, errors.New("a baseURL argument is not allowed with a URLPatternInit; put baseURL in the init object")
		}
		r = p.ExecInit(patternInit(o))
	} else {
		base := ""
		if baseURL != nil {
			if *baseURL == "" {
				return goja.Null(), nil
			}
			base = *baseURL
		}
		r = p.Exec(input.String(), base)
	}
	if r == nil {
		return goja.Null(), nil
	}
	patterns := patternStrings(p)
	out := rt.NewObject()
	for k, c := range [8]urlpattern.URLPatternComponentResult{r.Protocol, r.Username, r.Password, r.Hostname, r.Port, r.Pathname, r.Search, r.Hash} {
		res := rt.NewObject()
		res.Set("input", c.Input)
		res.Set("groups", groupsObject(rt, c.Groups, patterns[k]))
		out.Set(patternFields[k], res)
	}
	return out, nil
}

// groupsObject makes the groups of a component's match. Named groups are
// listed in the order the pattern names them (Go's map lost it). A group
// that did not take part in the match is undefined in JavaScript, but the
// matcher reports it as "": a named group with the default segment
// pattern (":id?") cannot match "", so its "" is made undefined; other
// groups keep "".
func groupsObject(rt *goja.Runtime, groups map[string]string, pattern string) *goja.Object {
	names := make([]string, 0, len(groups))
	for name := range groups {
		names = append(names, name)
	}
	pos := func(name string) int {
		if k := strings.Index(pattern, ":"+name); k >= 0 {
			return k
		}
		return len(pattern)
	}
	sort.Slice(names, func(a, b int) bool {
		pa, pb := pos(names[a]), pos(names[b])
		if pa != pb {
			return pa < pb
		}
		return names[a] < names[b]
	})
	o := rt.NewObject()
	for _, name := range names {
		v := groups[name]
		if v == "" && defaultSegment(pattern, name) {
			o.Set(name, goja.Undefined())
			continue
		}
		o.Set(name, v)
	}
	return o
}

// defaultSegment reports whether pattern names the group name (":name")
// without a regular expression of its own.
func defaultSegment(pattern, name string) bool {
	for from := 0; ; {
		k := strings.Index(pattern[from:], ":"+name)
		if k < 0 {
			return false
		}
		end := from + k + 1 + len(name)
		if end == len(pattern) || !isNameChar(rune(pattern[end])) {
			return end == len(pattern) || pattern[end] != '('
		}
		from = end
	}
}

// isNameChar approximates the identifier characters of group names.
func isNameChar(r rune) bool {
	return r == '_' || r == '$' || 'a' <= r && r <= 'z' || 'A' <= r && r <= 'Z' || '0' <= r && r <= '9' || r >= 0x80
}
