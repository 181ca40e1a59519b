// Package affinity finds the Durable Object a request addresses, by the
// rules of dwk.json's affinity section: a path pattern with a {name}
// segment, a request header, or a query parameter, each naming an object of
// one namespace (object class).
//
// The name it extracts is the one the application passes to IDFromName, so
// both must read the request the same way: path patterns match the decoded
// path (r.URL.Path) segment by segment, as the reference workers do.
package affinity

import (
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// ErrInvalidRule is wrapped by every error Compile returns.
var ErrInvalidRule = errors.New("invalid affinity rule")

// Rule names the object of one namespace a request addresses. Exactly one of
// Path, Header and Query is set.
type Rule struct {
	// Namespace is the object namespace (class) the name belongs to, as
	// passed to objectid.FromName. Required.
	Namespace string `json:"namespace"`
	// Path is a pattern of slash-separated segments matched against the
	// decoded request path. One segment holds "{name}", optionally between
	// a literal prefix and suffix ("room-{name}"); it matches a non-empty
	// segment and yields the object name. A last segment "..." matches any
	// rest of the path, including none, so "/counter/{name}/..." matches
	// "/counter/a", "/counter/a/" and "/counter/a/increment". Other
	// segments match literally. Default: "" (not a path rule).
	Path string `json:"path,omitempty"`
	// Header names a request header whose value is the object name.
	// Default: "" (not a header rule).
	Header string `json:"header,omitempty"`
	// Query names a query parameter whose value is the object name.
	// Default: "" (not a query rule).
	Query string `json:"query,omitempty"`
}

// Validate reports a rule that cannot be compiled.
func (r Rule) Validate() error {
	_, err := compile(r)
	return err
}

// Object is the object a request addresses.
type Object struct {
	// Namespace is the object class; Name the name passed to IDFromName.
	Namespace, Name string
}

// Matcher applies compiled rules in order. It is immutable and safe for
// concurrent use.
type Matcher struct {
	rules []compiled
	query bool // some rule reads the query string
}

// Compile checks and compiles rules; the first rule that matches a request
// wins.
func Compile(rules []Rule) (*Matcher, error) {
	m := &Matcher{rules: make([]compiled, 0, len(rules))}
	for i, r := range rules {
		c, err := compile(r)
		if err != nil {
			return nil, fmt.Errorf("rule %d: %w", i, err)
		}
		m.rules = append(m.rules, c)
		m.query = m.query || r.Query != ""
	}
	return m, nil
}

// Len is the number of rules.
func (m *Matcher) Len() int { return len(m.rules) }

// Match returns the object of the first rule that finds a non-empty name in
// r; ok is false when no rule does.
func (m *Matcher) Match(r *http.Request) (obj Object, ok bool) {
	var q url.Values
	for i := range m.rules {
		c := &m.rules[i]
		var name string
		switch {
		case c.header != "":
			name = r.Header.Get(c.header)
		case c.query != "":
			if q == nil {
				q = r.URL.Query()
			}
			name = q.Get(c.query)
		default:
			name = c.path.match(r.URL.Path)
		}
		if name != "" {
			return Object{Namespace: c.namespace, Name: name}, true
		}
	}
	return Object{}, false
}

// compiled is one checked rule.
type compiled struct {
	namespace string
	header    string // canonical header key
	query     string
	path      pattern
}

func compile(r Rule) (compiled, error) {
	if r.Namespace == "" {
		return compiled{}, fmt.Errorf("%w: namespace is required", ErrInvalidRule)
	}
	set := 0
	for _, s := range []string{r.Path, r.Header, r.Query} {
		if s != "" {
			set++
		}
	}
	if set != 1 {
		return compiled{}, fmt.Errorf("%w (namespace %q): set exactly one of path, header and query", ErrInvalidRule, r.Namespace)
	}
	c := compiled{namespace: r.Namespace, query: r.Query}
	switch {
	case r.Header != "":
		if strings.ContainsAny(r.Header, " \t\r\n:") {
			return compiled{}, fmt.Errorf("%w (namespace %q): header %q is not a header field name", ErrInvalidRule, r.Namespace, r.Header)
		}
		c.header = http.CanonicalHeaderKey(r.Header)
	case r.Path != "":
		p, err := parsePattern(r.Path)
		if err != nil {
			return compiled{}, fmt.Errorf("%w (namespace %q): %w", ErrInvalidRule, r.Namespace, err)
		}
		c.path = p
	}
	return c, nil
}
