package lang

import "testing"

func TestNumberFormat(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"toLocaleString", `return [(1234.5).toLocaleString(), (1234567.891).toLocaleString(), (0.1 + 0.2).toLocaleString(), (-0).toLocaleString(),
			NaN.toLocaleString(), Infinity.toLocaleString(), (-Infinity).toLocaleString(), (1e21).toLocaleString(), (5).toLocaleString("de-DE")]`,
			`["1,234.5","1,234,567.891","0.3","-0","NaN","∞","-∞","1,000,000,000,000,000,000,000","5"]`},
		{"BigInt", `return [(123456789012345678901234567890n).toLocaleString(), new Intl.NumberFormat().format(-5n)]`, `["123,456,789,012,345,678,901,234,567,890","-5"]`},
		{"rounds the shortest decimal", `return [(1.005).toLocaleString(undefined, { maximumFractionDigits: 2 }), (2.5).toLocaleString(undefined, { maximumFractionDigits: 0 }),
			(0.0005).toLocaleString(), (0.0004).toLocaleString()]`, `["1.01","3","0.001","0"]`},
		{"digits", `const f = (o, x) => new Intl.NumberFormat("en-US", o).format(x);
			return [f({ minimumFractionDigits: 2 }, 5), f({ maximumSignificantDigits: 3 }, 123456), f({ maximumSignificantDigits: 3 }, 0.00123456),
			f({ minimumSignificantDigits: 3 }, 5), f({ minimumIntegerDigits: 3 }, 5), f({ useGrouping: false }, 1234567), f({ useGrouping: "min2" }, 1234),
			f({ maximumFractionDigits: 1 }, 0.05), f({ minimumSignificantDigits: 2 }, 0)]`,
			`["5.00","123,000","0.00123","5.00","005","1234567","1234","0.1","0.0"]`},
		{"string input keeps its precision", `return new Intl.NumberFormat("en-US", { maximumFractionDigits: 20 }).format("1234.56789012345678901")`, `"1,234.56789012345678901"`},
		{"percent", `return [new Intl.NumberFormat("en-US", { style: "percent" }).format(0.256), new Intl.NumberFormat("en-US", { style: "percent", maximumFractionDigits: 1 }).format(0.2567)]`,
			`["26%","25.7%"]`},
		{"currency (_ is a no-break space)", `const f = (o, x) => new Intl.NumberFormat("en-US", Object.assign({ style: "currency" }, o)).format(x).replace(/\u00a0/g, "_");
			return [f({ currency: "USD" }, 1234.5), f({ currency: "eur" }, 1234.5), f({ currency: "JPY" }, 1234.5), f({ currency: "USD", currencyDisplay: "code" }, 1234.5),
			f({ currency: "USD", currencyDisplay: "name" }, 1234.5), f({ currency: "USD", currencyDisplay: "name", maximumFractionDigits: 0 }, 1),
			f({ currency: "USD", currencySign: "accounting" }, -5), f({ currency: "CHF" }, 5), f({ currency: "CAD" }, 5), f({ currency: "CAD", currencyDisplay: "narrowSymbol" }, 5),
			f({ currency: "KWD" }, 1), f({ currency: "XYZ" }, 1), f({ currency: "USD", trailingZeroDisplay: "stripIfInteger" }, 5), f({ currency: "USD", signDisplay: "always" }, 5)]`,
			`["$1,234.50","€1,234.50","¥1,235","USD_1,234.50","1,234.50 US dollars","1 US dollar","($5.00)","CHF_5.00","CA$5.00","$5.00","KWD_1.000","XYZ_1.00","$5","+$5.00"]`},
		{"unit", `const f = (o, x) => new Intl.NumberFormat("en-US", Object.assign({ style: "unit" }, o)).format(x);
			return [f({ unit: "kilobyte" }, 5), f({ unit: "kilobyte", unitDisplay: "long" }, 5), f({ unit: "kilobyte", unitDisplay: "long" }, 1), f({ unit: "kilobyte", unitDisplay: "narrow" }, 5),
			f({ unit: "kilometer-per-hour" }, 50), f({ unit: "mile-per-hour", unitDisplay: "long" }, 60), f({ unit: "percent" }, 50), f({ unit: "liter", unitDisplay: "long" }, 16),
			f({ unit: "megabyte-per-second" }, 3), f({ unit: "celsius" }, 21), f({ unit: "day" }, 1), f({ unit: "day" }, 3)]`,
			`["5 kB","5 kilobytes","1 kilobyte","5kB","50 km/h","60 miles per hour","50%","16 liters","3 MB/s","21°C","1 day","3 days"]`},
		{"compact", `const s = new Intl.NumberFormat("en-US", { notation: "compact" }); const l = new Intl.NumberFormat("en-US", { notation: "compact", compactDisplay: "long" });
			return [s.format(999), s.format(1234), s.format(12345), s.format(123456), s.format(999999), s.format(1500000000), s.format(2e12), s.format(0.5), s.format(-1234), l.format(1234), l.format(5e6)]`,
			`["999","1.2K","12K","123K","1M","1.5B","2T","0.5","-1.2K","1.2 thousand","5 million"]`},
		{"scientific and engineering", `const s = new Intl.NumberFormat("en-US", { notation: "scientific" }); const e = new Intl.NumberFormat("en-US", { notation: "engineering" });
			return [s.format(123456), s.format(0.000123), s.format(0), s.format(9.9999), e.format(123456), e.format(0.0123)]`,
			`["1.235E5","1.23E-4","0E0","1E1","123.456E3","12.3E-3"]`},
		{"signDisplay", `const f = (signDisplay, x) => new Intl.NumberFormat("en-US", { signDisplay }).format(x);
			return [f("always", 5), f("always", 0), f("exceptZero", 0), f("exceptZero", 5), f("exceptZero", -5), f("never", -5), f("negative", -0), f("negative", -5), f("auto", -0.0001)]`,
			`["+5","+0","0","+5","-5","5","0","-5","-0"]`},
		{"rounding modes", `const f = (roundingMode, x, d = 1) => new Intl.NumberFormat("en-US", { roundingMode, maximumFractionDigits: d }).format(x);
			return [f("floor", 1.29), f("ceil", -1.21), f("trunc", -1.29), f("expand", 1.21), f("halfEven", 2.5, 0), f("halfEven", 3.5, 0), f("halfTrunc", 2.5, 0), f("halfCeil", -2.5, 0), f("halfFloor", 2.5, 0)]`,
			`["1.2","-1.2","-1.2","1.3","2","4","2","-2","2"]`},
		{"rounding increment", `return new Intl.NumberFormat("en-US", { roundingIncrement: 5, minimumFractionDigits: 2, maximumFractionDigits: 2 }).format(1.23)`, `"1.25"`},
		{"rounding priority", `return [new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, maximumSignificantDigits: 2, roundingPriority: "lessPrecision" }).format(1.234),
			new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, maximumSignificantDigits: 2, roundingPriority: "morePrecision" }).format(1.234)]`, `["1.2","1.23"]`},
		{"formatToParts", `return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).formatToParts(-1234.5).map(p => p.type + ":" + p.value)`,
			`["minusSign:-","currency:$","integer:1","group:,","integer:234","decimal:.","fraction:50"]`},
		{"formatToParts unit and compact", `return [new Intl.NumberFormat("en-US", { style: "unit", unit: "hour", unitDisplay: "long" }).formatToParts(2).map(p => p.type),
			new Intl.NumberFormat("en-US", { notation: "compact" }).formatToParts(1500).map(p => p.type)]`,
			`[["integer","literal","unit"],["integer","decimal","fraction","compact"]]`},
		{"formatRange", `const d = new Intl.NumberFormat("en-US"); const c = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
			return [d.formatRange(3, 5), c.formatRange(3, 5), d.formatRange(3, 3), c.formatRangeToParts(1, 2).map(p => p.source)]`,
			`["3–5","$3.00 – $5.00","~3",["startRange","startRange","startRange","startRange","shared","endRange","endRange","endRange","endRange"]]`},
		{"resolvedOptions", `return new Intl.NumberFormat("de-DE").resolvedOptions()`,
			`{"locale":"en-US","maximumFractionDigits":3,"minimumFractionDigits":0,"minimumIntegerDigits":1,"notation":"standard","numberingSystem":"latn","roundingIncrement":1,"roundingMode":"halfExpand","roundingPriority":"auto","signDisplay":"auto","style":"decimal","trailingZeroDisplay":"auto","useGrouping":"auto"}`},
		{"resolvedOptions currency", `const r = new Intl.NumberFormat("en", { style: "currency", currency: "jpy" }).resolvedOptions(); return [r.currency, r.minimumFractionDigits, r.maximumFractionDigits, r.currencyDisplay]`,
			`["JPY",0,0,"symbol"]`},
		{"call without new and bound format", `const nf = Intl.NumberFormat(); const f = nf.format; return [nf instanceof Intl.NumberFormat, [1000, 2000].map(f), nf.format === f, Object.prototype.toString.call(nf)]`,
			`[true,["1,000","2,000"],true,"[object Intl.NumberFormat]"]`},
		{"supportedLocalesOf", `return Intl.NumberFormat.supportedLocalesOf(["de", "en-GB", "EN"])`, `["en-GB","en"]`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"currency style needs a currency", `new Intl.NumberFormat("en", { style: "currency" })`, `TypeError`},
		{"bad currency", `new Intl.NumberFormat("en", { style: "currency", currency: "US" })`, `RangeError`},
		{"unit style needs a unit", `new Intl.NumberFormat("en", { style: "unit" })`, `TypeError`},
		{"bad unit", `new Intl.NumberFormat("en", { style: "unit", unit: "furlong" })`, `RangeError`},
		{"bad style", `new Intl.NumberFormat("en", { style: "fancy" })`, `RangeError`},
		{"fraction digits out of range", `new Intl.NumberFormat("en", { maximumFractionDigits: 101 })`, `RangeError`},
		{"min above max", `new Intl.NumberFormat("en", { minimumFractionDigits: 3, maximumFractionDigits: 1 })`, `RangeError`},
		{"bad locale", `new Intl.NumberFormat("en_US")`, `RangeError`},
		{"range with NaN", `new Intl.NumberFormat().formatRange(NaN, 1)`, `RangeError`},
		{"incompatible receiver", `Intl.NumberFormat.prototype.formatToParts.call({}, 1)`, `TypeError`},
		{"toLocaleString on a non-number", `Number.prototype.toLocaleString.call("1")`, `TypeError`},
	})
}
