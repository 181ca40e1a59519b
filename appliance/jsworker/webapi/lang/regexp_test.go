package lang

import (
	"strings"
	"testing"

	"github.com/dwk/fleet/appliance/jsworker/jsrt"
	"github.com/dwk/fleet/appliance/jsworker/jsrt/jsrttest"
)

// jsonUnescaper undoes the HTML escaping of encoding/json, for readable
// wants.
var jsonUnescaper = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&")

// evalCases runs each body in one isolate and compares the JSON it
// returns.
func evalCases(t *testing.T, cases []struct{ name, body, want string }) {
	t.Helper()
	iso := jsrttest.New(t, Extension)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err != nil {
				got = "error: " + err.Error()
			}
			got = jsonUnescaper.Replace(got)
			if got != tc.want {
				t.Errorf("got  %s\nwant %s\nbody: %s", got, tc.want, tc.body)
			}
		})
	}
}

// errorCases checks that each body throws an error whose text contains
// want.
func errorCases(t *testing.T, cases []struct{ name, body, want string }) {
	t.Helper()
	iso := jsrttest.New(t, Extension)
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, err := jsrttest.Eval(iso, tc.body)
			if err == nil {
				t.Fatalf("got %s, want an error containing %q", got, tc.want)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got error %q, want one containing %q", err.Error(), tc.want)
			}
		})
	}
}

