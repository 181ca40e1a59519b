// Intl.NumberFormat: options are resolved here as ECMA-402 does; the
// digits, rounding and en-US patterns are Go's (intl_number.go).

const roundingIncrements = [1, 2, 5, 10, 20, 25, 50, 100, 200, 250, 500, 1000, 2000, 2500, 5000];

// digitOptions is SetNumberFormatDigitOptions; it fills r.
function digitOptions(r, options, mnfdDefault, mxfdDefault, notation) {
  const mnid = numberOption(options.minimumIntegerDigits, 1, 21, 1, "minimumIntegerDigits");
  const mnfd = options.minimumFractionDigits;
  const mxfd = options.maximumFractionDigits;
  const mnsd = options.minimumSignificantDigits;
  const mxsd = options.maximumSignificantDigits;
  r.minimumIntegerDigits = mnid;
  const increment = numberOption(options.roundingIncrement, 1, 5000, 1, "roundingIncrement");
  if (increment !== 1 && roundingIncrements.indexOf(increment) < 0) {
    throw new RangeError(`roundingIncrement value is out of range.`);
  }
  const mode = getOption(options, "roundingMode", "string",
    "ceil|floor|expand|trunc|halfCeil|halfFloor|halfExpand|halfTrunc|halfEven", "halfExpand");
  const priority = getOption(options, "roundingPriority", "string", "auto|morePrecision|lessPrecision", "auto");
  const trailing = getOption(options, "trailingZeroDisplay", "string", "auto|stripIfInteger", "auto");
  if (increment !== 1) mxfdDefault = mnfdDefault;
  r.roundingIncrement = increment;
  r.roundingMode = mode;
  r.trailingZeroDisplay = trailing;
  const hasSd = mnsd !== undefined || mxsd !== undefined;
  const hasFd = mnfd !== undefined || mxfd !== undefined;
  let needSd = true;
  let needFd = true;
  if (priority === "auto") {
    needSd = hasSd;
    if (needSd || (!hasFd && notation === "compact")) needFd = false;
  }
  if (needSd) {
    if (hasSd) {
      r.minimumSignificantDigits = numberOption(mnsd, 1, 21, 1, "minimumSignificantDigits");
      r.maximumSignificantDigits = numberOption(mxsd, r.minimumSignificantDigits, 21, 21, "maximumSignificantDigits");
    } else {
      r.minimumSignificantDigits = 1;
      r.maximumSignificantDigits = 21;
    }
  }
  if (needFd) {
    if (hasFd) {
      let min = numberOption(mnfd, 0, 100, undefined, "minimumFractionDigits");
      let max = numberOption(mxfd, 0, 100, undefined, "maximumFractionDigits");
      if (min === undefined) min = Math.min(mnfdDefault, max);
      else if (max === undefined) max = Math.max(mxfdDefault, min);
      else if (min > max) throw new RangeError("maximumFractionDigits value is out of range.");
      r.minimumFractionDigits = min;
      r.maximumFractionDigits = max;
    } else {
      r.minimumFractionDigits = mnfdDefault;
      r.maximumFractionDigits = mxfdDefault;
    }
  }
  if (!needSd && !needFd) {
    r.minimumFractionDigits = 0;
    r.maximumFractionDigits = 0;
    r.minimumSignificantDigits = 1;
    r.maximumSignificantDigits = 2;
    r.roundingType = "morePrecision";
    r.roundingPriority = "morePrecision";
  } else if (priority === "auto") {
    r.roundingType = needSd ? "significantDigits" : "fractionDigits";
    r.roundingPriority = "auto";
  } else {
    r.roundingType = priority;
    r.roundingPriority = priority;
  }
  if (increment !== 1) {
    if (r.roundingType !== "fractionDigits") throw new TypeError("roundingIncrement needs rounding by fraction digits");
    if (r.maximumFractionDigits !== r.minimumFractionDigits) throw new RangeError("roundingIncrement needs equal minimum and maximum fraction digits");
  }
}

// toDecimalString is ToIntlMathematicalValue as a string Go parses:
// "NaN", "Infinity", "-Infinity", "-0", or a decimal.
const decimalRE = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?$/i;
function toPrimitiveNumber(x) {
  const exotic = x[Symbol.toPrimitive];
  if (exotic !== undefined && exotic !== null) {
    const v = exotic.call(x, "number");
    if (isObject(v)) throw new TypeError("Cannot convert object to primitive value");
    return v;
  }
  for (const name of ["valueOf", "toString"]) {
    const f = x[name];
    if (typeof f === "function") {
      const v = f.call(x);
      if (!isObject(v)) return v;
    }
  }
  throw new TypeError("Cannot convert object to primitive value");
}
function toDecimalString(x) {
  if (isObject(x)) x = toPrimitiveNumber(x);
  if (typeof x === "bigint") return String(x);
  if (typeof x === "string") {
    const s = x.trim();
    if (decimalRE.test(s)) return s;
    if (s === "") return "0";
    x = Number(s);
  }
  x = Number(x);
  if (x !== x) return "NaN";
  if (x === 0) return Object.is(x, -0) ? "-0" : "0";
  return String(x);
}

const nfSlots = new WeakMap();

function nfSlot(nf, method) {
  const s = nfSlots.get(nf);
  if (s === undefined) throw new TypeError(`Method Intl.NumberFormat.prototype.${method} called on an incompatible receiver`);
  return s;
}

