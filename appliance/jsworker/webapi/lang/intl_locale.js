// Intl's shared parts: locale lists, option reading (ECMA-402's
// GetOption and friends), and Intl.Locale. Every service formats as en-US
// whatever locale is asked for, and says so: its resolved locale is
// "en-US", and supportedLocalesOf keeps only English tags.
const lang = host.lang;
const defaultLocale = "en-US";

function isObject(v) {
  return v !== null && (typeof v === "object" || typeof v === "function");
}

// ---- options

// coerceOptions is CoerceOptionsToObject.
function coerceOptions(options) {
  return options === undefined ? Object.create(null) : Object(options);
}

// optionsObject is GetOptionsObject.
function optionsObject(options) {
  if (options === undefined) return Object.create(null);
  if (isObject(options)) return options;
  throw new TypeError("Options must be an object");
}

// getOption is GetOption: the property as a string or boolean, checked
// against values ("a|b|c", a string so that absent options cost no
// array).
function getOption(options, property, type, values, fallback) {
  let value = options[property];
  if (value === undefined) return fallback;
  value = type === "boolean" ? Boolean(value) : String(value);
  if (values !== undefined && values.split("|").indexOf(value) < 0) {
    throw new RangeError(`Value ${value} out of range for options property ${property}`);
  }
  return value;
}

// numberOption is DefaultNumberOption.
function numberOption(value, min, max, fallback, property) {
  if (value === undefined) return fallback;
  const n = Number(value);
  if (n !== n || n < min || n > max) throw new RangeError(`${property} value is out of range.`);
  return Math.floor(n);
}

const typeRE = /^[a-z0-9]{3,8}(?:-[a-z0-9]{3,8})*$/i;

// typeOption reads a Unicode extension type option (calendar,
// numberingSystem, collation).
function typeOption(options, property) {
  const v = getOption(options, property, "string", undefined, undefined);
  if (v !== undefined && !typeRE.test(v)) throw new RangeError(`Invalid ${property} : ${v}`);
  return v;
}

// ---- locales
const tagRE = /^(?:(?:([a-z]{2,3}|[a-z]{5,8})(?:-([a-z]{4}))?(?:-([a-z]{2}|[0-9]{3}))?((?:-(?:[a-z0-9]{5,8}|[0-9][a-z0-9]{3}))*)((?:-[0-9a-wy-z](?:-[a-z0-9]{2,8})+)*)(?:-(x(?:-[a-z0-9]{1,8})+))?)|(x(?:-[a-z0-9]{1,8})+))$/i;
const languageAliases = { iw: "he", in: "id", ji: "yi", jw: "jv", mo: "ro", tl: "fil" };

// parseTag splits a BCP 47 language tag in canonical case, or throws a
// RangeError.
function parseTag(tag) {
  const m = tagRE.exec(tag);
  if (m === null || m[7] !== undefined) throw new RangeError(`Incorrect locale information provided: ${tag}`);
  const language = m[1].toLowerCase();
  const variants = m[4] ? m[4].slice(1).toLowerCase().split("-") : [];
  if (new Set(variants).size !== variants.length) throw new RangeError(`Incorrect locale information provided: ${tag}`);
  const extensions = new Map();
  if (m[5]) {
    let current = null;
    for (const piece of m[5].slice(1).toLowerCase().split("-")) {
      if (piece.length === 1) {
        if (extensions.has(piece)) throw new RangeError(`Incorrect locale information provided: ${tag}`);
        current = [];
        extensions.set(piece, current);
      } else {
        current.push(piece);
      }
    }
  }
  return {
    language: languageAliases[language] || language,
    script: m[2] ? m[2][0].toUpperCase() + m[2].slice(1).toLowerCase() : undefined,
    region: m[3] ? m[3].toUpperCase() : undefined,
    variants: variants.sort(),
    extensions,
    privateUse: m[6] ? m[6].toLowerCase() : undefined,
  };
}

// keywords reads a -u- extension into [key, value] pairs.
function keywords(u) {
  const out = [];
  const attributes = [];
  let i = 0;
  while (i < u.length && u[i].length > 2) attributes.push(u[i++]);
  while (i < u.length) {
    const key = u[i++];
    const value = [];
    while (i < u.length && u[i].length > 2) value.push(u[i++]);
    const v = value.join("-");
    if (!out.some(([k]) => k === key)) out.push([key, v === "true" ? "" : v]);
  }
  return { attributes, keywords: out.sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)) };
}

