// node:string_decoder — decodes a byte stream into strings without
// splitting characters across chunks.
sharedValues.stringDecoder = function makeStringDecoder() {
  const { Buffer } = shared("buffer");
  const empty = new Uint8Array(0);

  // incompleteUTF8 returns how many bytes at the end of b start a UTF-8
  // sequence that the next chunk may complete.
  function incompleteUTF8(b) {
    for (let k = b.length - 1, seen = 1; k >= 0 && seen <= 3; k--, seen++) {
      const c = b[k];
      if (c < 0x80) return 0;
      if (c >= 0xc0) {
        if (c < 0xc2 || c > 0xf4) return 0; // never a lead byte
        const need = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : 2;
        return seen < need ? seen : 0;
      }
    }
    return 0;
  }

  function StringDecoder(encoding) {
    const enc = normalizeEncoding(encoding);
    if (enc === undefined) throw codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${encoding}`);
    this.encoding = enc;
    this.pending = empty;
  }
  function bytes(buf) {
    if (buf instanceof Uint8Array) return buf;
    if (ArrayBuffer.isView(buf)) return new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
    throw errInvalidArgType("buf", "an instance of Buffer, TypedArray, or DataView", buf);
  }
  StringDecoder.prototype.write = function write(buf) {
    if (typeof buf === "string") return buf;
    let data = bytes(buf);
    if (this.pending.length) data = Buffer.concat([this.pending, data]);
    let keep = 0;
    switch (this.encoding) {
      case "utf8":
        keep = incompleteUTF8(data);
        break;
      case "utf16le": {
        keep = data.length % 2;
        const even = data.length - keep;
        if (even >= 2) {
          const last = data[even - 2] | (data[even - 1] << 8);
          if (last >= 0xd800 && last <= 0xdbff) keep += 2;
        }
        break;
      }
      case "base64":
      case "base64url":
        keep = data.length % 3;
        break;
    }
    const end = data.length - keep;
    this.pending = keep ? Uint8Array.prototype.slice.call(data, end) : empty;
    return end > 0 ? native.decode(data, this.encoding, 0, end) : "";
  };
  StringDecoder.prototype.end = function end(buf) {
    let out = buf === undefined ? "" : this.write(buf);
    if (this.pending.length) {
      const rest = this.encoding === "utf16le" ? this.pending.subarray(0, this.pending.length & ~1) : this.pending;
      out += native.decode(rest, this.encoding, 0, rest.length);
      this.pending = empty;
    }
    return out;
  };
  StringDecoder.prototype.text = function text(buf, offset) {
    this.pending = empty;
    return this.write(bytes(buf).subarray(offset));
  };
  Object.defineProperty(StringDecoder.prototype, "lastNeed", {
    get() { return this.pending.length ? (this.encoding === "utf8" ? (this.pending[0] >= 0xf0 ? 4 : this.pending[0] >= 0xe0 ? 3 : 2) - this.pending.length : 1) : 0; },
  });
  return StringDecoder;
};
modules["node:string_decoder"] = () => ({ StringDecoder: shared("stringDecoder") });
