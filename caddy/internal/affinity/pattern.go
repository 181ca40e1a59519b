package affinity

import (
	"errors"
	"fmt"
	"strings"
)

// nameVar is the placeholder of the object name in a path pattern.
const nameVar = "{name}"

// pattern is a compiled path pattern.
type pattern struct {
	segs []segment
	// rest: the pattern ends in "...", so any rest of the path matches.
	rest bool
}

// segment is one literal segment, or the name segment with its literal
// prefix and suffix.
type segment struct {
	lit            string
	name           bool
	prefix, suffix string
}

func parsePattern(p string) (pattern, error) {
	if !strings.HasPrefix(p, "/") {
		return pattern{}, fmt.Errorf("path pattern %q must start with '/'", p)
	}
	if strings.Count(p, nameVar) != 1 {
		return pattern{}, fmt.Errorf("path pattern %q must contain %s exactly once", p, nameVar)
	}
	parts := strings.Split(p[1:], "/")
	var out pattern
	for i, s := range parts {
		switch {
		case s == "...":
			if i != len(parts)-1 {
				return pattern{}, fmt.Errorf("path pattern %q: \"...\" must be the last segment", p)
			}
			out.rest = true
		case strings.Contains(s, nameVar):
			pre, suf, _ := strings.Cut(s, nameVar)
			if strings.ContainsAny(pre+suf, "{}") {
				return pattern{}, fmt.Errorf("path pattern %q: segment %q has braces other than %s", p, s, nameVar)
			}
			out.segs = append(out.segs, segment{name: true, prefix: pre, suffix: suf})
		default:
			if strings.ContainsAny(s, "{}") {
				return pattern{}, fmt.Errorf("path pattern %q: segment %q has braces; only %s is a variable", p, s, nameVar)
			}
			out.segs = append(out.segs, segment{lit: s})
		}
	}
	if len(out.segs) == 0 {
		return pattern{}, errors.New("path pattern has no segments")
	}
	return out, nil
}

// match returns the object name in path, or "" when path does not match.
// Without a final "...", the path must have exactly the pattern's segments,
// optionally followed by one slash.
func (p *pattern) match(path string) string {
	if len(p.segs) == 0 || !strings.HasPrefix(path, "/") {
		return ""
	}
	rest := path[1:]
	name := ""
	for i, s := range p.segs {
		seg, after, more := strings.Cut(rest, "/")
		rest = after
		if s.name {
			if len(seg) <= len(s.prefix)+len(s.suffix) || !strings.HasPrefix(seg, s.prefix) || !strings.HasSuffix(seg, s.suffix) {
				return ""
			}
			name = seg[len(s.prefix) : len(seg)-len(s.suffix)]
		} else if seg != s.lit {
			return ""
		}
		if !more {
			if i == len(p.segs)-1 {
				return name
			}
			return ""
		}
	}
	if p.rest || rest == "" {
		return name
	}
	return ""
}