function baseName(p) {
  let s = p.language;
  if (p.script) s += "-" + p.script;
  if (p.region) s += "-" + p.region;
  for (const v of p.variants) s += "-" + v;
  return s;
}

function tagString(p) {
  let s = baseName(p);
  for (const key of [...p.extensions.keys()].sort()) {
    const pieces = p.extensions.get(key);
    if (key === "u") {
      const { attributes, keywords: kw } = keywords(pieces);
      s += "-u";
      for (const a of attributes) s += "-" + a;
      for (const [k, v] of kw) s += "-" + k + (v ? "-" + v : "");
    } else {
      s += "-" + key + "-" + pieces.join("-");
    }
  }
  if (p.privateUse) s += "-" + p.privateUse;
  return s;
}

// canonicalizeTag is CanonicalizeUnicodeLocaleId over the syntax: canonical
// case, sorted variants, extensions and keywords, and a few language
// aliases.
function canonicalizeTag(tag) {
  return tagString(parseTag(tag));
}

// canonicalTags caches canonicalizeTag.
const canonicalTags = new Map();
function canonicalTag(tag) {
  let c = canonicalTags.get(tag);
  if (c === undefined) {
    c = canonicalizeTag(tag);
    if (canonicalTags.size >= 256) canonicalTags.clear();
    canonicalTags.set(tag, c);
  }
  return c;
}

// localeList is CanonicalizeLocaleList.
function localeList(locales) {
  if (locales === undefined) return [];
  const out = [];
  const add = (v) => {
    if (typeof v !== "string" && !(isObject(v) && v instanceof Locale)) throw new TypeError("Locale must be a string or an Intl.Locale");
    const tag = v instanceof Locale ? v.toString() : canonicalTag(v);
    if (out.indexOf(tag) < 0) out.push(tag);
  };
  if (typeof locales === "string" || locales instanceof Locale) {
    add(locales);
    return out;
  }
  const o = Object(locales);
  const len = Math.min(Math.max(Math.trunc(Number(o.length)) || 0, 0), Number.MAX_SAFE_INTEGER);
  for (let k = 0; k < len; k++) if (k in o) add(o[k]);
  return out;
}

// unicodeKeyword returns a -u- keyword of the first requested locale.
function unicodeKeyword(requested, key) {
  if (requested.length === 0 || requested[0].indexOf("-u-") < 0) return undefined;
  const u = parseTag(requested[0]).extensions.get("u");
  if (u === undefined) return undefined;
  const kw = keywords(u).keywords.find(([k]) => k === key);
  return kw === undefined ? undefined : kw[1] === "" ? "true" : kw[1];
}

// supportedLocales is SupportedLocales: the English ones.
function supportedLocales(locales, options) {
  const list = localeList(locales);
  if (options !== undefined) getOption(coerceOptions(options), "localeMatcher", "string", ["lookup", "best fit"], "best fit");
  return list.filter((tag) => parseTag(tag).language === "en");
}

function readLocaleMatcher(options) {
  return getOption(options, "localeMatcher", "string", "lookup|best fit", "best fit");
}

// ---- Intl.Locale
const likely = { en: ["Latn", "US"], und: ["Latn", "US"] };