func TestRegExpNamedGroups(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"router pattern", `const m = new RegExp("^/users/(?<id>[^/]+)/posts/(?<post>\\d+)$").exec("/users/ann/posts/42");
			return [m[1], m[2], m.groups.id, m.groups.post, Object.getPrototypeOf(m.groups)]`,
			`["ann","42","ann","42",null]`},
		{"mixed named and unnamed keep source order", `const m = new RegExp("(?<year>\\d{4})-(\\d{2})-(?<day>\\d{2})").exec("2024-05-17");
			return [m.slice(1), m.groups]`, `[["2024","05","17"],{"day":"17","year":"2024"}]`},
		{"no match", `return new RegExp("(?<a>x)").exec("y")`, `null`},
		{"group that did not take part", `const m = new RegExp("(?<a>x)|(?<b>y)").exec("y");
			return ["a" in m.groups, m.groups.a === undefined, m.groups.b]`, `[true,true,"y"]`},
		{"duplicate names in alternatives", `const m = new RegExp("(?<n>\\d+)px|(?<n>\\d+)em").exec("3em"); return m.groups.n`, `"3"`},
		{"backreference by name", `const re = new RegExp("(?<q>['\"])(?<body>.*?)\\k<q>");
			return [re.exec("say 'hi' now").groups.body, re.test("'x\"")]`, `["hi",false]`},
		{"backreference after unnamed", `return new RegExp("(a)(?<b>b)\\k<b>\\1").exec("abba")[0]`, `"abba"`},
		{"match non-global", `const m = "/users/7".match(new RegExp("/users/(?<id>\\d+)")); return [m.index, m.groups.id]`, `[0,"7"]`},
		{"match global", `return "a1b22".match(new RegExp("(?<d>\\d+)", "g"))`, `["1","22"]`},
		{"matchAll", `return [..."k1=v1;k2=v2".matchAll(new RegExp("(?<k>\\w+)=(?<v>\\w+)", "g"))].map(m => m.groups.k + ":" + m.groups.v + "@" + m.index)`,
			`["k1:v1@0","k2:v2@6"]`},
		{"matchAll helpers", `const it = "a1b2".matchAll(new RegExp("(?<d>\\d)", "g")); return [typeof it.next, Object.prototype.toString.call(it), [...it].length]`,
			`["function","[object RegExp String Iterator]",2]`},
		{"replace $<name>", `return "2024-05-17".replace(new RegExp("(?<y>\\d+)-(?<m>\\d+)-(?<d>\\d+)"), "$<d>/$<m>/$<y>")`, `"17/05/2024"`},
		{"replace $<unknown> and $1", `return "ab".replace(new RegExp("(?<x>a)"), "[$<nope>|$1|$&|$$]")`, `"[|a|a|$]b"`},
		{"replace global with function gets groups", `return "a=1, b=2".replace(new RegExp("(?<k>\\w)=(?<v>\\d)", "g"), (...args) => {
			const g = args[args.length - 1]; return g.v + g.k + args[args.length - 3]; })`, `"1a0, 2b5"`},
		{"replace without $< uses numbered groups", `return "x-y".replace(new RegExp("(?<a>\\w)-(?<b>\\w)"), "$2-$1")`, `"y-x"`},
		{"replaceAll", `return "a.b.c".replaceAll(new RegExp("(?<dot>\\.)", "g"), "[$<dot>]")`, `"a[.]b[.]c"`},
		{"replaceAll needs g", `try { "a".replaceAll(new RegExp("(?<a>a)"), "b") } catch (e) { return e.name }`, `"TypeError"`},
		{"split with groups", `return "a1b22c".split(new RegExp("(?<d>\\d+)"))`, `["a","1","b","22","c"]`},
		{"split with limit", `return "a,b,c".split(new RegExp("(?<c>,)"), 2)`, `["a",","]`},
		{"search", `return "xxab".search(new RegExp("(?<a>a)b"))`, `2`},
		{"test and lastIndex", `const re = new RegExp("(?<d>\\d)", "g"); return [re.test("a1b2"), re.lastIndex, re.exec("a1b2").groups.d, re.lastIndex]`, `[true,2,"2",4]`},
		{"sticky", `const re = new RegExp("(?<d>\\d)", "y"); re.lastIndex = 1; return [re.exec("a1").groups.d, re.exec("a1")]`, `["1",null]`},
		{"lookbehind kept", `return new RegExp("(?<=\\$)(?<n>\\d+)").exec("cost $42").groups.n`, `"42"`},
		{"negative lookbehind kept", `return "a1 $2".replace(new RegExp("(?<!\\$)(?<d>\\d)", "g"), "#")`, `"a# $2"`},
		{"call without new", `const re = RegExp("(?<a>.)"); return [re instanceof RegExp, re.exec("z").groups.a]`, `[true,"z"]`},
		{"RegExp(re) returns re", `const re = /x/; return RegExp(re) === re`, `true`},
		{"copy of a wrapped regexp", `const a = new RegExp("(?<a>.)", "g"); const b = new RegExp(a); const c = new RegExp(a, "i");
			return [b.flags, b.exec("q").groups.a, c.flags, c.source]`, `["g","q","i","(?<a>.)"]`},
		{"upgrades a literal", `const re = new RegExp(/(?<y>\d{4})-(\d\d)/); const m = re.exec("2024-05"); return [m[1], m[2], m.groups.y]`, `["2024","05","2024"]`},
		{"source flags toString", `const re = new RegExp("(?<a>a/b)", "gi"); return [re.source, re.flags, String(re), re.global, re.ignoreCase]`,
			`["(?<a>a\\/b)","gi","/(?<a>a\\/b)/gi",true,true]`},
		{"instanceof and prototype", `const re = new RegExp("(?<a>a)"); return [re instanceof RegExp, /x/ instanceof RegExp, Object.getPrototypeOf(re) === RegExp.prototype,
			/x/.constructor === RegExp, Object.prototype.toString.call(re), Object.keys(re).length, JSON.stringify(re)]`,
			`[true,true,true,true,"[object RegExp]",0,"{}"]`},
		{"subclass", `class R extends RegExp { hi() { return "hi" } } const r = new R("(?<a>b)");
			return [r instanceof R, r.hi(), r.exec("b").groups.a, R[Symbol.species] === R]`, `[true,"hi","b",true]`},
		{"plain regexps untouched", `const re = new RegExp("a(b)"); return [Object.getOwnPropertyNames(re), re.exec("ab").groups, "exec" in re]`,
			`[["lastIndex"],null,true]`},
		{"plain replace and split", `return ["a-b-c".replace(new RegExp("-", "g"), "+"), "a, b,c".split(/,\s*/), "x".replace(/x/, "$<a>")]`,
			`["a+b+c",["a","b","c"],"$<a>"]`},
		{"empty pattern", `return [new RegExp().source, String(new RegExp("", "d")), new RegExp("", "d").exec("x").indices[0]]`, `["(?:)","/(?:)/d",[0,0]]`},
		{"escape", `return [RegExp.escape("foo.bar"), RegExp.escape("(a)*"), RegExp.escape("1+1=2"), RegExp.escape(" \n"), RegExp.escape("a/b")]`,
			`["\\x66oo\\.bar","\\(a\\)\\*","\\x31\\+1\\x3d2","\\x20\\n","\\x61\\/b"]`},
		{"escape round trip", `const s = "[.*+?^${}()|] -x"; return new RegExp("^" + RegExp.escape(s) + "$").test(s)`, `true`},
	})
}

