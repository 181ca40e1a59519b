package artifact

import (
	"path"
	"strings"
)

// AssetsIgnoreFile is the file in an assets directory whose patterns name
// the files not to ship, as wrangler reads it.
const AssetsIgnoreFile = ".assetsignore"

// defaultIgnore are the files wrangler never uploads as assets: its own
// ignore file and Cloudflare's _redirects and _headers, which configure
// the assets rather than being served.
var defaultIgnore = []string{"/" + AssetsIgnoreFile, "/_redirects", "/_headers"}

// ignoreRule is one line of an ignore file.
type ignoreRule struct {
	negate   bool     // "!pattern": include what an earlier rule left out
	dirOnly  bool     // "pattern/": directories only
	anchored bool     // a '/' before the end: relative to the root
	segs     []string // the pattern's path segments
}

// ignoreRules are gitignore-style rules, as wrangler applies
// .assetsignore (with the "ignore" npm package): blank lines and lines
// starting with '#' are skipped; '!' negates; a pattern holding a '/'
// other than a trailing one is relative to the directory's root, any
// other matches a name at any depth; a trailing '/' matches directories
// only; '*', '?' and '[...]' match within a segment ('[!...]' negates a
// class), "**" matches any number of segments; the last rule that matches
// decides. A directory left out leaves out everything in it.
type ignoreRules []ignoreRule

// parseIgnore reads the rules of an ignore file's text after wrangler's
// defaults.
func parseIgnore(text string) ignoreRules {
	var rs ignoreRules
	for _, line := range append(append([]string(nil), defaultIgnore...), strings.Split(text, "\n")...) {
		line = strings.TrimSuffix(line, "\r")
		if r, ok := parseRule(line); ok {
			rs = append(rs, r)
		}
	}
	return rs
}

func parseRule(line string) (ignoreRule, bool) {
	// Trailing spaces go unless escaped with a backslash.
	for strings.HasSuffix(line, " ") && !strings.HasSuffix(line, `\ `) {
		line = line[:len(line)-1]
	}
	if line == "" || strings.HasPrefix(line, "#") {
		return ignoreRule{}, false
	}
	var r ignoreRule
	if strings.HasPrefix(line, "!") {
		r.negate, line = true, line[1:]
	} else if strings.HasPrefix(line, `\!`) || strings.HasPrefix(line, `\#`) {
		line = line[1:]
	}
	if strings.HasSuffix(line, "/") {
		r.dirOnly, line = true, strings.TrimRight(line, "/")
	}
	if strings.Contains(line, "/") {
		r.anchored, line = true, strings.TrimPrefix(line, "/")
	}
	if line == "" {
		return ignoreRule{}, false
	}
	for _, s := range strings.Split(line, "/") {
		if s == "" {
			continue
		}
		// gitignore negates a class with '!' as well as '^'; path.Match
		// only knows '^'.
		r.segs = append(r.segs, strings.ReplaceAll(s, "[!", "[^"))
	}
	return r, len(r.segs) > 0
}

// ignored reports whether the rules leave out name (slash-separated,
// relative to the root), a directory when dir is set. It does not look at
// name's parents: the walk does not enter a directory left out.
func (rs ignoreRules) ignored(name string, dir bool) bool {
	segs := strings.Split(name, "/")
	out := false
	for _, r := range rs {
		if r.dirOnly && !dir {
			continue
		}
		if r.matches(segs) {
			out = !r.negate
		}
	}
	return out
}

func (r ignoreRule) matches(name []string) bool {
	if r.anchored {
		return matchSegs(r.segs, name)
	}
	for i := range name {
		if matchSegs(r.segs, name[i:]) {
			return true
		}
	}
	return false
}

// matchSegs matches path segments against pattern segments: "**" is any
// number of segments (at least one when it ends the pattern, which then
// matches what is inside a directory, not the directory).
func matchSegs(pat, name []string) bool {
	if len(pat) == 0 {
		return len(name) == 0
	}
	if pat[0] == "**" {
		min := 0
		if len(pat) == 1 {
			min = 1
		}
		for i := min; i <= len(name); i++ {
			if matchSegs(pat[1:], name[i:]) {
				return true
			}
		}
		return false
	}
	if len(name) == 0 {
		return false
	}
	ok, err := path.Match(pat[0], name[0])
	return err == nil && ok && matchSegs(pat[1:], name[1:])
}
