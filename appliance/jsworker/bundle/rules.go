package bundle

import (
	"fmt"
	"regexp"
	"strings"
)

// Rule types: how a file an import names is turned into a module. They are
// wrangler's "rules" types that dwk supports.
const (
	// RuleText makes the file's content, as a string, the module's default
	// export (module.exports).
	RuleText = "Text"
	// RuleData makes the module a Data module: the runtime returns the
	// file's bytes as an ArrayBuffer.
	RuleData = "Data"
	// RuleCompiledWasm makes the module a CompiledWasm module: the runtime
	// returns a WebAssembly.Module compiled from the file.
	RuleCompiledWasm = "CompiledWasm"
	// RuleESModule and RuleCommonJS load the file as JavaScript, whatever
	// its extension; esbuild tells ES modules from CommonJS by their syntax.
	RuleESModule = "ESModule"
	RuleCommonJS = "CommonJS"
)

// Rule is one wrangler module rule; its JSON form is wrangler's.
type Rule struct {
	// Type is one of RuleText, RuleData, RuleCompiledWasm, RuleESModule and
	// RuleCommonJS.
	Type string `json:"type"`
	// Globs are matched against the import specifier as written (for
	// example "./index.html"), as wrangler does with glob-to-regexp: "*"
	// and "**" both match any run of characters, "/" included; every other
	// character is literal, so "**/*.wasm?module" matches "./a.wasm?module".
	Globs []string `json:"globs"`
	// Fallthrough lets later rules of the same Type apply. Without it, a
	// rule hides every later rule of its Type, defaults included: an
	// import that matches only a hidden rule is an error.
	Fallthrough bool `json:"fallthrough,omitempty"`
}

// defaultRules are wrangler's default module rules (DEFAULT_MODULE_RULES
// in its deployment-bundle/rules.ts), applied after Options.Rules.
var defaultRules = []Rule{
	{Type: RuleText, Globs: []string{"**/*.txt", "**/*.html", "**/*.sql"}},
	{Type: RuleData, Globs: []string{"**/*.bin"}},
	{Type: RuleCompiledWasm, Globs: []string{"**/*.wasm", "**/*.wasm?module"}},
}

// ruleMatcher is a rule with its globs compiled.
type ruleMatcher struct {
	rule  Rule
	globs []*regexp.Regexp
}

// match reports whether spec matches one of the rule's globs.
func (m ruleMatcher) match(spec string) bool {
	for _, g := range m.globs {
		if g.MatchString(spec) {
			return true
		}
	}
	return false
}

// ruleSet is the user's rules followed by the defaults, split the way
// wrangler splits them: active rules apply in order; an import that
// matches no active rule but a removed one is an error.
type ruleSet struct {
	active  []ruleMatcher
	removed []ruleMatcher
}

// parseRules validates the user's rules and applies wrangler's
// fallthrough semantics: once a rule of some type without Fallthrough has
// been seen, every later rule of that type is removed.
func parseRules(user []Rule) (ruleSet, error) {
	var rs ruleSet
	completed := map[string]bool{}
	all := append(append([]Rule(nil), user...), defaultRules...)
	for i, r := range all {
		switch r.Type {
		case RuleText, RuleData, RuleCompiledWasm, RuleESModule, RuleCommonJS:
		default:
			return ruleSet{}, fmt.Errorf("rules[%d]: type %q is not supported (want Text, Data, CompiledWasm, ESModule or CommonJS)", i, r.Type)
		}
		if len(r.Globs) == 0 {
			return ruleSet{}, fmt.Errorf("rules[%d]: no globs", i)
		}
		m := ruleMatcher{rule: r}
		for _, g := range r.Globs {
			m.globs = append(m.globs, globRegexp(g))
		}
		if completed[r.Type] {
			rs.removed = append(rs.removed, m)
			continue
		}
		rs.active = append(rs.active, m)
		if !r.Fallthrough {
			completed[r.Type] = true
		}
	}
	return rs, nil
}

// globRegexp compiles a glob the way the glob-to-regexp package does
// without its "extended" and "globstar" options, which is how wrangler
// calls it: any run of "*" becomes ".*", everything else is literal, and
// the whole specifier must match.
func globRegexp(glob string) *regexp.Regexp {
	var b strings.Builder
	b.WriteString("^")
	rs := []rune(glob)
	for i := 0; i < len(rs); i++ {
		switch c := rs[i]; {
		case c == '*':
			for i+1 < len(rs) && rs[i+1] == '*' {
				i++
			}
			b.WriteString(".*")
		case c == '\\' && i+1 < len(rs) && rs[i+1] == '*':
			i++
			b.WriteString(`\*`)
		default:
			b.WriteString(regexp.QuoteMeta(string(c)))
		}
	}
	b.WriteString("$")
	return regexp.MustCompile(b.String())
}
