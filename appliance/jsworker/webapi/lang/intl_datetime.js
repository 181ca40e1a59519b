// Intl.DateTimeFormat: options are resolved here as ECMA-402 does; the
// en-US patterns, the fields and the time zones are Go's
// (intl_datetime.go, over Go's time package and its embedded tz
// database). The default time zone is UTC, as on Cloudflare.
const defaultTimeZone = "UTC";

// dateComponents are the component options in the order ECMA-402 reads
// them, with their values.
const dateComponents = [
  ["weekday", "narrow|short|long"],
  ["era", "narrow|short|long"],
  ["year", "2-digit|numeric"],
  ["month", "2-digit|numeric|narrow|short|long"],
  ["day", "2-digit|numeric"],
  ["dayPeriod", "narrow|short|long"],
  ["hour", "2-digit|numeric"],
  ["minute", "2-digit|numeric"],
  ["second", "2-digit|numeric"],
  ["fractionalSecondDigits", null],
  ["timeZoneName", "short|long|shortOffset|longOffset|shortGeneric|longGeneric"],
];

const dtfSlots = new WeakMap();

function dtfSlot(dtf, method) {
  const s = dtfSlots.get(dtf);
  if (s === undefined) throw new TypeError(`Method Intl.DateTimeFormat.prototype.${method} called on an incompatible receiver`);
  return s;
}

// resolveDateTimeFormat is CreateDateTimeFormat's option handling;
// required is "any", "date" or "time", defaults "date", "time" or "all".
function resolveDateTimeFormat(locales, options, required, defaults) {
  const requested = localeList(locales);
  options = coerceOptions(options);
  readLocaleMatcher(options);
  typeOption(options, "calendar");
  typeOption(options, "numberingSystem");
  const hour12 = getOption(options, "hour12", "boolean", undefined, undefined);
  let hourCycle = getOption(options, "hourCycle", "string", "h11|h12|h23|h24", undefined);
  if (hour12 !== undefined) hourCycle = undefined;
  if (hourCycle === undefined && hour12 === undefined) hourCycle = unicodeKeyword(requested, "hc");
  let timeZone = options.timeZone;
  if (timeZone === undefined) {
    timeZone = defaultTimeZone;
  } else {
    const name = String(timeZone);
    timeZone = lang.resolveTimeZone(name);
    if (timeZone === null) throw new RangeError(`Invalid time zone specified: ${name}`);
  }
  const r = { locale: defaultLocale, calendar: "gregory", numberingSystem: "latn", timeZone };
  let explicit;
  for (const [name, values] of dateComponents) {
    const v = values === null
      ? numberOption(options[name], 1, 3, undefined, name)
      : getOption(options, name, "string", values, undefined);
    if (v !== undefined) {
      r[name] = v;
      explicit = explicit || name;
    }
  }
  getOption(options, "formatMatcher", "string", "basic|best fit", "best fit");
  const dateStyle = getOption(options, "dateStyle", "string", "full|long|medium|short", undefined);
  const timeStyle = getOption(options, "timeStyle", "string", "full|long|medium|short", undefined);
  if (dateStyle !== undefined || timeStyle !== undefined) {
    if (explicit !== undefined) throw new TypeError(`Can't set option ${explicit} when dateStyle or timeStyle is used`);
    if (required === "date" && timeStyle !== undefined) throw new TypeError("Invalid option : timeStyle");
    if (required === "time" && dateStyle !== undefined) throw new TypeError("Invalid option : dateStyle");
    if (dateStyle !== undefined) r.dateStyle = dateStyle;
    if (timeStyle !== undefined) r.timeStyle = timeStyle;
  } else {
    let needDefaults = true;
    if (required === "date" || required === "any") {
      for (const k of ["weekday", "year", "month", "day"]) if (r[k] !== undefined) needDefaults = false;
    }
    if (required === "time" || required === "any") {
      for (const k of ["dayPeriod", "hour", "minute", "second", "fractionalSecondDigits"]) if (r[k] !== undefined) needDefaults = false;
    }
    if (needDefaults && (defaults === "date" || defaults === "all")) r.year = r.month = r.day = "numeric";
    if (needDefaults && (defaults === "time" || defaults === "all")) r.hour = r.minute = r.second = "numeric";
  }
  if (r.hour !== undefined || r.timeStyle !== undefined) {
    r.hourCycle = hour12 !== undefined ? (hour12 ? "h12" : "h23") : hourCycle || "h12";
    r.hour12 = r.hourCycle === "h11" || r.hourCycle === "h12";
  }
  return r;
}

// timeValue is the time a format method formats, or a RangeError.
function timeValue(date) {
  const x = date === undefined ? Date.now() : Number(date);
  if (!isFinite(x) || Math.abs(x) > 8.64e15) throw new RangeError("Invalid time value");
  return Math.trunc(x) + 0;
}

const resolvedDateKeys = ["locale", "calendar", "numberingSystem", "timeZone", "hourCycle", "hour12", "weekday", "era", "year", "month", "day",
  "dayPeriod", "hour", "minute", "second", "fractionalSecondDigits", "timeZoneName", "dateStyle", "timeStyle"];

class DateTimeFormatImpl {
  constructor(locales, options, required = "any", defaults = "date") {
    const r = resolveDateTimeFormat(locales, options, required, defaults);
    dtfSlots.set(this, { r, handle: lang.dateFormat(r), format: undefined });
  }
  get format() {
    const s = dtfSlot(this, "format");
    return boundGetter(s, "format", () => (date) => lang.formatDate(s.handle, timeValue(date)));
  }
  formatToParts(date) {
    return lang.formatDateToParts(dtfSlot(this, "formatToParts").handle, timeValue(date));
  }
  formatRange(start, end) {
    return dateRangeParts(dtfSlot(this, "formatRange"), start, end).map((p) => p.value).join("");
  }
  formatRangeToParts(start, end) {
    return dateRangeParts(dtfSlot(this, "formatRangeToParts"), start, end);
  }
  resolvedOptions() {
    const r = dtfSlot(this, "resolvedOptions").r;
    const out = {};
    for (const k of resolvedDateKeys) if (r[k] !== undefined) out[k] = r[k];
    return out;
  }
}

// dateRangeParts formats start – end, or start alone when both format
// the same (en-US's fallback range pattern, without collapsing shared
// fields).
function dateRangeParts(s, start, end) {
  if (start === undefined || end === undefined) throw new TypeError("formatRange needs a start and an end");
  const a = lang.formatDateToParts(s.handle, timeValue(start));
  const b = lang.formatDateToParts(s.handle, timeValue(end));
  const text = (ps) => ps.map((p) => p.value).join("");
  if (text(a) === text(b)) return a.map((p) => ({ type: p.type, value: p.value, source: "shared" }));
  return [
    ...a.map((p) => ({ type: p.type, value: p.value, source: "startRange" })),
    { type: "literal", value: " – ", source: "shared" },
    ...b.map((p) => ({ type: p.type, value: p.value, source: "endRange" })),
  ];
}

const DateTimeFormat = defineIntlClass(DateTimeFormatImpl, "DateTimeFormat", true);
// The constructor takes only locales and options.
Object.defineProperty(DateTimeFormat, "length", { value: 0 });
