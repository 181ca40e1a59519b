// The Intl object, and the locale-sensitive methods of Number, BigInt,
// Date and String routed through it. Formatters the methods make without
// locales and options, or with plain option objects, are cached.
const Intl = {};
const defineValue = (o, name, value) => Object.defineProperty(o, name, { value, writable: true, configurable: true });

defineValue(Intl, "getCanonicalLocales", function getCanonicalLocales(locales) {
  return localeList(locales);
});
defineValue(Intl, "supportedValuesOf", function supportedValuesOf(key) {
  switch (String(key)) {
    case "calendar":
      return ["gregory"];
    case "collation":
      return ["default"];
    case "numberingSystem":
      return ["latn"];
    case "currency":
    case "timeZone":
    case "unit":
      return lang.supportedValues(String(key));
  }
  throw new RangeError(`Invalid key : ${String(key)}`);
});
defineValue(Intl, "Collator", Collator);
defineValue(Intl, "DateTimeFormat", DateTimeFormat);
defineValue(Intl, "ListFormat", ListFormat);
defineValue(Intl, "Locale", Locale);
defineValue(Intl, "NumberFormat", NumberFormat);
defineValue(Intl, "PluralRules", PluralRules);
defineValue(Intl, "RelativeTimeFormat", RelativeTimeFormat);
defineValue(Intl, "Segmenter", Segmenter);
Object.defineProperty(Intl, Symbol.toStringTag, { value: "Intl", configurable: true });
internal.defineGlobal("Intl", Intl);

// ---- formatter caches for the prototype methods
const maxCached = 64;

// cacheKey is a key for locales and options made of primitives, or
// undefined when they cannot be cached.
function cacheKey(locales, options) {
  let key;
  if (locales === undefined) key = "|";
  else if (typeof locales === "string") key = locales + "|";
  else if (Array.isArray(locales) && locales.every((l) => typeof l === "string")) key = locales.join(",") + "|";
  else return undefined;
  if (options === undefined) return key;
  if (!isObject(options) || Object.getPrototypeOf(options) !== Object.prototype) return undefined;
  for (const k in options) {
    const v = options[k];
    const t = typeof v;
    if (t !== "string" && t !== "number" && t !== "boolean" && v !== undefined) return undefined;
    key += k + ":" + t[0] + String(v) + ";";
  }
  return key;
}

function cachedFormatter(cache, locales, options, make) {
  const key = locales === undefined && options === undefined ? "" : cacheKey(locales, options);
  if (key === undefined) return make();
  let f = cache.get(key);
  if (f === undefined) {
    if (cache.size >= maxCached) cache.clear();
    f = make();
    cache.set(key, f);
  }
  return f;
}

// ---- Number and BigInt
const numberFormats = new Map();
const thisNumber = Function.prototype.call.bind(Number.prototype.valueOf);
const thisBigInt = Function.prototype.call.bind(BigInt.prototype.valueOf);
defineValue(Number.prototype, "toLocaleString", function toLocaleString(locales = undefined, options = undefined) {
  const x = thisNumber(this);
  return cachedFormatter(numberFormats, locales, options, () => new NumberFormat(locales, options)).format(x);
});
defineValue(BigInt.prototype, "toLocaleString", function toLocaleString(locales = undefined, options = undefined) {
  const x = thisBigInt(this);
  return cachedFormatter(numberFormats, locales, options, () => new NumberFormat(locales, options)).format(x);
});

// ---- Date
const thisTime = Function.prototype.call.bind(Date.prototype.getTime);
const dateFormats = { any: new Map(), date: new Map(), time: new Map() };
function dateToLocale(kind, defaults, name) {
  return {
    [name](locales = undefined, options = undefined) {
      const t = thisTime(this);
      if (t !== t) return "Invalid Date";
      const f = cachedFormatter(dateFormats[kind], locales, options, () => new DateTimeFormatImpl(locales, options, kind, defaults));
      return f.format(t);
    },
  }[name];
}
defineValue(Date.prototype, "toLocaleString", dateToLocale("any", "all", "toLocaleString"));
defineValue(Date.prototype, "toLocaleDateString", dateToLocale("date", "date", "toLocaleDateString"));
defineValue(Date.prototype, "toLocaleTimeString", dateToLocale("time", "time", "toLocaleTimeString"));

// ---- String.prototype.localeCompare with locales or options
const nativeLocaleCompare = String.prototype.localeCompare;
const collators = new Map();
defineValue(String.prototype, "localeCompare", function localeCompare(that, locales = undefined, options = undefined) {
  if (this === null || this === undefined) throw new TypeError("String.prototype.localeCompare called on null or undefined");
  if (locales === undefined && options === undefined) return nativeLocaleCompare.call(this, that);
  return cachedFormatter(collators, locales, options, () => new Collator(locales, options)).compare(String(this), String(that));
});
