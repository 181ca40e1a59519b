package jsworker

import (
	"encoding/json"
	"reflect"
	"sort"
	"strings"

	"github.com/dop251/goja/ast"
)

// The bundler turns regexp literals that use what goja's RegExp lacks
// into new RegExp(...) calls, which the lang extension handles; but it
// misses some (a \p{...} inside a character class, as in
// /^[\p{L}\p{N}_-]+$/u, which zod-style validators write). goja parses
// those and never matches them. rewriteRegExps finds the literals that
// remain and rewrites them as constructor calls.

// needsConstructor reports whether a regexp literal uses a feature only
// the RegExp constructor of the lang extension handles.
func needsConstructor(pattern, flags string) bool {
	if strings.ContainsAny(flags, "dv") {
		return true
	}
	if strings.Contains(pattern, `\p{`) || strings.Contains(pattern, `\P{`) || strings.Contains(pattern, `\k<`) {
		return true
	}
	for i := strings.Index(pattern, "(?<"); i >= 0; i = strings.Index(pattern, "(?<") {
		if rest := pattern[i+3:]; rest != "" && rest[0] != '=' && rest[0] != '!' {
			return true
		}
		pattern = pattern[i+3:]
	}
	return false
}

// mayNeedConstructor is a cheap look at the script before parsing it
// again: no literal can need the constructor when this is false.
func mayNeedConstructor(script string) bool {
	return strings.Contains(script, `\p{`) || strings.Contains(script, `\P{`) || strings.Contains(script, "(?<") ||
		strings.Contains(script, `\k<`) || strings.Contains(script, "/d") || strings.Contains(script, "/v")
}

// rewriteRegExps returns script with every regexp literal of prg that
// needs the constructor written as new RegExp(pattern, flags), and
// whether it changed anything. prg must be script's AST.
func rewriteRegExps(script string, prg *ast.Program) (string, bool) {
	var lits []*ast.RegExpLiteral
	walk(reflect.ValueOf(prg), func(l *ast.RegExpLiteral) {
		if needsConstructor(l.Pattern, l.Flags) {
			lits = append(lits, l)
		}
	})
	if len(lits) == 0 {
		return script, false
	}
	sort.Slice(lits, func(i, j int) bool { return lits[i].Idx > lits[j].Idx })
	for _, l := range lits {
		start := int(l.Idx) - 1
		end := start + len(l.Literal)
		if start < 0 || end > len(script) || script[start:end] != l.Literal {
			continue
		}
		p, _ := json.Marshal(l.Pattern)
		f, _ := json.Marshal(l.Flags)
		script = script[:start] + "new RegExp(" + string(p) + ", " + string(f) + ")" + script[end:]
	}
	return script, true
}

var regexpType = reflect.TypeFor[*ast.RegExpLiteral]()

// walk calls fn for every RegExpLiteral reachable from v.
func walk(v reflect.Value, fn func(*ast.RegExpLiteral)) {
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return
		}
		if v.Type() == regexpType {
			fn(v.Interface().(*ast.RegExpLiteral))
			return
		}
		walk(v.Elem(), fn)
	case reflect.Interface:
		if !v.IsNil() {
			walk(v.Elem(), fn)
		}
	case reflect.Struct:
		for k := 0; k < v.NumField(); k++ {
			if f := v.Field(k); f.CanInterface() {
				walk(f, fn)
			}
		}
	case reflect.Slice:
		for k := 0; k < v.Len(); k++ {
			walk(v.Index(k), fn)
		}
	}
}
