// Intl.PluralRules with English's rules: cardinal one (1 with no visible
// fraction digits) and other; ordinal one (1st, 21st), two, few, other.
const pluralSlots = new WeakMap();

function pluralSlot(p, method) {
  const s = pluralSlots.get(p);
  if (s === undefined) throw new TypeError(`Method Intl.PluralRules.prototype.${method} called on an incompatible receiver`);
  return s;
}

// pluralOf is the English plural category of a number formatted as
// digits (no grouping, no sign).
function pluralOf(type, formatted) {
  const [int, frac] = formatted.split(".");
  if (type === "cardinal") return int === "1" && frac === undefined ? "one" : "other";
  if (frac !== undefined) return "other";
  const n10 = Number(int.slice(-1));
  const n100 = Number(int.slice(-2));
  if (n10 === 1 && n100 !== 11) return "one";
  if (n10 === 2 && n100 !== 12) return "two";
  if (n10 === 3 && n100 !== 13) return "few";
  return "other";
}

class PluralRules {
  constructor(locales = undefined, options = undefined) {
    localeList(locales);
    options = coerceOptions(options);
    readLocaleMatcher(options);
    const type = getOption(options, "type", "string", "cardinal|ordinal", "cardinal");
    const r = { locale: defaultLocale, type };
    digitOptions(r, options, 0, 3, "standard");
    r.style = "decimal";
    r.notation = "standard";
    r.useGrouping = false;
    r.signDisplay = "never";
    const handle = lang.numberFormat(r);
    pluralSlots.set(this, { r, handle });
  }
  select(n) {
    const s = pluralSlot(this, "select");
    const x = Number(n);
    if (!isFinite(x)) return "other";
    return pluralOf(s.r.type, lang.formatNumber(s.handle, toDecimalString(x)));
  }
  selectRange(start, end) {
    if (start === undefined || end === undefined) throw new TypeError("selectRange needs a start and an end");
    const a = Number(start);
    const b = Number(end);
    if (a !== a || b !== b) throw new RangeError("selectRange does not take NaN");
    return this.select(b);
  }
  resolvedOptions() {
    const r = pluralSlot(this, "resolvedOptions").r;
    const out = { locale: r.locale, type: r.type, minimumIntegerDigits: r.minimumIntegerDigits };
    // style, notation, useGrouping and signDisplay only steer the digits.
    for (const k of ["minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits"]) {
      if (r[k] !== undefined) out[k] = r[k];
    }
    out.pluralCategories = r.type === "cardinal" ? ["one", "other"] : ["few", "one", "other", "two"];
    out.roundingIncrement = r.roundingIncrement;
    out.roundingMode = r.roundingMode;
    out.roundingPriority = r.roundingPriority;
    out.trailingZeroDisplay = r.trailingZeroDisplay;
    return out;
  }
}
defineIntlClass(PluralRules, "PluralRules", false);
