// node:punycode — RFC 3492 Punycode and IDNA's toASCII / toUnicode label
// mapping (without IDNA's normalization), as Node's deprecated module.
sharedValues.punycode = function makePunycode() {
  const base = 36, tMin = 1, tMax = 26, skew = 38, damp = 700, initialBias = 72, initialN = 128;
  const maxInt = 2147483647;
  const separators = /[\x2E\u3002\uFF0E\uFF61]/;
  const overflow = () => new RangeError("Overflow: input needs wider integers to process");

  function ucs2decode(string) {
    const out = [];
    for (let k = 0; k < string.length; k++) {
      const c = string.charCodeAt(k);
      if (c >= 0xd800 && c <= 0xdbff && k + 1 < string.length) {
        const d = string.charCodeAt(k + 1);
        if ((d & 0xfc00) === 0xdc00) {
          out.push(((c & 0x3ff) << 10) + (d & 0x3ff) + 0x10000);
          k++;
          continue;
        }
      }
      out.push(c);
    }
    return out;
  }
  const ucs2encode = (codePoints) => String.fromCodePoint(...codePoints);
  const basicToDigit = (c) => (c >= 0x30 && c < 0x3a ? 26 + (c - 0x30) : c >= 0x41 && c < 0x5b ? c - 0x41 : c >= 0x61 && c < 0x7b ? c - 0x61 : base);
  const digitToBasic = (d) => d + 22 + 75 * (d < 26);
  function adapt(delta, numPoints, firstTime) {
    let k = 0;
    delta = firstTime ? Math.floor(delta / damp) : delta >> 1;
    delta += Math.floor(delta / numPoints);
    for (; delta > ((base - tMin) * tMax) >> 1; k += base) delta = Math.floor(delta / (base - tMin));
    return Math.floor(k + ((base - tMin + 1) * delta) / (delta + skew));
  }

  function decode(input) {
    const output = [];
    let basic = input.lastIndexOf("-");
    if (basic < 0) basic = 0;
    for (let j = 0; j < basic; ++j) {
      if (input.charCodeAt(j) >= 0x80) throw new RangeError("Illegal input >= 0x80 (not a basic code point)");
      output.push(input.charCodeAt(j));
    }
    let n = initialN, bias = initialBias, i = 0;
    for (let index = basic > 0 ? basic + 1 : 0; index < input.length;) {
      const oldi = i;
      for (let w = 1, k = base; ; k += base) {
        if (index >= input.length) throw new RangeError("Invalid input");
        const digit = basicToDigit(input.charCodeAt(index++));
        if (digit >= base) throw new RangeError("Invalid input");
        if (digit > Math.floor((maxInt - i) / w)) throw overflow();
        i += digit * w;
        const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
        if (digit < t) break;
        if (w > Math.floor(maxInt / (base - t))) throw overflow();
        w *= base - t;
      }
      const out = output.length + 1;
      bias = adapt(i - oldi, out, oldi === 0);
      if (Math.floor(i / out) > maxInt - n) throw overflow();
      n += Math.floor(i / out);
      i %= out;
      output.splice(i++, 0, n);
    }
    return String.fromCodePoint(...output);
  }

  function encode(input) {
    const output = [];
    const points = ucs2decode(input);
    let n = initialN, delta = 0, bias = initialBias;
    for (const c of points) if (c < 0x80) output.push(String.fromCharCode(c));
    const basicLength = output.length;
    let handled = basicLength;
    if (basicLength) output.push("-");
    while (handled < points.length) {
      let m = maxInt;
      for (const c of points) if (c >= n && c < m) m = c;
      if (m - n > Math.floor((maxInt - delta) / (handled + 1))) throw overflow();
      delta += (m - n) * (handled + 1);
      n = m;
      for (const c of points) {
        if (c < n && ++delta > maxInt) throw overflow();
        if (c === n) {
          let q = delta;
          for (let k = base; ; k += base) {
            const t = k <= bias ? tMin : k >= bias + tMax ? tMax : k - bias;
            if (q < t) break;
            output.push(String.fromCharCode(digitToBasic(t + ((q - t) % (base - t)))));
            q = Math.floor((q - t) / (base - t));
          }
          output.push(String.fromCharCode(digitToBasic(q)));
          bias = adapt(delta, handled + 1, handled === basicLength);
          delta = 0;
          ++handled;
        }
      }
      ++delta;
      ++n;
    }
    return output.join("");
  }

  // mapDomain applies fn to each label of a domain, or of an email
  // address's domain part.
  function mapDomain(domain, fn) {
    const at = domain.lastIndexOf("@");
    const local = at >= 0 ? domain.slice(0, at + 1) : "";
    return local + domain.slice(at + 1).split(separators).map(fn).join(".");
  }
  const toASCII = (input) => mapDomain(input, (label) => (/[^\0-\x7F]/.test(label) ? "xn--" + encode(label) : label));
  const toUnicode = (input) => mapDomain(input, (label) => (/^xn--/i.test(label) ? decode(label.slice(4).toLowerCase()) : label));

  return { version: "2.1.0", ucs2: { decode: ucs2decode, encode: ucs2encode }, decode, encode, toASCII, toUnicode };
};
modules["node:punycode"] = () => shared("punycode");
