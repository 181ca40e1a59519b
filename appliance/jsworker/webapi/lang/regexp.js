// RegExp: named groups, \p{...}, the d and v flags and RegExp.escape over
// goja's engine. The global RegExp becomes a constructor that hands goja a
// translated pattern (see pattern.go) and gives the regexps that needed
// one their own exec, [Symbol.replace], [Symbol.split] and
// [Symbol.matchAll], which add .groups and .indices. Regexps goja runs as
// they are stay plain goja regexps: RegExp.prototype is left as it is, so
// goja keeps its fast paths for them.
const lang = host.lang;
const NativeRegExp = global.RegExp;
const proto = NativeRegExp.prototype;
const uncurry = (fn) => Function.prototype.call.bind(fn);
const nativeExec = uncurry(proto.exec);
const nativeReplace = uncurry(proto[Symbol.replace]);
const nativeSplit = uncurry(proto[Symbol.split]);
const nativeGlobal = uncurry(Object.getOwnPropertyDescriptor(proto, "global").get);
const nativeSource = uncurry(Object.getOwnPropertyDescriptor(proto, "source").get);
const defineProperties = Object.defineProperties;
const setPrototypeOf = Object.setPrototypeOf;
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const kInfo = Symbol("dwk.regexp");

function toLength(v) {
  const n = Math.trunc(Number(v));
  return n > 0 ? Math.min(n, Number.MAX_SAFE_INTEGER) : 0;
}

function advance(s, i, fullUnicode) {
  if (!fullUnicode || i + 1 >= s.length) return i + 1;
  const c = s.charCodeAt(i);
  if (c < 0xD800 || c > 0xDBFF) return i + 1;
  const d = s.charCodeAt(i + 1);
  return d >= 0xDC00 && d <= 0xDFFF ? i + 2 : i + 1;
}

// hasMatcher reports whether v is a regexp goja made (it has
// [[RegExpMatcher]]).
function hasMatcher(v) {
  try {
    nativeGlobal(v);
    return v !== proto;
  } catch (e) {
    return false;
  }
}

// isRegExp is the spec's IsRegExp.
function isRegExp(v) {
  if (v === null || (typeof v !== "object" && typeof v !== "function")) return false;
  const m = v[Symbol.match];
  if (m !== undefined) return !!m;
  return hasMatcher(v);
}

// ---- translated patterns, per isolate: key → {template, info}. A
// template is a goja regexp of the (translated) pattern that new regexps
// are cloned from, so goja compiles each pattern once.
const entries = new Map();
const maxEntries = 512;

// mayNeedTranslation is a cheap test for what the translation handles.
function mayNeedTranslation(source, flags) {
  return flags.indexOf("d") >= 0 || flags.indexOf("v") >= 0 || source.indexOf("(?<") >= 0 ||
    (flags.indexOf("u") >= 0 && (source.indexOf("\\p") >= 0 || source.indexOf("\\P") >= 0));
}

function entryFor(source, flags) {
  const key = flags + "/" + source;
  let e = entries.get(key);
  if (e !== undefined) return e;
  const info = mayNeedTranslation(source, flags) ? lang.compileRegExp(source, flags) : null;
  let template;
  if (info === null) {
    template = new NativeRegExp(source, flags);
  } else {
    try {
      template = new NativeRegExp(info.native, info.nativeFlags);
    } catch (err) {
      const why = String(err && err.message).slice(0, 200);
      throw new SyntaxError(`Invalid regular expression: /${source}/${flags}: ${why}`);
    }
    prepare(info, template);
  }
  if (entries.size >= maxEntries) entries.clear();
  e = { template, info };
  entries.set(key, e);
  return e;
}

// prepare completes what compileRegExp returned with the own properties
// of its regexps.
function prepare(info, template) {
  info.template = template;
  const method = (value) => ({ value, writable: true, configurable: true });
  info.descriptors = {
    [kInfo]: { value: info },
    [lang.kPattern]: { value: info.handle },
    source: { value: info.source, configurable: true },
    flags: { value: info.flags, configurable: true },
    exec: method(exec),
    [Symbol.replace]: method(replace),
    [Symbol.split]: method(split),
    [Symbol.matchAll]: method(matchAll),
  };
  if (info.unicodeSets) info.descriptors.unicode = { value: false, configurable: true };
}