// resolveNumberFormat is InitializeNumberFormat's option handling.
function resolveNumberFormat(locales, options) {
  const requested = localeList(locales);
  options = coerceOptions(options);
  const r = { locale: defaultLocale, numberingSystem: "latn" };
  readLocaleMatcher(options);
  typeOption(options, "numberingSystem");
  const style = getOption(options, "style", "string", "decimal|percent|currency|unit", "decimal");
  let currency = getOption(options, "currency", "string", undefined, undefined);
  if (currency !== undefined) {
    if (!/^[a-z]{3}$/i.test(currency)) throw new RangeError(`Invalid currency code : ${currency}`);
    currency = currency.toUpperCase();
  }
  const currencyDisplay = getOption(options, "currencyDisplay", "string", "code|symbol|narrowSymbol|name", "symbol");
  const currencySign = getOption(options, "currencySign", "string", "standard|accounting", "standard");
  const unit = getOption(options, "unit", "string", undefined, undefined);
  if (unit !== undefined && !lang.isUnit(unit)) throw new RangeError(`Invalid unit argument for Intl.NumberFormat() '${unit}'`);
  const unitDisplay = getOption(options, "unitDisplay", "string", "short|narrow|long", "short");
  if (style === "currency" && currency === undefined) throw new TypeError("Currency code is required with currency style.");
  if (style === "unit" && unit === undefined) throw new TypeError("Unit is required with unit style.");
  r.style = style;
  if (style === "currency") {
    r.currency = currency;
    r.currencyDisplay = currencyDisplay;
    r.currencySign = currencySign;
  }
  if (style === "unit") {
    r.unit = unit;
    r.unitDisplay = unitDisplay;
  }
  const notation = getOption(options, "notation", "string", "standard|scientific|engineering|compact", "standard");
  let mnfdDefault = 0;
  let mxfdDefault = style === "percent" ? 0 : 3;
  if (style === "currency" && notation === "standard") {
    mnfdDefault = mxfdDefault = lang.currencyDigits(currency);
  }
  digitOptions(r, options, mnfdDefault, mxfdDefault, notation);
  const compactDisplay = getOption(options, "compactDisplay", "string", "short|long", "short");
  const defaultGrouping = notation === "compact" ? "min2" : "auto";
  let useGrouping = options.useGrouping;
  if (useGrouping === undefined) useGrouping = defaultGrouping;
  else if (useGrouping === true) useGrouping = "always";
  else if (!useGrouping) useGrouping = false;
  else {
    useGrouping = String(useGrouping);
    if (useGrouping === "true" || useGrouping === "false") useGrouping = defaultGrouping;
    else if (useGrouping !== "min2" && useGrouping !== "auto" && useGrouping !== "always") throw new RangeError(`Value ${useGrouping} out of range for options property useGrouping`);
  }
  r.useGrouping = useGrouping;
  r.notation = notation;
  if (notation === "compact") r.compactDisplay = compactDisplay;
  r.signDisplay = getOption(options, "signDisplay", "string", "auto|never|always|exceptZero|negative", "auto");
  void requested;
  return r;
}

const resolvedNumberKeys = ["locale", "numberingSystem", "style", "currency", "currencyDisplay", "currencySign", "unit", "unitDisplay",
  "minimumIntegerDigits", "minimumFractionDigits", "maximumFractionDigits", "minimumSignificantDigits", "maximumSignificantDigits",
  "useGrouping", "notation", "compactDisplay", "signDisplay", "roundingIncrement", "roundingMode", "roundingPriority", "trailingZeroDisplay"];

class NumberFormatImpl {
  constructor(locales, options) {
    const r = resolveNumberFormat(locales, options);
    const handle = lang.numberFormat(r);
    nfSlots.set(this, { r, handle, format: undefined });
  }
  get format() {
    const s = nfSlot(this, "format");
    return boundGetter(s, "format", () => (value) => lang.formatNumber(s.handle, toDecimalString(value)));
  }
  formatToParts(value) {
    return lang.formatNumberToParts(nfSlot(this, "formatToParts").handle, toDecimalString(value));
  }
  formatRange(start, end) {
    return rangeParts(nfSlot(this, "formatRange"), start, end).map((p) => p.value).join("");
  }
  formatRangeToParts(start, end) {
    return rangeParts(nfSlot(this, "formatRangeToParts"), start, end);
  }
  resolvedOptions() {
    const r = nfSlot(this, "resolvedOptions").r;
    const out = {};
    for (const k of resolvedNumberKeys) if (r[k] !== undefined) out[k] = r[k];
    return out;
  }
}

// rangeParts is PartitionNumberRangePattern for en-US: start–end, with
// spaces around the dash when the numbers carry symbols or units, and ~
// when both are the same.
function rangeParts(s, start, end) {
  if (start === undefined || end === undefined) throw new TypeError("formatRange needs a start and an end");
  const a = toDecimalString(start);
  const b = toDecimalString(end);
  if (a === "NaN" || b === "NaN") throw new RangeError("formatRange does not take NaN");
  const pa = lang.formatNumberToParts(s.handle, a);
  const pb = lang.formatNumberToParts(s.handle, b);
  const text = (ps) => ps.map((p) => p.value).join("");
  if (text(pa) === text(pb)) {
    return [{ type: "approximatelySign", value: "~", source: "shared" }, ...pa.map((p) => ({ type: p.type, value: p.value, source: "shared" }))];
  }
  const plain = (ps) => ps.every((p) => ["integer", "group", "decimal", "fraction", "minusSign", "plusSign"].indexOf(p.type) >= 0);
  const dash = plain(pa) && plain(pb) ? "–" : " – ";
  return [
    ...pa.map((p) => ({ type: p.type, value: p.value, source: "startRange" })),
    { type: "literal", value: dash, source: "shared" },
    ...pb.map((p) => ({ type: p.type, value: p.value, source: "endRange" })),
  ];
}

const NumberFormat = defineIntlClass(NumberFormatImpl, "NumberFormat", true);
