// node:querystring — the application/x-www-form-urlencoded parser and
// serializer Node had before URLSearchParams.
sharedValues.querystring = function makeQuerystring() {
  const { Buffer } = shared("buffer");

  function unescapeBuffer(s, decodeSpaces) {
    const out = [];
    for (let k = 0; k < s.length; k++) {
      const c = s.charCodeAt(k);
      if (c === 0x2b && decodeSpaces) {
        out.push(0x20);
      } else if (c === 0x25 && k + 2 < s.length && /^[0-9a-fA-F]{2}$/.test(s.slice(k + 1, k + 3))) {
        out.push(parseInt(s.slice(k + 1, k + 3), 16));
        k += 2;
      } else if (c < 0x80) {
        out.push(c);
      } else {
        for (const b of Buffer.from(s[k] + (c >= 0xd800 && c <= 0xdbff && k + 1 < s.length ? s[++k] : ""))) out.push(b);
      }
    }
    return Buffer.from(out);
  }
  function unescape(s, decodeSpaces) {
    try {
      return decodeURIComponent(s);
    } catch {
      return unescapeBuffer(s, decodeSpaces).toString();
    }
  }
  function escape(str) {
    if (typeof str !== "string") {
      if (typeof str === "object") str = String(str);
      else str += "";
    }
    try {
      return encodeURIComponent(str);
    } catch {
      throw codedError(URIError, "ERR_INVALID_URI", "URI malformed");
    }
  }
  function primitive(v) {
    if (typeof v === "string") return v;
    if (typeof v === "number" && Number.isFinite(v)) return "" + v;
    if (typeof v === "bigint") return "" + v;
    if (typeof v === "boolean") return v ? "true" : "false";
    return "";
  }
  function stringify(obj, sep = "&", eq = "=", options) {
    sep = sep || "&";
    eq = eq || "=";
    const encode = options && typeof options.encodeURIComponent === "function" ? options.encodeURIComponent : escape;
    if (obj === null || typeof obj !== "object") return "";
    const parts = [];
    for (const k of Object.keys(obj)) {
      const v = obj[k];
      const ks = encode(primitive(k)) + eq;
      if (Array.isArray(v)) {
        for (const x of v) parts.push(ks + encode(primitive(x)));
      } else {
        parts.push(ks + encode(primitive(v)));
      }
    }
    return parts.join(sep);
  }
  function parse(qs, sep = "&", eq = "=", options) {
    const obj = Object.create(null);
    if (typeof qs !== "string" || qs.length === 0) return obj;
    sep = sep || "&";
    eq = eq || "=";
    let maxKeys = options && typeof options.maxKeys === "number" ? options.maxKeys : 1000;
    const decode = options && typeof options.decodeURIComponent === "function" ? options.decodeURIComponent : unescape;
    let pairs = qs.split(sep);
    if (maxKeys > 0 && pairs.length > maxKeys) pairs = pairs.slice(0, maxKeys);
    for (const pair of pairs) {
      if (pair.length === 0) continue;
      const idx = pair.indexOf(eq);
      let k, v;
      if (idx >= 0) {
        k = pair.slice(0, idx);
        v = pair.slice(idx + eq.length);
      } else {
        k = pair;
        v = "";
      }
      const dk = decodePart(k, decode), dv = decodePart(v, decode);
      if (!(dk in obj)) obj[dk] = dv;
      else if (Array.isArray(obj[dk])) obj[dk].push(dv);
      else obj[dk] = [obj[dk], dv];
    }
    return obj;
  }
  function decodePart(s, decode) {
    if (s.includes("+")) s = s.replace(/\+/g, " ");
    try {
      return decode(s);
    } catch {
      return unescape(s, true);
    }
  }
  return { unescapeBuffer, unescape, escape, stringify, encode: stringify, parse, decode: parse };
};
modules["node:querystring"] = () => shared("querystring");