// ---- the constructor
function RegExp(pattern, flags) {
  const patternIsRegExp = isRegExp(pattern);
  if (new.target === undefined && patternIsRegExp && flags === undefined && pattern.constructor === RegExp) {
    return pattern;
  }
  let source, fl;
  if (patternIsRegExp) {
    const info = pattern[kInfo];
    if (info !== undefined) {
      source = info.rawSource;
      fl = flags === undefined ? info.flags : String(flags);
    } else if (hasMatcher(pattern)) {
      source = nativeSource(pattern);
      fl = flags === undefined ? String(pattern.flags) : String(flags);
    } else {
      source = String(pattern.source);
      fl = flags === undefined ? String(pattern.flags) : String(flags);
    }
  } else {
    source = pattern === undefined ? "" : String(pattern);
    fl = flags === undefined ? "" : String(flags);
  }
  const e = entryFor(source, fl);
  const re = new NativeRegExp(e.template);
  if (new.target !== undefined && new.target !== RegExp) {
    const p = new.target.prototype;
    setPrototypeOf(re, p !== null && (typeof p === "object" || typeof p === "function") ? p : proto);
  }
  if (e.info !== null) defineProperties(re, e.info.descriptors);
  return re;
}

// ---- what the regexps that needed a translation do differently

// exec (in Go) adds .groups and, with the d flag, .indices.
const exec = lang.exec;
Object.defineProperty(exec, "name", { value: "exec" });
Object.defineProperty(exec, "length", { value: 1 });

// viaTemplate runs one of goja's own methods on the regexp's template,
// carrying lastIndex over, for results that do not involve groups.
function viaTemplate(re, info, method, s, arg) {
  const t = info.template;
  const gy = info.global || info.sticky;
  if (gy) t.lastIndex = re.lastIndex;
  const out = method(t, s, arg);
  if (gy) re.lastIndex = t.lastIndex;
  return out;
}

function replace(string, replaceValue) {
  const info = this[kInfo];
  const s = String(string);
  const functional = typeof replaceValue === "function";
  const rv = functional ? replaceValue : String(replaceValue);
  if (info !== undefined && (info.names === null || (!functional && rv.indexOf("$<") < 0))) {
    return viaTemplate(this, info, nativeReplace, s, rv);
  }
  return replaceWithGroups(this, s, rv, functional);
}

// replaceWithGroups is RegExp.prototype[Symbol.replace] as the spec
// writes it, over this.exec.
function replaceWithGroups(rx, s, replaceValue, functional) {
  const flags = String(rx.flags);
  const global = flags.indexOf("g") >= 0;
  const fullUnicode = flags.indexOf("u") >= 0 || flags.indexOf("v") >= 0;
  if (global) rx.lastIndex = 0;
  const results = [];
  for (;;) {
    const result = rx.exec(s);
    if (result === null) break;
    results.push(result);
    if (!global) break;
    if (String(result[0]) === "") rx.lastIndex = advance(s, toLength(rx.lastIndex), fullUnicode);
  }
  let out = "";
  let next = 0;
  for (const result of results) {
    const nCaptures = Math.max(toLength(result.length) - 1, 0);
    const matched = String(result[0]);
    const position = Math.max(Math.min(Math.trunc(Number(result.index)) || 0, s.length), 0);
    const captures = [];
    for (let n = 1; n <= nCaptures; n++) {
      const c = result[n];
      captures.push(c === undefined ? undefined : String(c));
    }
    let groups = result.groups;
    let replacement;
    if (functional) {
      const args = [matched, ...captures, position, s];
      if (groups !== undefined) args.push(groups);
      replacement = String(replaceValue(...args));
    } else {
      if (groups !== undefined) groups = Object(groups);
      replacement = substitution(matched, s, position, captures, groups, replaceValue);
    }
    if (position >= next) {
      out += s.slice(next, position) + replacement;
      next = position + matched.length;
    }
  }
  return out + s.slice(next);
}

// substitution is GetSubstitution: $$, $&, $`, $', $n, $nn and $<name>.
function substitution(matched, s, position, captures, groups, template) {
  let out = "";
  const m = captures.length;
  const tail = Math.min(position + matched.length, s.length);
  for (let i = 0; i < template.length; i++) {
    const c = template[i];
    if (c !== "$" || i + 1 >= template.length) {
      out += c;
      continue;
    }
    const d = template[i + 1];
    if (d === "$") { out += "$"; i++; continue; }
    if (d === "&") { out += matched; i++; continue; }
    if (d === "`") { out += s.slice(0, position); i++; continue; }
    if (d === "'") { out += s.slice(tail); i++; continue; }
    if (d >= "0" && d <= "9") {
      const two = i + 2 < template.length && template[i + 2] >= "0" && template[i + 2] <= "9" ? Number(d + template[i + 2]) : -1;
      if (two >= 1 && two <= m) {
        const v = captures[two - 1];
        out += v === undefined ? "" : v;
        i += 2;
        continue;
      }
      const one = Number(d);
      if (one >= 1 && one <= m) {
        const v = captures[one - 1];
        out += v === undefined ? "" : v;
        i++;
        continue;
      }
      out += "$";
      continue;
    }
    if (d === "<" && groups !== undefined) {
      const end = template.indexOf(">", i + 2);
      if (end < 0) { out += "$"; continue; }
      const v = groups[template.slice(i + 2, end)];
      out += v === undefined ? "" : String(v);
      i = end;
      continue;
    }
    out += "$";
  }
  return out;
}