class Locale {
  #p;
  constructor(tag, options = undefined) {
    if (typeof tag !== "string" && !(isObject(tag) && tag instanceof Locale)) throw new TypeError("Intl.Locale needs a string or an Intl.Locale");
    const p = parseTag(tag instanceof Locale ? tag.toString() : tag);
    const o = coerceOptions(options);
    const language = getOption(o, "language", "string", undefined, undefined);
    const script = getOption(o, "script", "string", undefined, undefined);
    const region = getOption(o, "region", "string", undefined, undefined);
    if (language !== undefined) {
      if (!/^(?:[a-z]{2,3}|[a-z]{5,8})$/i.test(language)) throw new RangeError(`Incorrect locale information provided: language ${language}`);
      p.language = language.toLowerCase();
    }
    if (script !== undefined) {
      if (!/^[a-z]{4}$/i.test(script)) throw new RangeError(`Incorrect locale information provided: script ${script}`);
      p.script = script[0].toUpperCase() + script.slice(1).toLowerCase();
    }
    if (region !== undefined) {
      if (!/^(?:[a-z]{2}|[0-9]{3})$/i.test(region)) throw new RangeError(`Incorrect locale information provided: region ${region}`);
      p.region = region.toUpperCase();
    }
    const set = (key, value) => {
      if (value === undefined) return;
      const u = p.extensions.get("u") || [];
      const { attributes, keywords: kw } = keywords(u);
      const rest = kw.filter(([k]) => k !== key);
      rest.push([key, value === "true" ? "" : value]);
      p.extensions.set("u", [...attributes, ...rest.flatMap(([k, v]) => (v ? [k, ...v.split("-")] : [k]))]);
    };
    set("ca", typeOption(o, "calendar"));
    set("co", typeOption(o, "collation"));
    set("hc", getOption(o, "hourCycle", "string", "h11|h12|h23|h24", undefined));
    set("kf", getOption(o, "caseFirst", "string", "upper|lower|false", undefined));
    const numeric = getOption(o, "numeric", "boolean", undefined, undefined);
    set("kn", numeric === undefined ? undefined : String(numeric));
    set("nu", typeOption(o, "numberingSystem"));
    this.#p = p;
  }
  #keyword(key) {
    const u = this.#p.extensions.get("u");
    if (u === undefined) return undefined;
    const kw = keywords(u).keywords.find(([k]) => k === key);
    return kw === undefined ? undefined : kw[1] === "" ? "true" : kw[1];
  }
  get baseName() { return baseName(this.#p); }
  get language() { return this.#p.language; }
  get script() { return this.#p.script; }
  get region() { return this.#p.region; }
  get calendar() { return this.#keyword("ca"); }
  get collation() { return this.#keyword("co"); }
  get hourCycle() { return this.#keyword("hc"); }
  get caseFirst() { return this.#keyword("kf"); }
  get numeric() { return this.#keyword("kn") === "true"; }
  get numberingSystem() { return this.#keyword("nu"); }
  toString() { return tagString(this.#p); }
  toJSON() { return this.toString(); }
  // maximize adds the likely script and region for English and und; other
  // languages stay as they are (no likely-subtags data).
  maximize() {
    const add = likely[this.#p.language];
    if (add === undefined) return new Locale(this.toString());
    const language = this.#p.language === "und" ? "en" : this.#p.language;
    return new Locale(this.toString(), { language, script: this.#p.script || add[0], region: this.#p.region || add[1] });
  }
  minimize() {
    const p = parseTag(this.toString());
    const add = likely[p.language];
    if (add !== undefined) {
      if (p.script === add[0]) p.script = undefined;
      if (p.region === add[1]) p.region = undefined;
    }
    return new Locale(tagString(p));
  }
}
Object.defineProperty(Locale.prototype, Symbol.toStringTag, { value: "Intl.Locale", configurable: true });

// ---- shared by the services

// defineIntlClass makes a service's constructor: callable without new
// when legacy is set (NumberFormat, DateTimeFormat, Collator), and with
// supportedLocalesOf.
function defineIntlClass(Impl, name, legacy) {
  let ctor;
  if (legacy) {
    ctor = {
      [name]: function (locales, options) {
        return Reflect.construct(Impl, [locales, options], new.target || ctor);
      },
    }[name];
    ctor.prototype = Impl.prototype;
    Object.defineProperty(Impl.prototype, "constructor", { value: ctor, writable: true, configurable: true });
  } else {
    ctor = Impl;
  }
  Object.defineProperty(ctor, "prototype", { writable: false, enumerable: false, configurable: false });
  Object.defineProperty(ctor, "supportedLocalesOf", {
    value: function supportedLocalesOf(locales, options = undefined) {
      return supportedLocales(locales, options);
    },
    writable: true,
    configurable: true,
  });
  Object.defineProperty(Impl.prototype, Symbol.toStringTag, { value: "Intl." + name, configurable: true });
  return ctor;
}

// boundMethod caches fn bound to obj in a slot object.
function boundGetter(slots, key, make) {
  let f = slots[key];
  if (f === undefined) slots[key] = f = make();
  return f;
}
