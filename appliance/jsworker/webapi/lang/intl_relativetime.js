// Intl.RelativeTimeFormat with English's phrases ("in 3 days", "3 days
// ago", and with numeric "auto" "yesterday", "next week", "now").
const relativeUnits = {
  // long one, long other, short one, short other, narrow
  second: ["second", "seconds", "sec.", "sec.", "s"],
  minute: ["minute", "minutes", "min.", "min.", "m"],
  hour: ["hour", "hours", "hr.", "hr.", "h"],
  day: ["day", "days", "day", "days", "d"],
  week: ["week", "weeks", "wk.", "wk.", "w"],
  month: ["month", "months", "mo.", "mo.", "mo"],
  quarter: ["quarter", "quarters", "qtr.", "qtrs.", "q"],
  year: ["year", "years", "yr.", "yr.", "y"],
};

// relativeAuto are numeric "auto"'s phrases for -1, 0 and 1, long and
// short (narrow is short).
const relativeAuto = {
  second: { 0: ["now", "now"] },
  minute: { 0: ["this minute", "this minute"] },
  hour: { 0: ["this hour", "this hour"] },
  day: { "-1": ["yesterday", "yesterday"], 0: ["today", "today"], 1: ["tomorrow", "tomorrow"] },
  week: { "-1": ["last week", "last wk."], 0: ["this week", "this wk."], 1: ["next week", "next wk."] },
  month: { "-1": ["last month", "last mo."], 0: ["this month", "this mo."], 1: ["next month", "next mo."] },
  quarter: { "-1": ["last quarter", "last qtr."], 0: ["this quarter", "this qtr."], 1: ["next quarter", "next qtr."] },
  year: { "-1": ["last year", "last yr."], 0: ["this year", "this yr."], 1: ["next year", "next yr."] },
};

const rtfSlots = new WeakMap();

function rtfSlot(f, method) {
  const s = rtfSlots.get(f);
  if (s === undefined) throw new TypeError(`Method Intl.RelativeTimeFormat.prototype.${method} called on an incompatible receiver`);
  return s;
}

function singularUnit(unit) {
  const u = String(unit);
  const singular = u.endsWith("s") ? u.slice(0, -1) : u;
  if (relativeUnits[singular] === undefined) throw new RangeError(`Invalid unit argument for format() '${u}'`);
  return singular;
}

// relativeParts is PartitionRelativeTimePattern for English.
function relativeParts(s, value, unit) {
  let v = Number(value);
  if (!isFinite(v)) throw new RangeError(`Invalid value for format(): ${value}`);
  const u = singularUnit(unit);
  if (s.r.numeric === "auto") {
    const phrase = relativeAuto[u][Object.is(v, -0) ? 0 : v];
    if (phrase !== undefined) return [{ type: "literal", value: phrase[s.r.style === "long" ? 0 : 1] }];
  }
  const past = v < 0 || Object.is(v, -0);
  const number = lang.formatNumberToParts(s.handle, toDecimalString(Math.abs(v))).map((p) => ({ type: p.type, value: p.value, unit: u }));
  const text = number.map((p) => p.value).join("");
  const names = relativeUnits[u];
  const one = text === "1";
  let word;
  let sep = " ";
  switch (s.r.style) {
    case "short":
      word = one ? names[2] : names[3];
      break;
    case "narrow":
      word = names[4];
      sep = "";
      break;
    default:
      word = one ? names[0] : names[1];
  }
  if (past) return [...number, { type: "literal", value: sep + word + " ago" }];
  return [{ type: "literal", value: "in " }, ...number, { type: "literal", value: sep + word }];
}

class RelativeTimeFormat {
  constructor(locales = undefined, options = undefined) {
    localeList(locales);
    options = coerceOptions(options);
    readLocaleMatcher(options);
    typeOption(options, "numberingSystem");
    const style = getOption(options, "style", "string", "long|short|narrow", "long");
    const numeric = getOption(options, "numeric", "string", "always|auto", "always");
    const r = { locale: defaultLocale, style, numeric, numberingSystem: "latn" };
    rtfSlots.set(this, { r, handle: nfHandle(new NumberFormat("en-US")) });
  }
  format(value, unit) {
    return relativeParts(rtfSlot(this, "format"), value, unit).map((p) => p.value).join("");
  }
  formatToParts(value, unit) {
    return relativeParts(rtfSlot(this, "formatToParts"), value, unit);
  }
  resolvedOptions() {
    return Object.assign({}, rtfSlot(this, "resolvedOptions").r);
  }
}
defineIntlClass(RelativeTimeFormat, "RelativeTimeFormat", false);

// nfHandle is the Go handle of a NumberFormat.
function nfHandle(nf) {
  return nfSlot(nf, "format").handle;
}