function split(string, limit) {
  const info = this[kInfo];
  if (info === undefined) return nativeSplit(this, string, limit);
  return nativeSplit(info.template, String(string), limit);
}

class RegExpStringIterator {
  #matcher;
  #s;
  #global;
  #fullUnicode;
  #done = false;
  constructor(matcher, s, global, fullUnicode) {
    this.#matcher = matcher;
    this.#s = s;
    this.#global = global;
    this.#fullUnicode = fullUnicode;
  }
  next() {
    if (this.#done) return { value: undefined, done: true };
    const m = this.#matcher.exec(this.#s);
    if (m === null) {
      this.#done = true;
      return { value: undefined, done: true };
    }
    if (!this.#global) {
      this.#done = true;
    } else if (String(m[0]) === "") {
      this.#matcher.lastIndex = advance(this.#s, toLength(this.#matcher.lastIndex), this.#fullUnicode);
    }
    return { value: m, done: false };
  }
}
setPrototypeOf(RegExpStringIterator.prototype, IteratorPrototype);
Object.defineProperty(RegExpStringIterator.prototype, Symbol.toStringTag, { value: "RegExp String Iterator", configurable: true });

function matchAll(string) {
  const s = String(string);
  const ctor = this.constructor;
  let C = ctor === undefined ? RegExp : ctor[Symbol.species];
  if (C === undefined || C === null || C === NativeRegExp) C = RegExp;
  const flags = String(this.flags);
  const matcher = new C(this, flags);
  matcher.lastIndex = toLength(this.lastIndex);
  return new RegExpStringIterator(matcher, s, flags.indexOf("g") >= 0, flags.indexOf("u") >= 0 || flags.indexOf("v") >= 0);
}

// ---- RegExp.escape (ES2025)
const otherPunctuators = ",-=<>#&!%:;@~'`\"";
function hex(c, width) {
  return c.toString(16).padStart(width, "0");
}
function escape(s) {
  if (typeof s !== "string") throw new TypeError("RegExp.escape needs a string");
  let out = "";
  for (const ch of s) {
    const c = ch.codePointAt(0);
    if (out === "" && ((c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122))) {
      out += "\\x" + hex(c, 2);
    } else if ("^$\\.*+?()[]{}|/".indexOf(ch) >= 0) {
      out += "\\" + ch;
    } else if (c >= 9 && c <= 13) {
      out += "\\" + "tnvfr"[c - 9];
    } else if (otherPunctuators.indexOf(ch) >= 0 || c === 0x20 || c === 0xA0 || c === 0x1680 || (c >= 0x2000 && c <= 0x200A) ||
      c === 0x2028 || c === 0x2029 || c === 0x202F || c === 0x205F || c === 0x3000 || c === 0xFEFF || (c >= 0xD800 && c <= 0xDFFF)) {
      out += c <= 0xFF ? "\\x" + hex(c, 2) : "\\u" + hex(c, 4);
    } else {
      out += ch;
    }
  }
  return out;
}

// ---- wiring
Object.defineProperty(RegExp, "prototype", { value: proto, writable: false, enumerable: false, configurable: false });
// goja's own split keeps its fast path only when the species is its own
// constructor; subclasses get themselves.
lang.setRegExp(RegExp, NativeRegExp);
Object.defineProperty(RegExp, Symbol.species, { get: lang.regexpSpecies, configurable: true });
Object.defineProperty(RegExp, "escape", { value: escape, writable: true, configurable: true });
Object.defineProperty(proto, "constructor", { value: RegExp, writable: true, configurable: true });
for (const [name, key] of [["hasIndices", "hasIndices"], ["unicodeSets", "unicodeSets"]]) {
  Object.defineProperty(proto, name, {
    get: {
      [name]() {
        const info = this === null || this === undefined ? undefined : this[kInfo];
        if (info !== undefined) return info[key];
        if (this === proto) return undefined;
        nativeGlobal(this); // throws a TypeError for what is not a regexp
        return false;
      },
    }[name],
    configurable: true,
  });
}
internal.defineGlobal("RegExp", RegExp);
