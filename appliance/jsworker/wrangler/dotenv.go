package wrangler

import (
	"regexp"
	"strings"
)

// envVars is what a dotenv file sets, in the order keys first appear.
type envVars struct {
	keys []string
	vals map[string]string
}

func newEnvVars() *envVars { return &envVars{vals: map[string]string{}} }

func (e *envVars) set(k, v string) {
	if _, ok := e.vals[k]; !ok {
		e.keys = append(e.keys, k)
	}
	e.vals[k] = v
}

// dotenvLine is the line pattern of dotenv 16 (lib/main.js), the parser
// wrangler reads .dev.vars and .env files with: KEY=value or KEY: value,
// an optional "export " prefix, values in ”, "" or “ quotes (which may
// span lines), unquoted values up to a # or the end of the line, and
// comments. Go's regexp picks the same match a backtracking engine does.
var dotenvLine = regexp.MustCompile(`(?m)^\s*(?:export\s+)?([\w.-]+)(?:\s*=\s*?|:\s+?)(\s*'(?:\\'|[^'])*'|\s*"(?:\\"|[^"])*"|\s*` + "`(?:\\\\`|[^`])*`" + `|[^#\r\n]+)?\s*(?:#.*)?$`)

// parseDotenv reads a dotenv file as dotenv 16's parse does: a later
// line for a key replaces an earlier one; lines that are not assignments
// are skipped. Surrounding quotes are removed, and in double quotes \n
// and \r become a newline and a carriage return; nothing else is
// unescaped.
func parseDotenv(src string) *envVars {
	src = strings.NewReplacer("\r\n", "\n", "\r", "\n").Replace(src)
	out := newEnvVars()
	for _, m := range dotenvLine.FindAllStringSubmatch(src, -1) {
		v := strings.TrimSpace(m[2])
		if n := len(v); n >= 2 && strings.ContainsRune("'\"`", rune(v[0])) && v[n-1] == v[0] {
			quote := v[0]
			v = v[1 : n-1]
			if quote == '"' {
				v = strings.NewReplacer(`\n`, "\n", `\r`, "\r").Replace(v)
			}
		}
		out.set(m[1], v)
	}
	return out
}

// expandDotenv expands references to other variables in parsed, as
// dotenv-expand 12 does for wrangler's .env files (not for .dev.vars):
// $NAME and ${NAME}, ${NAME:-default} and ${NAME-default} (the default
// when NAME is unset or empty), ${NAME:+alt} and ${NAME+alt} (alt when
// NAME is set), \$ for a literal $. A name resolves to processEnv first,
// then to the keys before it in the file. A key processEnv already sets
// to something else keeps processEnv's value. The result is processEnv
// with every parsed key added.
func expandDotenv(parsed *envVars, processEnv map[string]string) map[string]string {
	out := make(map[string]string, len(processEnv)+len(parsed.keys))
	for k, v := range processEnv {
		out[k] = v
	}
	running := map[string]string{}
	for _, k := range parsed.keys {
		v := parsed.vals[k]
		if pv := processEnv[k]; pv != "" && pv != v {
			v = pv
		} else {
			v = expandValue(v, processEnv, running)
		}
		v = strings.ReplaceAll(v, `\$`, "$")
		parsed.vals[k] = v
		running[k] = v
	}
	for _, k := range parsed.keys {
		out[k] = parsed.vals[k]
	}
	return out
}

// maxExpansions bounds the expansion of one value; dotenv-expand stops
// self-reference with its seen set, this is a backstop.
const maxExpansions = 1000

func expandValue(value string, processEnv, running map[string]string) string {
	lookup := func(k string) string {
		if v, ok := processEnv[k]; ok {
			return v
		}
		return running[k]
	}
	result := value
	seen := map[string]bool{}
	for n := 0; n < maxExpansions; n++ {
		template, expr, ok := findReference(result)
		if !ok {
			break
		}
		seen[result] = true
		key, op, rest := splitOperator(expr)
		var replacement string
		switch op {
		case ":+", "+":
			if lookup(key) != "" {
				replacement = rest
			}
		default:
			replacement = rest
			if v := lookup(key); v != "" && !seen[v] {
				replacement = v
			}
		}
		// dotenv-expand replaces the first occurrence of the reference's
		// text, which is not always the one it found.
		result = strings.Replace(result, template, replacement, 1)
		if r, ok := running[key]; ok && result == r {
			break
		}
	}
	return result
}

// findReference finds the first $NAME or ${...} not preceded by a
// backslash, returning its text and what names the variable.
func findReference(s string) (template, expr string, ok bool) {
	for i := 0; i < len(s); i++ {
		if s[i] != '$' || (i > 0 && s[i-1] == '\\') {
			continue
		}
		if i+1 < len(s) && s[i+1] == '{' {
			j := i + 2
			for j < len(s) && s[j] != '{' && s[j] != '}' {
				j++
			}
			if j < len(s) && s[j] == '}' && j > i+2 {
				return s[i : j+1], s[i+2 : j], true
			}
		}
		j := i + 1
		if j < len(s) && (isLetter(s[j]) || s[j] == '_') {
			for j < len(s) && (isLetter(s[j]) || isDigit(s[j]) || s[j] == '_') {
				j++
			}
			return s[i:j], s[i+1 : j], true
		}
	}
	return "", "", false
}

// splitOperator splits NAME:-default and the like at the first operator.
func splitOperator(expr string) (key, op, rest string) {
	for i := 0; i < len(expr); i++ {
		for _, candidate := range []string{":+", "+", ":-", "-"} {
			if strings.HasPrefix(expr[i:], candidate) {
				return expr[:i], candidate, expr[i+len(candidate):]
			}
		}
	}
	return expr, "", ""
}

func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
