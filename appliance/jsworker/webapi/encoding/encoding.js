// TextEncoder, TextDecoder, atob and btoa over the natives in
// host.encoding, and the byte conversions other preludes share.
const enc = host.encoding;

function options(v, what) {
  if (v === undefined || v === null) return {};
  if (typeof v !== "object" && typeof v !== "function") throw new TypeError(`${what} must be an object`);
  return v;
}

class TextEncoder {
  get encoding() { return "utf-8"; }
  encode(input = "") {
    return enc.encode(String(input));
  }
  encodeInto(source, destination) {
    if (!(destination instanceof Uint8Array)) {
      throw new TypeError("Failed to execute 'encodeInto' on 'TextEncoder': the destination must be a Uint8Array");
    }
    return enc.encodeInto(String(source), destination);
  }
}

class TextDecoder {
  #d;
  #encoding;
  #fatal;
  #ignoreBOM;
  constructor(label = "utf-8", opts = undefined) {
    const o = options(opts, "The options of TextDecoder");
    const name = enc.lookup(String(label));
    if (name === null) throw new RangeError(`Failed to construct 'TextDecoder': "${String(label)}" is not a valid encoding.`);
    this.#encoding = name;
    this.#fatal = !!o.fatal;
    this.#ignoreBOM = !!o.ignoreBOM;
    this.#d = enc.newDecoder(name, this.#fatal, this.#ignoreBOM);
  }
  get encoding() { return this.#encoding; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
  decode(input = undefined, opts = undefined) {
    const stream = opts === undefined || opts === null ? false : !!options(opts, "The options of decode").stream;
    return enc.decode(this.#d, input, stream);
  }
}

for (const C of [TextEncoder, TextDecoder]) {
  Object.defineProperty(C.prototype, Symbol.toStringTag, { value: C.name, configurable: true });
  internal.defineGlobal(C.name, C);
}

internal.defineGlobal("btoa", function btoa(data) {
  if (arguments.length === 0) throw new TypeError("Failed to execute 'btoa': 1 argument required, but only 0 present.");
  const out = enc.btoa(String(data));
  if (out === null) throw new DOMException("btoa() can only operate on characters in the Latin1 (ISO/IEC 8859-1) range.", "InvalidCharacterError");
  return out;
});

internal.defineGlobal("atob", function atob(data) {
  if (arguments.length === 0) throw new TypeError("Failed to execute 'atob': 1 argument required, but only 0 present.");
  const out = enc.atob(String(data));
  if (out === null) throw new DOMException("atob() called with invalid base64-encoded data. (Only whitespace, '+', '/', alphanumeric ASCII, and up to two terminal '=' signs when the input data length is divisible by 4 are allowed.)", "InvalidCharacterError");
  return out;
});

// The shared conversions; their contracts are in the package doc.
internal.utf8Encode = enc.encode;
internal.utf8Decode = enc.utf8Decode;
internal.base64Encode = enc.base64Encode;
internal.base64Decode = enc.base64Decode;
internal.hexEncode = enc.hexEncode;
internal.hexDecode = enc.hexDecode;
internal.latin1Encode = enc.latin1Encode;
internal.latin1Decode = enc.latin1Decode;
internal.utf16leEncode = enc.utf16leEncode;
internal.utf16leDecode = enc.utf16leDecode;