func TestRegExpUnicodeProperties(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"letters accented", `return "Crème brûlée, naïve!".match(new RegExp("\\p{L}+", "gu"))`, `["Crème","brûlée","naïve"]`},
		{"letters astral", `return new RegExp("^\\p{L}+$", "u").test("𝒜𝓁𝓅𝒽𝒶")`, `true`},
		{"long and short names", `return [new RegExp("\\p{Letter}", "u").test("é"), new RegExp("\\p{gc=Lu}", "u").test("É"), new RegExp("\\p{General_Category=Decimal_Number}", "u").test("٣")]`,
			`[true,true,true]`},
		{"negated outside class", `return "a1 b2".replace(new RegExp("\\P{L}", "gu"), "")`, `"ab"`},
		{"inside a class with others", `return "a-1_é".match(new RegExp("[\\p{L}\\d]+", "gu"))`, `["a","1","é"]`},
		{"negated class", `return "añ1".replace(new RegExp("[^\\p{L}]", "gu"), "")`, `"añ"`},
		{"negated property inside class", `return "aé1!".match(new RegExp("[\\P{L}]", "gu"))`, `["1","!"]`},
		{"script", `return ["Ωmega".match(new RegExp("\\p{Script=Greek}+", "u"))[0], new RegExp("\\p{sc=Cyrl}", "u").test("ж"), new RegExp("\\p{scx=Han}", "u").test("漢")]`,
			`["Ω",true,true]`},
		{"emoji", `return ["hi 😀👍🏽!".match(new RegExp("\\p{Extended_Pictographic}", "gu")), new RegExp("\\p{Emoji_Presentation}", "u").test("a")]`,
			`[["😀","👍"],false]`},
		{"binary properties", `return [new RegExp("^\\p{White_Space}+$", "u").test(" \t\u00a0\u2003"), new RegExp("^\\p{Alphabetic}+$", "u").test("abcΩ"),
			new RegExp("^\\p{ASCII}+$", "u").test("abc~"), new RegExp("^\\p{Any}$", "u").test("😀"), new RegExp("^\\p{Uppercase}$", "u").test("Ä"),
			new RegExp("^\\p{Lowercase}$", "u").test("ß"), new RegExp("^\\p{ID_Start}\\p{ID_Continue}*$", "u").test("ça_1"), new RegExp("\\p{AHex}", "u").test("g")]`,
			`[true,true,true,true,true,true,true,false]`},
		{"ignore case", `return new RegExp("^\\p{Lu}+$", "iu").test("abc")`, `true`},
		{"without u it is the letter p", `return new RegExp("\\p{L}").test("p{L}")`, `true`},
		{"with groups", `return new RegExp("(?<w>\\p{L}+)\\s(?<n>\\p{N}+)", "u").exec("año 2024").groups`, `{"n":"2024","w":"año"}`},
		{"lookbehind with property", `return "x1 é2".match(new RegExp("(?<=\\p{L})\\d", "gu"))`, `["1","2"]`},
		{"source shows the original", `const re = new RegExp("\\p{L}+", "u"); return [re.source, String(re), re.unicode]`, `["\\p{L}+","/\\p{L}+/u",true]`},
		{"replace and split", `return ["a1b2".replace(new RegExp("\\p{Nd}", "gu"), "#"), "a1b22c".split(new RegExp("\\p{Nd}+", "u"))]`,
			`["a#b#",["a","b","c"]]`},
	})
}

func TestRegExpIndices(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"indices", `const m = new RegExp("a(b)(c)?", "d").exec("xxab"); return [m.indices, m.index, m[0], m[2] === undefined, m.indices.groups]`,
			`[[[2,4],[3,4],null],2,"ab",true,null]`},
		{"named indices", `const m = new RegExp("(?<k>\\w+)=(?<v>\\w+)", "d").exec("  a=bc"); return [m.indices.groups, m.groups]`,
			`[{"k":[2,3],"v":[4,6]},{"k":"a","v":"bc"}]`},
		{"flags", `const re = new RegExp("a", "dg"); return [re.hasIndices, re.flags, String(re), /a/.hasIndices, re.global]`,
			`[true,"dg","/a/dg",false,true]`},
		{"utf-16 offsets", `return new RegExp("(é)(😀)(x)", "d").exec("ab é😀x").indices.slice(1)`, `[[3,4],[4,6],[6,7]]`},
		{"utf-16 offsets unicode", `return new RegExp("(\\p{L})(.)", "du").exec("😀é😀").indices`, `[[2,5],[2,3],[3,5]]`},
		{"global loop", `const re = new RegExp("\\d+", "dg"); const out = []; let m; while ((m = re.exec("a12b3")) !== null) out.push(m.indices[0]); return [out, re.lastIndex]`,
			`[[[1,3],[4,5]],0]`},
		{"sticky", `const re = new RegExp("\\d", "dy"); re.lastIndex = 1; const a = re.exec("a1b"); const b = re.exec("a1b"); return [a.indices[0], b, re.lastIndex]`,
			`[[1,2],null,0]`},
		{"matchAll", `return [..."a1b2".matchAll(new RegExp("(?<d>\\d)", "dg"))].map(m => m.indices.groups.d)`, `[[1,2],[3,4]]`},
		{"match non-global", `return "xay".match(new RegExp("a", "d")).indices[0]`, `[1,2]`},
		{"replace and split", `return ["a1b2".replace(new RegExp("\\d", "dg"), "#"), "a1b".split(new RegExp("\\d", "d"))]`, `["a#b#",["a","b"]]`},
		{"ignore case multiline", `return new RegExp("^B", "dim").exec("a\nb").indices[0]`, `[2,3]`},
	})
}

