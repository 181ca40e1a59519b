package lang

import "testing"

func TestCollator(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"sort", `return ["b", "a", "B", "A", "á", "ä"].sort(new Intl.Collator().compare)`, `["a","A","á","ä","b","B"]`},
		{"numeric", `return [["10", "9", "1", "a2", "a10"].sort(new Intl.Collator(undefined, { numeric: true }).compare), ["10", "9"].sort(new Intl.Collator("en-u-kn").compare)]`,
			`[["1","9","10","a2","a10"],["9","10"]]`},
		{"sensitivity", `const c = (sensitivity) => new Intl.Collator("en", { sensitivity }).compare;
			return ["base", "accent", "case", "variant"].map(s => [c(s)("a", "A"), c(s)("a", "á"), c(s)("a", "b")])`,
			`[[0,0,-1],[0,-1,-1],[-1,0,-1],[-1,-1,-1]]`},
		{"caseFirst upper", `return [["a", "A", "b", "B"].sort(new Intl.Collator("en", { caseFirst: "upper" }).compare), new Intl.Collator("en-u-kf-upper").resolvedOptions().caseFirst]`,
			`[["A","a","B","b"],"upper"]`},
		{"ignorePunctuation", `return new Intl.Collator("en", { ignorePunctuation: true }).compare("a-b", "ab")`, `0`},
		{"localeCompare", `return ["a".localeCompare("b"), "a".localeCompare("á", "en", { sensitivity: "base" }), "2".localeCompare("10", undefined, { numeric: true })]`, `[-1,0,-1]`},
		{"resolvedOptions", `return new Intl.Collator("fr").resolvedOptions()`,
			`{"caseFirst":"false","collation":"default","ignorePunctuation":false,"locale":"en-US","numeric":false,"sensitivity":"variant","usage":"sort"}`},
		{"without new", `return Intl.Collator().compare("a", "b")`, `-1`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"bad sensitivity", `new Intl.Collator("en", { sensitivity: "loud" })`, `RangeError`},
	})
}

func TestPluralRules(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"cardinal", `const p = new Intl.PluralRules("en-US"); return [0, 1, -1, 2, 1.5, "1"].map(n => p.select(n))`, `["other","one","one","other","other","one"]`},
		{"visible fraction digits", `return [new Intl.PluralRules("en", { minimumFractionDigits: 1 }).select(1), new Intl.PluralRules("en", { maximumFractionDigits: 0 }).select(1.2)]`, `["other","one"]`},
		{"ordinal", `const p = new Intl.PluralRules("en", { type: "ordinal" }); return [1, 2, 3, 4, 11, 12, 13, 21, 22, 23, 102, 111, 113].map(n => p.select(n))`,
			`["one","two","few","other","other","other","other","one","two","few","two","other","other"]`},
		{"selectRange", `return new Intl.PluralRules("en").selectRange(1, 5)`, `"other"`},
		{"resolvedOptions", `const r = new Intl.PluralRules("en", { type: "ordinal" }).resolvedOptions(); return [r.locale, r.type, r.pluralCategories, r.maximumFractionDigits]`,
			`["en-US","ordinal",["few","one","other","two"],3]`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"needs new", `Intl.PluralRules()`, `TypeError`},
		{"bad type", `new Intl.PluralRules("en", { type: "dual" })`, `RangeError`},
	})
}

func TestRelativeTimeFormat(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"always", `const r = new Intl.RelativeTimeFormat("en"); return [r.format(3, "day"), r.format(-1, "day"), r.format(1, "hours"), r.format(-0, "second"), r.format(1000, "day"), r.format(1.5, "week")]`,
			`["in 3 days","1 day ago","in 1 hour","0 seconds ago","in 1,000 days","in 1.5 weeks"]`},
		{"auto", `const r = new Intl.RelativeTimeFormat("en", { numeric: "auto" });
			return [r.format(-1, "day"), r.format(0, "day"), r.format(1, "day"), r.format(0, "second"), r.format(1, "week"), r.format(-1, "year"), r.format(2, "day"), r.format(0, "hour")]`,
			`["yesterday","today","tomorrow","now","next week","last year","in 2 days","this hour"]`},
		{"short and narrow", `const s = new Intl.RelativeTimeFormat("en", { style: "short" }); const n = new Intl.RelativeTimeFormat("en", { style: "narrow" });
			return [s.format(-3, "month"), s.format(2, "quarter"), s.format(5, "minutes"), n.format(3, "hour"), n.format(-2, "year")]`,
			`["3 mo. ago","in 2 qtrs.","in 5 min.","in 3h","2y ago"]`},
		{"formatToParts", `return new Intl.RelativeTimeFormat("en").formatToParts(100, "day")`,
			`[{"type":"literal","value":"in "},{"type":"integer","unit":"day","value":"100"},{"type":"literal","value":" days"}]`},
		{"resolvedOptions", `return new Intl.RelativeTimeFormat("en", { style: "short" }).resolvedOptions()`,
			`{"locale":"en-US","numberingSystem":"latn","numeric":"always","style":"short"}`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"bad unit", `new Intl.RelativeTimeFormat("en").format(1, "fortnight")`, `RangeError`},
		{"infinite value", `new Intl.RelativeTimeFormat("en").format(Infinity, "day")`, `RangeError`},
	})
}

