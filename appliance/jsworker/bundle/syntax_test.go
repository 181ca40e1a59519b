package bundle

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"
	"testing"

	"github.com/dop251/goja"
	"github.com/dop251/goja/parser"
)

// namedGroups stands in for the runtime's RegExp wrapper: it handles named
// groups, which goja's RegExp matches but does not report in .groups.
const namedGroups = `
(() => {
	const Native = RegExp;
	globalThis.RegExp = function RegExp(pattern, flags) {
		const names = [];
		let source = "", group = 0;
		for (let i = 0; i < pattern.length; i++) {
			const c = pattern[i];
			if (c === "\\") { source += c + pattern[++i]; continue; }
			if (c === "(" && pattern[i + 1] !== "?") group++;
			if (c === "(" && pattern.startsWith("(?<", i) && !"=!".includes(pattern[i + 3])) {
				const end = pattern.indexOf(">", i);
				names.push([pattern.slice(i + 3, end), ++group]);
				source += "(";
				i = end;
				continue;
			}
			source += c;
		}
		const re = new Native(source, flags);
		const exec = re.exec;
		re.exec = function (s) {
			const m = exec.call(this, s);
			if (m && names.length) {
				m.groups = {};
				for (const [name, i] of names) m.groups[name] = m[i];
			}
			return m;
		};
		return re;
	};
})();
`

func TestSyntaxLoweredForGoja(t *testing.T) {
	dir := fixture(t, "syntax")
	b := mustBuild(t, Options{Dir: dir, Entry: "src/index.js"})
	script := string(b.Script)

	// What goja lacks is gone; what it has is left as written.
	absent := []string{"async function*", "for await", "/(?<year>", "/d;", "/v]"}
	for _, s := range absent {
		if strings.Contains(script, s) {
			t.Errorf("script contains %q, which goja cannot run", s)
		}
	}
	present := []string{
		"2n ** 64n",         // BigInt literals
		"#n = 0n",           // private fields
		"static #instances", // private static fields
		"#secret()",         // private methods
		"#n in o",           // private brand checks
		"unset ??= ",        // logical assignment
		`new RegExp("(?<year>\\d{4})-(?<month>\\d{2})")`,
		`new RegExp("\\p{L}+", "u")`,
		`new RegExp("a", "d")`,
		`new RegExp("[\\p{L}--[a-z]]", "v")`,
	}
	for _, s := range present {
		if !strings.Contains(script, s) {
			t.Errorf("script lacks %q", s)
		}
	}

	// The script runs in goja, given the runtime's RegExp handling of named
	// groups; run fails the test if goja cannot parse it.
	vm := run(t, b, namedGroups)
	got := evalJSON(t, vm, "__dwk_entry.default.run()")
	want := map[string]any{
		"total":     6.0,
		"big":       "18446744073709551616",
		"value":     "42",
		"reveal":    "private method",
		"kind":      "counter",
		"instances": 1.0,
		"has":       true,
		"year":      "2024",
		"month":     "05",
		"missing":   "none",
		"unset":     "assigned",
	}
	var gotMap map[string]any
	if err := json.Unmarshal([]byte(got), &gotMap); err != nil {
		t.Fatal(err)
	}
	for k, w := range want {
		if gotMap[k] != w {
			t.Errorf("run().%s = %v, want %v", k, gotMap[k], w)
		}
	}
	if len(gotMap) != len(want) {
		t.Errorf("run() = %s, want exactly the keys of %v", got, want)
	}
}

func TestSupportedMap(t *testing.T) {
	got := supported(false)
	want := map[string]bool{
		"async-generator":                 false,
		"for-await":                       false,
		"regexp-named-capture-groups":     false,
		"regexp-unicode-property-escapes": false,
		"regexp-match-indices":            false,
		"regexp-set-notation":             false,
	}
	if len(got) != len(want) {
		t.Errorf("supported(false) = %v, want %v", got, want)
	}
	for k, w := range want {
		if v, ok := got[k]; !ok || v != w {
			t.Errorf("supported()[%q] = %v, %v; want %v", k, v, ok, w)
		}
	}
	// A fresh map each time: esbuild may not share it between builds.
	got["async-generator"] = true
	if supported(false)["async-generator"] {
		t.Error("supported() returns a shared map")
	}
}

func TestRegexpWithoutUnsupportedFeaturesStaysLiteral(t *testing.T) {
	dir := t.TempDir()
	writeFile(t, dir, "index.js", `export default { re: [/(?<=a)b/s, /x/y, /\u{61}/u] };`)
	b := mustBuild(t, Options{Dir: dir, Entry: "index.js"})
	if m := regexp.MustCompile(`new RegExp`).FindString(string(b.Script)); m != "" {
		t.Errorf("script has %q; lookbehind, s, y and u are goja's own", m)
	}
}

func TestLowerClassFields(t *testing.T) {
	dir := fixture(t, "fields")
	plain, err := Build(context.Background(), Options{Dir: dir, Entry: "src/index.js"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := goja.Parse(ScriptName, string(plain.Script), parser.WithDisableSourceMaps); err == nil {
		t.Error("goja parsed a class field named set: the fallback is no longer needed (drop LowerClassFields)")
	}
	lowered, err := Build(context.Background(), Options{Dir: dir, Entry: "src/index.js", LowerClassFields: true})
	if err != nil {
		t.Fatal(err)
	}
	rt := run(t, lowered, "")
	v, err := rt.RunString(`(() => { const c = __dwk_entry.default.context(); c.set("a", 42); return c.get("a") + (__dwk_entry.Context.async ? 1 : 0) })()`)
	if err != nil || v.ToInteger() != 43 {
		t.Errorf("lowered fields: got %v, %v; want 43", v, err)
	}
}