func TestRegExpUnicodeSets(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"flags", `const re = new RegExp("[a]", "v"); return [re.unicodeSets, re.unicode, re.flags, /a/.unicodeSets]`, `[true,false,"v",false]`},
		{"subtraction", `return "abcdef".match(new RegExp("[\\p{L}--[aeiou]]", "gv"))`, `["b","c","d","f"]`},
		{"intersection", `return "aβγ1".match(new RegExp("[\\p{L}&&\\p{Script=Greek}]", "gv"))`, `["β","γ"]`},
		{"nested union", `return "a1-_".match(new RegExp("[[a-z][0-9]_]", "gv"))`, `["a","1","_"]`},
		{"string disjunction", `return "xyzabc".match(new RegExp("[\\q{abc|x}]", "gv"))`, `["x","abc"]`},
		{"negated", `return "ab1".match(new RegExp("[^\\d]", "gv"))`, `["a","b"]`},
		{"escaped punctuators", `return new RegExp("^[\\-\\&]+$", "v").test("-&")`, `true`},
		{"outside class like u", `return new RegExp("^\\u{1F600}.$", "v").test("😀😃")`, `true`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"mixed operators", `new RegExp("[a-z&&b--c]", "v")`, `SyntaxError`},
		{"unescaped paren", `new RegExp("[(]", "v")`, `SyntaxError`},
		{"negated strings", `new RegExp("[^\\q{ab}]", "v")`, `negated character class may contain strings`},
		{"property of strings", `new RegExp("\\p{RGI_Emoji}", "v")`, `RGI_Emoji`},
		{"u and v", `new RegExp("a", "uv")`, `SyntaxError`},
	})
}

func TestRegExpErrors(t *testing.T) {
	errorCases(t, []struct{ name, body, want string }{
		{"unknown property", `new RegExp("\\p{Nope}", "u")`, `invalid property name \p{Nope}`},
		{"unknown script", `new RegExp("\\p{Script=Nope}", "u")`, `invalid property value`},
		{"unknown reference", `new RegExp("(?<a>x)\\k<b>")`, `\k<b>`},
		{"bad group name", `new RegExp("(?<1a>x)")`, `invalid capture group name`},
		{"bad flags", `new RegExp("a", "dd")`, `SyntaxError`},
		{"unknown flag", `new RegExp("a", "q")`, `SyntaxError`},
		{"unterminated group", `new RegExp("(?<a>x")`, `SyntaxError`},
		{"unsupported property", `new RegExp("\\p{Bidi_M}", "u")`, `not supported`},
		{"escape needs a string", `RegExp.escape(1)`, `TypeError`},
		{"hasIndices on a non-regexp", `Object.getOwnPropertyDescriptor(RegExp.prototype, "hasIndices").get.call({})`, `TypeError`},
	})
}

// TestRegExpAcrossIsolates runs translated patterns, which share their Go
// side across isolates, in several isolates at once.
func TestRegExpAcrossIsolates(t *testing.T) {
	const body = `let n = 0;
		for (let i = 0; i < 200; i++) {
			const re = new RegExp("(?<w>\\p{L}+)-(?<d>\\d+)", "dgu");
			for (const m of ("año-1 béta-22 γ-3").matchAll(re)) n += m.indices.groups.d[1] - m.indices.groups.w[0];
		}
		return n`
	isos := []*jsrt.Isolate{jsrttest.New(t, Extension), jsrttest.New(t, Extension), jsrttest.New(t, Extension)}
	errs := make(chan error, len(isos))
	results := make(chan string, len(isos))
	for _, iso := range isos {
		go func() {
			got, err := jsrttest.Eval(iso, body)
			errs <- err
			results <- got
		}()
	}
	for range isos {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		if got, want := <-results, "3000"; got != want {
			t.Errorf("got %s, want %s", got, want)
		}
	}
}
