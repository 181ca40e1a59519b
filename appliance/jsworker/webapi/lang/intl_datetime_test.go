package lang

import "testing"

// day is Tuesday, 2 January 2024, 15:04:05.123 UTC.
const day = `const d = new Date(Date.UTC(2024, 0, 2, 15, 4, 5, 123)); const f = (o, x = d) => new Intl.DateTimeFormat("en-US", o).format(x);`

func TestDateTimeFormat(t *testing.T) {
	evalCases(t, []struct{ name, body, want string }{
		{"toLocale strings", day + `return [d.toLocaleString(), d.toLocaleDateString(), d.toLocaleTimeString(), d.toLocaleString("fr-FR"), new Date(NaN).toLocaleString()]`,
			`["1/2/2024, 3:04:05 PM","1/2/2024","3:04:05 PM","1/2/2024, 3:04:05 PM","Invalid Date"]`},
		{"toLocale options", day + `return [d.toLocaleDateString("en-US", { month: "long" }), d.toLocaleTimeString("en-US", { hour: "2-digit" }), d.toLocaleString("en-US", { timeZone: "Asia/Tokyo" })]`,
			`["January","03 PM","1/3/2024, 12:04:05 AM"]`},
		{"default format", day + `return [new Intl.DateTimeFormat().format(d), Intl.DateTimeFormat("en").format(d)]`, `["1/2/2024","1/2/2024"]`},
		{"date styles", day + `return ["full", "long", "medium", "short"].map(s => f({ dateStyle: s }))`,
			`["Tuesday, January 2, 2024","January 2, 2024","Jan 2, 2024","1/2/24"]`},
		{"time styles", day + `return ["full", "long", "medium", "short"].map(s => f({ timeStyle: s }))`,
			`["3:04:05 PM Coordinated Universal Time","3:04:05 PM UTC","3:04:05 PM","3:04 PM"]`},
		{"date and time styles", day + `return [f({ dateStyle: "medium", timeStyle: "short" }), f({ dateStyle: "full", timeStyle: "short" }), f({ dateStyle: "short", timeStyle: "short", hour12: false })]`,
			`["Jan 2, 2024, 3:04 PM","Tuesday, January 2, 2024 at 3:04 PM","1/2/24, 15:04"]`},
		{"components", day + `return [f({ weekday: "long", year: "numeric", month: "long", day: "numeric" }), f({ month: "short", day: "numeric" }), f({ month: "long", year: "numeric" }),
			f({ year: "numeric", month: "2-digit", day: "2-digit" }), f({ weekday: "short" }), f({ year: "2-digit" }), f({ month: "narrow" }), f({ weekday: "short", month: "numeric", day: "numeric" })]`,
			`["Tuesday, January 2, 2024","Jan 2","January 2024","01/02/2024","Tue","24","J","Tue, 1/2"]`},
		{"hours", day + `const midnight = Date.UTC(2024, 0, 2);
			return [f({ hour: "2-digit", minute: "2-digit" }), f({ hour: "numeric", hour12: false }), f({ hour: "2-digit", minute: "2-digit", hour12: false }),
			f({ hour: "numeric", minute: "numeric" }, midnight), f({ hour: "numeric", hourCycle: "h23" }, midnight), f({ hour: "numeric", hourCycle: "h11" }, midnight),
			f({ hour: "numeric", hourCycle: "h24" }, midnight), f({ minute: "2-digit", second: "2-digit" }), f({ hour: "numeric", minute: "2-digit", second: "2-digit", fractionalSecondDigits: 3 })]`,
			`["03:04 PM","15","15:04","12:00 AM","00","0 AM","24","04:05","3:04:05.123 PM"]`},
		{"day periods and eras", day + `return [f({ hour: "numeric", dayPeriod: "short" }), f({ dayPeriod: "long" }), f({ hour: "numeric", dayPeriod: "narrow" }, Date.UTC(2024, 0, 2, 12)),
			f({ year: "numeric", era: "short" }), f({ year: "numeric", era: "long" }, Date.UTC(-50, 0, 1))]`,
			`["3 in the afternoon","in the afternoon","12 n","2024 AD","51 Before Christ"]`},
		{"time zones", day + `return [f({ timeZone: "Asia/Kolkata", timeStyle: "long" }), f({ timeZone: "America/Los_Angeles", timeZoneName: "short" }),
			f({ timeZone: "Europe/Berlin", timeZoneName: "long", hour: "numeric" }), f({ timeZone: "Asia/Kolkata", timeZoneName: "shortOffset", hour: "numeric" }),
			f({ timeZone: "Asia/Kolkata", timeZoneName: "longOffset", hour: "numeric" }), f({ timeZone: "America/New_York", timeZoneName: "short", hour: "numeric" }, Date.UTC(2024, 6, 1, 12)),
			f({ timeZone: "America/Chicago", timeZoneName: "longGeneric", hour: "numeric" }), f({ timeZone: "Europe/London", timeZoneName: "short", hour: "numeric" }),
			f({ timeZone: "+05:30", hour: "numeric", minute: "numeric" })]`,
			`["8:34:05 PM GMT+5:30","1/2/2024, PST","4 PM Central European Standard Time","8 PM GMT+5:30","8 PM GMT+05:30","8 AM EDT","9 AM Central Time","3 PM GMT","8:34 PM"]`},
		{"time zone names resolve", `return ["america/new_york", "Etc/GMT", "utc", "Asia/Calcutta", "-08"].map(timeZone => new Intl.DateTimeFormat("en", { timeZone }).resolvedOptions().timeZone)`,
			`["America/New_York","UTC","UTC","Asia/Calcutta","-08:00"]`},
		{"formatToParts", day + `return new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short" }).formatToParts(d).map(p => p.type + ":" + p.value)`,
			`["month:Jan","literal: ","day:2","literal:, ","year:2024","literal:, ","hour:3","literal::","minute:04","literal: ","dayPeriod:PM"]`},
		{"formatRange", day + `const f2 = new Intl.DateTimeFormat("en-US", { dateStyle: "medium" });
			return [f2.formatRange(d, d.getTime() + 3 * 864e5), f2.formatRange(d, d), f2.formatRangeToParts(d, d.getTime() + 864e5).filter(p => p.source === "shared").length]`,
			`["Jan 2, 2024 – Jan 5, 2024","Jan 2, 2024",1]`},
		{"resolvedOptions", `return new Intl.DateTimeFormat("de").resolvedOptions()`,
			`{"calendar":"gregory","day":"numeric","locale":"en-US","month":"numeric","numberingSystem":"latn","timeZone":"UTC","year":"numeric"}`},
		{"resolvedOptions hour cycle", `const r = new Intl.DateTimeFormat("en", { hour: "numeric", hour12: false }).resolvedOptions(); return [r.hourCycle, r.hour12, r.hour]`,
			`["h23",false,"numeric"]`},
		{"hc from the locale", `return new Intl.DateTimeFormat("en-US-u-hc-h23", { hour: "numeric" }).resolvedOptions().hourCycle`, `"h23"`},
		{"Date objects and numbers", `const f = new Intl.DateTimeFormat("en-US"); return [f.format(new Date(0)), f.format(0), typeof f.format()]`, `["1/1/1970","1/1/1970","string"]`},
	})
	errorCases(t, []struct{ name, body, want string }{
		{"bad time zone", `new Intl.DateTimeFormat("en", { timeZone: "Mars/Olympus" })`, `Invalid time zone specified: Mars/Olympus`},
		{"style and component", `new Intl.DateTimeFormat("en", { dateStyle: "long", hour: "numeric" })`, `TypeError`},
		{"date string with timeStyle", `new Date().toLocaleDateString("en", { timeStyle: "short" })`, `TypeError`},
		{"bad option value", `new Intl.DateTimeFormat("en", { month: "big" })`, `RangeError`},
		{"invalid time", `new Intl.DateTimeFormat().format(NaN)`, `Invalid time value`},
		{"out of range time", `new Intl.DateTimeFormat().format(8.64e15 + 1)`, `RangeError`},
		{"fractional digits range", `new Intl.DateTimeFormat("en", { fractionalSecondDigits: 4 })`, `RangeError`},
	})
}