func TestListFormat(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"conjunction", `const l = new Intl.ListFormat("en"); return [l.format([]), l.format(["a"]), l.format(["a", "b"]), l.format(["a", "b", "c"]), l.format(new Set(["x", "y"]))]`,
			`["","a","a and b","a, b, and c","x and y"]`},
		{"types and styles", `const f = (o, l) => new Intl.ListFormat("en", o).format(l);
			return [f({ type: "disjunction" }, ["a", "b", "c"]), f({ style: "short" }, ["a", "b", "c"]), f({ style: "narrow" }, ["a", "b", "c"]), f({ type: "unit" }, ["a", "b"]), f({ type: "unit", style: "narrow" }, ["a", "b", "c"])]`,
			`["a, b, or c","a, b, & c","a, b, c","a, b","a b c"]`},
		{"formatToParts", `return new Intl.ListFormat("en").formatToParts(["x", "y"]).map(p => p.type + ":" + p.value)`, `["element:x","literal: and ","element:y"]`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"non-strings", `new Intl.ListFormat("en").format([1])`, `TypeError`},
		{"options must be an object", `new Intl.ListFormat("en", "long")`, `TypeError`},
	})
}

func TestSegmenter(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"graphemes", `return [...new Intl.Segmenter().segment("e\u0301😀👍🏽🇺🇸🇫🇷👨‍👩‍👧\r\n한")].map(s => s.segment.length)`, `[2,2,4,4,4,8,2,1]`},
		{"grapheme indexes", `return [...new Intl.Segmenter("en").segment("a😀b")].map(s => s.index)`, `[0,1,3]`},
		{"words", `return [...new Intl.Segmenter("en", { granularity: "word" }).segment("Hello, world! It's 3.14 o'clock_now")].map(s => s.segment + (s.isWordLike ? "*" : ""))`,
			`["Hello*",","," ","world*","!"," ","It's*"," ","3.14*"," ","o'clock_now*"]`},
		{"words in other scripts", `return [...new Intl.Segmenter("en", { granularity: "word" }).segment("Grüße, мир 日本 カタカナ")].filter(s => s.isWordLike).map(s => s.segment)`,
			`["Grüße","мир","日","本","カタカナ"]`},
		{"containing", `const s = new Intl.Segmenter("en", { granularity: "word" }).segment("Hello, world"); const c = s.containing(8);
			return [c.segment, c.index, c.isWordLike, s.containing(-1), s.containing(99)]`, `["world",7,true,null,null]`},
		{"sentences", `return [...new Intl.Segmenter("en", { granularity: "sentence" }).segment("Hi there. How are you? Fine, e.g. good. Pi is 3.14!")].map(s => s.segment)`,
			`["Hi there. ","How are you? ","Fine, e.g. good. ","Pi is 3.14!"]`},
		{"iterator", `const it = new Intl.Segmenter().segment("ab")[Symbol.iterator](); return [Object.prototype.toString.call(it), it.map(s => s.segment).toArray()]`,
			`["[object Segmenter String Iterator]",["a","b"]]`},
		{"resolvedOptions", `return new Intl.Segmenter("ja", { granularity: "word" }).resolvedOptions()`, `{"granularity":"word","locale":"en-US"}`},
		{"empty", `return [...new Intl.Segmenter().segment("")].length`, `0`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"bad granularity", `new Intl.Segmenter("en", { granularity: "line" })`, `RangeError`},
	})
}

func TestIntlAndLocale(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"getCanonicalLocales", `return [Intl.getCanonicalLocales(["EN-us", "en-US", "zh-hant-tw"]), Intl.getCanonicalLocales("iw"), Intl.getCanonicalLocales(), Intl.getCanonicalLocales("en-u-nu-latn-ca-gregory")]`,
			`[["en-US","zh-Hant-TW"],["he"],[],["en-u-ca-gregory-nu-latn"]]`},
		{"supportedValuesOf", `const z = Intl.supportedValuesOf("timeZone"); return [z.includes("America/New_York"), z.includes("UTC"), Intl.supportedValuesOf("currency").includes("EUR"),
			Intl.supportedValuesOf("unit").includes("kilometer"), Intl.supportedValuesOf("calendar")]`, `[true,true,true,true,["gregory"]]`},
		{"toStringTag", `return [Object.prototype.toString.call(Intl), typeof Intl.DateTimeFormat]`, `["[object Intl]","function"]`},
		{"Locale", `const l = new Intl.Locale("en-latn-us-u-ca-gregory-hc-h23");
			return [l.toString(), l.baseName, l.language, l.script, l.region, l.calendar, l.hourCycle, l.numeric]`,
			`["en-Latn-US-u-ca-gregory-hc-h23","en-Latn-US","en","Latn","US","gregory","h23",false]`},
		{"Locale options", `const l = new Intl.Locale("en", { region: "gb", numeric: true, calendar: "gregory" }); return [l.toString(), l.numeric, l.maximize().toString(), new Intl.Locale("en-Latn-US").minimize().toString()]`,
			`["en-GB-u-ca-gregory-kn",true,"en-Latn-GB-u-ca-gregory-kn","en"]`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"bad locale", `Intl.getCanonicalLocales("en_US")`, `RangeError`},
		{"duplicate variants", `Intl.getCanonicalLocales("de-1996-1996")`, `RangeError`},
		{"locale type", `Intl.getCanonicalLocales([1])`, `TypeError`},
		{"bad key", `Intl.supportedValuesOf("colour")`, `RangeError`},
		{"Locale needs a tag", `new Intl.Locale(5)`, `TypeError`},
	})
}
