// TextEncoderStream and TextDecoderStream.

const REPLACEMENT_UTF8 = [0xef, 0xbf, 0xbd];

class TextEncoderStream extends TransformStream {
  constructor() {
    // A high surrogate that ends a chunk waits for the next one.
    let pending = "";
    const ts = newTransform((chunk, c) => {
      if (typeof chunk === "symbol") throw new TypeError("TextEncoderStream cannot encode a Symbol");
      let s = String(chunk);
      if (pending !== "") {
        s = pending + s;
        pending = "";
      }
      const n = s.length;
      if (n > 0) {
        const last = s.charCodeAt(n - 1);
        if (last >= 0xd800 && last <= 0xdbff) {
          pending = s[n - 1];
          s = s.slice(0, n - 1);
        }
      }
      if (s.length > 0) tcEnqueue(c, utf8Encode(s));
    }, (c) => {
      if (pending !== "") tcEnqueue(c, new Uint8Array(REPLACEMENT_UTF8));
    }, undefined, true);
    super(INTERNAL, ts);
  }
  get encoding() { return "utf-8"; }
}
webidl(TextEncoderStream, "TextEncoderStream");

// The labels of UTF-8, for when the encoding extension (TextDecoder) is
// not there.
const utf8Labels = ["unicode-1-1-utf-8", "unicode11utf8", "unicode20utf8", "utf-8", "utf8", "x-unicode20utf8"];
const STREAM = { stream: true };

class TextDecoderStream extends TransformStream {
  #encoding;
  #fatal;
  #ignoreBOM;
  constructor(label = "utf-8", options = undefined) {
    label = String(label);
    const d = dict(options, "TextDecoderStream's options");
    const fatal = !!member(d, "fatal");
    const ignoreBOM = !!member(d, "ignoreBOM");
    let decode, end, encoding;
    const TD = global.TextDecoder;
    if (typeof TD === "function") {
      const dec = new TD(label, { fatal, ignoreBOM });
      encoding = dec.encoding;
      decode = (u8) => dec.decode(u8, STREAM);
      end = () => dec.decode();
    } else {
      if (!utf8Labels.includes(label.trim().toLowerCase())) throw new RangeError(`The encoding label provided ('${label}') is invalid.`);
      encoding = "utf-8";
      const h = natives.newDecoder(fatal, ignoreBOM);
      decode = (u8) => natives.decode(h, u8, false);
      end = () => natives.decode(h, undefined, true);
    }
    const ts = newTransform((chunk, c) => {
      const u8 = asU8(chunk);
      if (u8 === undefined) throw new TypeError("TextDecoderStream's chunks must be ArrayBuffers or ArrayBufferViews");
      const s = decode(u8);
      if (s.length > 0) tcEnqueue(c, s);
    }, (c) => {
      const s = end();
      if (s.length > 0) tcEnqueue(c, s);
    });
    super(INTERNAL, ts);
    this.#encoding = encoding;
    this.#fatal = fatal;
    this.#ignoreBOM = ignoreBOM;
  }
  get encoding() { return this.#encoding; }
  get fatal() { return this.#fatal; }
  get ignoreBOM() { return this.#ignoreBOM; }
}
webidl(TextDecoderStream, "TextDecoderStream");
