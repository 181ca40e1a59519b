// node:buffer — Buffer as a Uint8Array subclass, as in Node: the byte
// work (encodings, search, compare, fill) is native.
sharedValues.buffer = function makeBuffer() {
  const kMaxLength = 2 ** 53 - 1;
  const kStringMaxLength = 2 ** 29 - 24;

  class FastBuffer extends Uint8Array {}

  // Buffer(arg, encodingOrOffset, length) is the deprecated constructor;
  // with or without new it makes a FastBuffer, whose prototype is
  // Buffer.prototype.
  function Buffer(arg, encodingOrOffset, length) {
    if (typeof arg === "number") {
      if (typeof encodingOrOffset === "string") throw errInvalidArgType("string", "of type string", arg);
      return alloc(arg);
    }
    return from(arg, encodingOrOffset, length);
  }
  Object.defineProperty(Buffer, "prototype", { value: FastBuffer.prototype, writable: false });
  Object.defineProperty(FastBuffer.prototype, "constructor", { value: Buffer, writable: true, configurable: true });
  Object.defineProperty(Buffer, Symbol.species, { get() { return FastBuffer; }, configurable: true });
  Object.setPrototypeOf(Buffer, Uint8Array);
  const proto = FastBuffer.prototype;

  function unknownEncoding(enc) {
    return codedError(TypeError, "ERR_UNKNOWN_ENCODING", `Unknown encoding: ${enc}`);
  }
  function encodingOf(enc) {
    const e = normalizeEncoding(enc);
    if (e === undefined) {
      if (enc === "" || enc === null || enc === undefined) return "utf8";
      throw unknownEncoding(enc);
    }
    return e;
  }
  function checkSize(size) {
    if (typeof size !== "number") throw errInvalidArgType("size", "of type number", size);
    if (!(size >= 0 && size <= kMaxLength)) throw errOutOfRange("size", `>= 0 && <= ${kMaxLength}`, size);
  }
  function fromString(s, enc) {
    return new FastBuffer(native.encode(s, encodingOf(enc)));
  }

  function from(value, encodingOrOffset, length) {
    if (typeof value === "string") return fromString(value, encodingOrOffset);
    if (typeof value === "object" && value !== null) {
      if (value instanceof ArrayBuffer || (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer)) {
        return fromArrayBuffer(value, encodingOrOffset, length);
      }
      if (ArrayBuffer.isView(value)) {
        if (value instanceof DataView) return new FastBuffer(new Uint8Array(value.buffer, value.byteOffset, value.byteLength));
        return new FastBuffer(value);
      }
      const prim = value.valueOf && value.valueOf();
      if (prim != null && prim !== value && (typeof prim === "string" || typeof prim === "object")) return from(prim, encodingOrOffset, length);
      if (typeof value.length === "number" || Array.isArray(value)) return new FastBuffer(Array.prototype.slice.call(value));
      if (value.type === "Buffer" && Array.isArray(value.data)) return new FastBuffer(value.data);
      if (typeof value[Symbol.toPrimitive] === "function") {
        const p = value[Symbol.toPrimitive]("string");
        if (typeof p === "string") return fromString(p, encodingOrOffset);
      }
    }
    throw errInvalidArgType("first argument", "of type string or an instance of Buffer, ArrayBuffer, or Array or an Array-like Object", value);
  }
  function fromArrayBuffer(ab, byteOffset, length) {
    const offset = byteOffset === undefined ? 0 : +byteOffset || 0;
    const max = ab.byteLength - offset;
    if (max < 0) throw codedError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"offset" is outside of buffer bounds');
    let len = length === undefined ? max : +length || 0;
    if (len > 0 && len > max) throw codedError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", '"length" is outside of buffer bounds');
    if (len < 0) len = 0;
    return new FastBuffer(ab, offset, len);
  }
  function alloc(size, fill, encoding) {
    checkSize(size);
    const buf = new FastBuffer(size);
    if (fill !== undefined && fill !== 0 && size > 0) buf.fill(fill, 0, buf.length, encoding);
    return buf;
  }
  function allocUnsafe(size) {
    checkSize(size);
    return new FastBuffer(size);
  }

  Object.assign(Buffer, {
    poolSize: 8192,
    from,
    of: (...items) => new FastBuffer(items),
    alloc,
    allocUnsafe,
    allocUnsafeSlow: allocUnsafe,
    isBuffer: (b) => b instanceof Buffer,
    isEncoding: (e) => typeof e === "string" && e.length !== 0 && normalizeEncoding(e) !== undefined,
    byteLength(value, encoding) {
      if (typeof value === "string") return native.byteLength(value, encodingOf(encoding));
      if (ArrayBuffer.isView(value) || value instanceof ArrayBuffer) return value.byteLength;
      if (typeof SharedArrayBuffer === "function" && value instanceof SharedArrayBuffer) return value.byteLength;
      throw errInvalidArgType("string", "of type string or an instance of Buffer or ArrayBuffer", value);
    },
    compare(a, b) {
      if (!(a instanceof Uint8Array)) throw errInvalidArgType("buf1", "an instance of Buffer or Uint8Array", a);
      if (!(b instanceof Uint8Array)) throw errInvalidArgType("buf2", "an instance of Buffer or Uint8Array", b);
      return native.compare(a, b);
    },
    concat(list, totalLength) {
      if (!Array.isArray(list)) throw errInvalidArgType("list", "an instance of Array", list);
      if (list.length === 0) return new FastBuffer(0);
      if (totalLength === undefined) {
        totalLength = 0;
        for (let k = 0; k < list.length; k++) {
          if (!(list[k] instanceof Uint8Array)) throw errInvalidArgType(`list[${k}]`, "an instance of Buffer or Uint8Array", list[k]);
          totalLength += list[k].length;
        }
      } else {
        validateInteger(totalLength, "length", 0);
      }
      const out = new FastBuffer(totalLength);
      let pos = 0;
      for (let k = 0; k < list.length && pos < totalLength; k++) {
        const b = list[k];
        if (!(b instanceof Uint8Array)) throw errInvalidArgType(`list[${k}]`, "an instance of Buffer or Uint8Array", b);
        const n = Math.min(b.length, totalLength - pos);
        out.set(n === b.length ? b : b.subarray(0, n), pos);
        pos += n;
      }
      return out;
    },
    copyBytesFrom(view, offset = 0, length) {
      if (!ArrayBuffer.isView(view) || view instanceof DataView) throw errInvalidArgType("view", "an instance of TypedArray", view);
      const end = length === undefined ? view.length : Math.min(view.length, offset + length);
      const part = view.subarray(Math.min(offset, view.length), end);
      return new FastBuffer(new Uint8Array(part.buffer, part.byteOffset, part.byteLength).slice());
    },
  });

  // ---- strings in and out.
  function clampEnd(v, len) {
    if (v === undefined || v > len) return len;
    v = +v || 0;
    return v < 0 ? 0 : Math.trunc(v);
  }
  proto.toString = function toString(encoding, start, end) {
    if (arguments.length === 0) return native.decode(this, "utf8");
    const len = this.length;
    start = start === undefined || start <= 0 ? 0 : Math.trunc(+start) || 0;
    if (start >= len) return "";
    end = clampEnd(end, len);
    if (end <= start) return "";
    return native.decode(this, encodingOf(encoding), start, end);
  };
  proto.toLocaleString = proto.toString;
  proto.write = function write(string, offset, length, encoding) {
    validateString(string, "string");
    if (offset === undefined) return native.write(this, string, 0, this.length, "utf8");
    if (length === undefined && typeof offset === "string") return native.write(this, string, 0, this.length, encodingOf(offset));
    validateInteger(offset, "offset", 0, this.length);
    const remaining = this.length - offset;
    if (length === undefined) length = remaining;
    else if (typeof length === "string") { encoding = length; length = remaining; }
    else { validateInteger(length, "length", 0, this.length); if (length > remaining) length = remaining; }
    return native.write(this, string, offset, length, encodingOf(encoding));
  };
  for (const [name, enc] of [["utf8", "utf8"], ["ucs2", "utf16le"], ["utf16le", "utf16le"], ["latin1", "latin1"], ["ascii", "ascii"], ["hex", "hex"], ["base64", "base64"], ["base64url", "base64url"]]) {
    proto[name + "Slice"] = function (start = 0, end = this.length) {
      return native.decode(this, enc, start, end);
    };
    proto[name + "Write"] = function (string, offset = 0, length = this.length - offset) {
      return native.write(this, string, offset, length, enc);
    };
  }
  proto.toJSON = function toJSON() {
    return { type: "Buffer", data: Array.from(this) };
  };

  // ---- comparing, copying, filling, searching.
  proto.equals = function equals(other) {
    if (!(other instanceof Uint8Array)) throw errInvalidArgType("otherBuffer", "an instance of Buffer or Uint8Array", other);
    if (this === other) return true;
    return this.byteLength === other.byteLength && native.compare(this, other) === 0;
  };
  proto.compare = function compare(target, targetStart = 0, targetEnd = target && target.length, sourceStart = 0, sourceEnd = this.length) {
    if (!(target instanceof Uint8Array)) throw errInvalidArgType("target", "an instance of Buffer or Uint8Array", target);
    validateInteger(targetStart, "targetStart", 0);
    validateInteger(targetEnd, "targetEnd", 0, target.length);
    validateInteger(sourceStart, "sourceStart", 0);
    validateInteger(sourceEnd, "sourceEnd", 0, this.length);
    if (sourceStart >= sourceEnd) return targetStart >= targetEnd ? 0 : -1;
    if (targetStart >= targetEnd) return 1;
    return native.compare(this.subarray(sourceStart, sourceEnd), target.subarray(targetStart, targetEnd));
  };
  proto.copy = function copy(target, targetStart = 0, sourceStart = 0, sourceEnd = this.length) {
    if (!ArrayBuffer.isView(target)) throw errInvalidArgType("target", "an instance of Buffer or Uint8Array", target);
    targetStart = Math.trunc(+targetStart) || 0;
    sourceStart = Math.trunc(+sourceStart) || 0;
    sourceEnd = Math.min(Math.trunc(+sourceEnd) || 0, this.length);
    if (targetStart < 0) throw errOutOfRange("targetStart", ">= 0", targetStart);
    if (sourceStart < 0 || sourceStart > this.length) throw errOutOfRange("sourceStart", `>= 0 && <= ${this.length}`, sourceStart);
    const dst = target instanceof Uint8Array ? target : new Uint8Array(target.buffer, target.byteOffset, target.byteLength);
    const n = Math.min(sourceEnd - sourceStart, dst.length - targetStart);
    if (n <= 0) return 0;
    dst.set(new Uint8Array(this.buffer, this.byteOffset + sourceStart, n), targetStart);
    return n;
  };
  const u8fill = Uint8Array.prototype.fill;
  proto.fill = function fill(value, offset, end, encoding) {
    if (typeof offset === "string") { encoding = offset; offset = 0; end = this.length; }
    else if (typeof end === "string") { encoding = end; end = this.length; }
    offset = offset === undefined ? 0 : offset;
    end = end === undefined ? this.length : end;
    validateInteger(offset, "offset", 0);
    validateInteger(end, "end", 0, this.length);
    if (offset >= end) return this;
    if (typeof value === "number") return u8fill.call(this, value & 255, offset, end);
    if (typeof value === "boolean") return u8fill.call(this, +value, offset, end);
    if (typeof value === "string") {
      const enc = encodingOf(encoding);
      if (value.length === 0) return u8fill.call(this, 0, offset, end);
      if (value.length === 1 && (enc === "utf8" || enc === "latin1") && value.charCodeAt(0) < 128) {
        return u8fill.call(this, value.charCodeAt(0), offset, end);
      }
      const bytes = new Uint8Array(native.encode(value, enc));
      if (bytes.length === 0) throw errInvalidArgValue("value", value);
      native.fill(this, bytes, offset, end);
      return this;
    }
    if (ArrayBuffer.isView(value)) {
      if (value.byteLength === 0) throw errInvalidArgValue("value", value);
      native.fill(this, value, offset, end);
      return this;
    }
    return u8fill.call(this, +value & 255, offset, end);
  };
  const u8indexOf = Uint8Array.prototype.indexOf;
  const u8lastIndexOf = Uint8Array.prototype.lastIndexOf;
  function indexOf(buf, value, byteOffset, encoding, forward) {
    if (typeof byteOffset === "string") { encoding = byteOffset; byteOffset = undefined; }
    const len = buf.length;
    byteOffset = byteOffset === undefined || byteOffset === null ? NaN : +byteOffset;
    if (Number.isNaN(byteOffset)) byteOffset = forward ? 0 : len;
    byteOffset = Math.trunc(byteOffset);
    if (byteOffset < 0) byteOffset += len;
    if (byteOffset < 0) {
      if (!forward) return -1;
      byteOffset = 0;
    }
    if (typeof value === "number") {
      if (forward) return byteOffset >= len ? -1 : u8indexOf.call(buf, (value >>> 0) & 255, byteOffset);
      return u8lastIndexOf.call(buf, (value >>> 0) & 255, Math.min(byteOffset, len - 1));
    }
    let needle;
    if (typeof value === "string") needle = new Uint8Array(native.encode(value, encodingOf(encoding)));
    else if (value instanceof Uint8Array) needle = value;
    else if (ArrayBuffer.isView(value)) needle = new Uint8Array(value.buffer, value.byteOffset, value.byteLength);
    else throw errInvalidArgType("value", "one of type number or string or an instance of Buffer or Uint8Array", value);
    if (needle.length === 0) return Math.min(byteOffset, len);
    if (forward && byteOffset >= len) return -1;
    return native.indexOf(buf, needle, Math.min(byteOffset, len), !forward);
  }
  proto.indexOf = function (value, byteOffset, encoding) { return indexOf(this, value, byteOffset, encoding, true); };
  proto.lastIndexOf = function (value, byteOffset, encoding) { return indexOf(this, value, byteOffset, encoding, false); };
  proto.includes = function (value, byteOffset, encoding) { return indexOf(this, value, byteOffset, encoding, true) !== -1; };

  // slice shares memory, as subarray does (Node's, not TypedArray's).
  function adjust(v, len) {
    v = Math.trunc(+v) || 0;
    if (v < 0) return Math.max(v + len, 0);
    return Math.min(v, len);
  }
  proto.slice = function slice(start, end) {
    const len = this.length;
    const s = start === undefined ? 0 : adjust(start, len);
    const e = end === undefined ? len : adjust(end, len);
    return new FastBuffer(this.buffer, this.byteOffset + s, Math.max(e - s, 0));
  };
  Object.defineProperty(proto, "parent", { get() { return this.buffer; }, configurable: true });
  Object.defineProperty(proto, "offset", { get() { return this.byteOffset; }, configurable: true });

  function swapper(size) {
    return function () {
      const len = this.length;
      if (len % size !== 0) throw codedError(RangeError, "ERR_INVALID_BUFFER_SIZE", `Buffer size must be a multiple of ${size * 8}-bits`);
      for (let k = 0; k < len; k += size) {
        for (let i = 0, j = size - 1; i < j; i++, j--) {
          const t = this[k + i]; this[k + i] = this[k + j]; this[k + j] = t;
        }
      }
      return this;
    };
  }
  proto.swap16 = swapper(2);
  proto.swap32 = swapper(4);
  proto.swap64 = swapper(8);

  installReadWrite(proto);

  const customInspect = Symbol.for("nodejs.util.inspect.custom");
  proto[customInspect] = function inspectBuffer() {
    const max = exports.INSPECT_MAX_BYTES;
    let s = native.decode(this, "hex", 0, Math.min(max, this.length)).replace(/(.{2})(?!$)/g, "$1 ");
    if (this.length > max) s += ` ... ${this.length - max} more byte${this.length - max > 1 ? "s" : ""}`;
    return `<${this.constructor.name}${s ? " " + s : ""}>`;
  };

  function SlowBuffer(size) { return allocUnsafe(size); }
  function viewOf(input, name) {
    if (input instanceof ArrayBuffer) return new Uint8Array(input);
    if (ArrayBuffer.isView(input)) return input;
    throw errInvalidArgType(name, "an instance of ArrayBuffer, Buffer, or TypedArray", input);
  }
  const exports = {
    Buffer,
    SlowBuffer,
    kMaxLength,
    kStringMaxLength,
    constants: Object.freeze({ MAX_LENGTH: kMaxLength, MAX_STRING_LENGTH: kStringMaxLength }),
    INSPECT_MAX_BYTES: 50,
    isUtf8: (input) => native.isUtf8(viewOf(input, "input")),
    isAscii: (input) => native.isAscii(viewOf(input, "input")),
    transcode(source, fromEnc, toEnc) {
      if (!(source instanceof Uint8Array)) throw errInvalidArgType("source", "an instance of Buffer or Uint8Array", source);
      return fromString(native.decode(source, encodingOf(fromEnc)), encodingOf(toEnc));
    },
    resolveObjectURL: () => undefined,
    get atob() { return global.atob; },
    get btoa() { return global.btoa; },
    get Blob() { return global.Blob; },
    get File() { return global.File; },
  };
  return { exports, Buffer, FastBuffer };
};
modules["node:buffer"] = () => shared("buffer").exports;

// installReadWrite adds the read and write methods for integers and
// floats, with Node's bounds and range checks. As in Node, the common
// widths are written out and check bounds by reading the end bytes (an
// index past the end reads undefined): function calls and the length
// getter cost a lot in goja.
function installReadWrite(proto) {
  // offsetError is the error for an offset that is not a number, not an
  // integer, or out of bounds for n bytes.
  function offsetError(buf, offset, n) {
    if (typeof offset !== "number") return errInvalidArgType("offset", "of type number", offset);
    if (!Number.isInteger(offset)) return errOutOfRange("offset", "an integer", offset);
    if (buf.length - n < 0) return codedError(RangeError, "ERR_BUFFER_OUT_OF_BOUNDS", "Attempt to access memory outside buffer bounds");
    return errOutOfRange("offset", `>= 0 and <= ${buf.length - n}`, offset);
  }
  function at(buf, offset, n) {
    if (typeof offset !== "number" || buf[offset] === undefined || buf[offset + n - 1] === undefined) throw offsetError(buf, offset, n);
    return offset;
  }
  function valueError(value, min, max, n) {
    let range = `>= ${min} and <= ${max}`;
    if (n > 4) {
      const bits = 8 * n;
      range = min === 0 ? `>= 0 and < 2 ** ${bits}` : `>= -(2 ** ${bits - 1}) and < 2 ** ${bits - 1}`;
    }
    return errOutOfRange("value", range, value);
  }
  const defs = {
    readUInt8(offset = 0) {
      const v = this[offset];
      if (v === undefined || typeof offset !== "number") throw offsetError(this, offset, 1);
      return v;
    },
    readInt8(offset = 0) {
      const v = this[offset];
      if (v === undefined || typeof offset !== "number") throw offsetError(this, offset, 1);
      return (v << 24) >> 24;
    },
    readUInt16LE(offset = 0) {
      const a = this[offset], b = this[offset + 1];
      if (a === undefined || b === undefined || typeof offset !== "number") throw offsetError(this, offset, 2);
      return a + b * 0x100;
    },
    readUInt16BE(offset = 0) {
      const a = this[offset], b = this[offset + 1];
      if (a === undefined || b === undefined || typeof offset !== "number") throw offsetError(this, offset, 2);
      return a * 0x100 + b;
    },
    readInt16LE(offset = 0) {
      const a = this[offset], b = this[offset + 1];
      if (a === undefined || b === undefined || typeof offset !== "number") throw offsetError(this, offset, 2);
      return ((a | (b << 8)) << 16) >> 16;
    },
    readInt16BE(offset = 0) {
      const a = this[offset], b = this[offset + 1];
      if (a === undefined || b === undefined || typeof offset !== "number") throw offsetError(this, offset, 2);
      return (((a << 8) | b) << 16) >> 16;
    },
    readUInt32LE(offset = 0) {
      const a = this[offset], d = this[offset + 3];
      if (a === undefined || d === undefined || typeof offset !== "number") throw offsetError(this, offset, 4);
      return a + this[offset + 1] * 0x100 + this[offset + 2] * 0x10000 + d * 0x1000000;
    },
    readUInt32BE(offset = 0) {
      const a = this[offset], d = this[offset + 3];
      if (a === undefined || d === undefined || typeof offset !== "number") throw offsetError(this, offset, 4);
      return a * 0x1000000 + this[offset + 1] * 0x10000 + this[offset + 2] * 0x100 + d;
    },
    readInt32LE(offset = 0) {
      const a = this[offset], d = this[offset + 3];
      if (a === undefined || d === undefined || typeof offset !== "number") throw offsetError(this, offset, 4);
      return a | (this[offset + 1] << 8) | (this[offset + 2] << 16) | (d << 24);
    },
    readInt32BE(offset = 0) {
      const a = this[offset], d = this[offset + 3];
      if (a === undefined || d === undefined || typeof offset !== "number") throw offsetError(this, offset, 4);
      return (a << 24) | (this[offset + 1] << 16) | (this[offset + 2] << 8) | d;
    },
    writeUInt8(value, offset = 0) {
      value = +value;
      if (!(value >= 0 && value <= 0xff)) throw valueError(value, 0, 0xff, 1);
      at(this, offset, 1);
      this[offset] = value;
      return offset + 1;
    },
    writeInt8(value, offset = 0) {
      value = +value;
      if (!(value >= -0x80 && value <= 0x7f)) throw valueError(value, -0x80, 0x7f, 1);
      at(this, offset, 1);
      this[offset] = value;
      return offset + 1;
    },
  };
  function write16(min, max, le) {
    return function (value, offset = 0) {
      value = +value;
      if (!(value >= min && value <= max)) throw valueError(value, min, max, 2);
      at(this, offset, 2);
      this[offset + (le ? 0 : 1)] = value;
      this[offset + (le ? 1 : 0)] = value >>> 8;
      return offset + 2;
    };
  }
  function write32(min, max, le) {
    return function (value, offset = 0) {
      value = +value;
      if (!(value >= min && value <= max)) throw valueError(value, min, max, 4);
      at(this, offset, 4);
      if (le) {
        this[offset] = value;
        this[offset + 1] = value >>> 8;
        this[offset + 2] = value >>> 16;
        this[offset + 3] = value >>> 24;
      } else {
        this[offset] = value >>> 24;
        this[offset + 1] = value >>> 16;
        this[offset + 2] = value >>> 8;
        this[offset + 3] = value;
      }
      return offset + 4;
    };
  }
  defs.writeUInt16LE = write16(0, 0xffff, true);
  defs.writeUInt16BE = write16(0, 0xffff, false);
  defs.writeInt16LE = write16(-0x8000, 0x7fff, true);
  defs.writeInt16BE = write16(-0x8000, 0x7fff, false);
  defs.writeUInt32LE = write32(0, 0xffffffff, true);
  defs.writeUInt32BE = write32(0, 0xffffffff, false);
  defs.writeInt32LE = write32(-0x80000000, 0x7fffffff, true);
  defs.writeInt32BE = write32(-0x80000000, 0x7fffffff, false);

  // Widths of 1 to 6 bytes.
  function checkByteLength(n) {
    validateInteger(n, "byteLength", 1, 6);
  }
  function readLE(buf, o, n) {
    let v = 0, mul = 1;
    for (let k = 0; k < n; k++, mul *= 256) v += buf[o + k] * mul;
    return v;
  }
  function readBE(buf, o, n) {
    let v = 0;
    for (let k = 0; k < n; k++) v = v * 256 + buf[o + k];
    return v;
  }
  function signed(v, n) {
    const limit = 2 ** (8 * n - 1);
    return v >= limit ? v - 2 * limit : v;
  }
  function writeLE(buf, o, n, v) {
    for (let k = 0; k < n; k++) { buf[o + k] = v % 256; v = Math.floor(v / 256); }
    return o + n;
  }
  function writeBE(buf, o, n, v) {
    for (let k = n - 1; k >= 0; k--) { buf[o + k] = v % 256; v = Math.floor(v / 256); }
    return o + n;
  }
  for (const end of ["LE", "BE"]) {
    const le = end === "LE";
    const read = le ? readLE : readBE;
    const write = le ? writeLE : writeBE;
    defs[`readUInt${end}`] = function (offset, byteLength) {
      checkByteLength(byteLength);
      return read(this, at(this, offset, byteLength), byteLength);
    };
    defs[`readInt${end}`] = function (offset, byteLength) {
      checkByteLength(byteLength);
      return signed(read(this, at(this, offset, byteLength), byteLength), byteLength);
    };
    defs[`writeUInt${end}`] = function (value, offset, byteLength) {
      checkByteLength(byteLength);
      const max = 2 ** (8 * byteLength) - 1;
      value = +value;
      if (!(value >= 0 && value <= max)) throw valueError(value, 0, max, byteLength);
      return write(this, at(this, offset, byteLength), byteLength, Math.trunc(value));
    };
    defs[`writeInt${end}`] = function (value, offset, byteLength) {
      checkByteLength(byteLength);
      const half = 2 ** (8 * byteLength - 1);
      value = +value;
      if (!(value >= -half && value <= half - 1)) throw valueError(value, -half, half - 1, byteLength);
      value = Math.trunc(value);
      return write(this, at(this, offset, byteLength), byteLength, value < 0 ? value + 2 * half : value);
    };

    // 64-bit integers as BigInt.
    defs[`readBigUInt64${end}`] = function (offset = 0) {
      const o = at(this, offset, 8);
      const lo = le ? readLE(this, o, 4) : readBE(this, o + 4, 4);
      const hi = le ? readLE(this, o + 4, 4) : readBE(this, o, 4);
      return (BigInt(hi) << 32n) + BigInt(lo);
    };
    defs[`readBigInt64${end}`] = function (offset = 0) {
      return BigInt.asIntN(64, defs[`readBigUInt64${end}`].call(this, offset));
    };
    const writeBig = (min, max, range) => function (value, offset = 0) {
      if (typeof value !== "bigint") throw errInvalidArgType("value", "of type bigint", value);
      if (value < min || value > max) throw errOutOfRange("value", range, value);
      const o = at(this, offset, 8);
      const u = BigInt.asUintN(64, value);
      const lo = Number(u & 0xffffffffn), hi = Number(u >> 32n);
      if (le) {
        writeLE(this, o, 4, lo);
        writeLE(this, o + 4, 4, hi);
      } else {
        writeBE(this, o, 4, hi);
        writeBE(this, o + 4, 4, lo);
      }
      return o + 8;
    };
    defs[`writeBigUInt64${end}`] = writeBig(0n, 2n ** 64n - 1n, ">= 0n and < 2n ** 64n");
    defs[`writeBigInt64${end}`] = writeBig(-(2n ** 63n), 2n ** 63n - 1n, ">= -(2n ** 63n) and < 2n ** 63n");

    // Floats through a scratch array in the machine's byte order.
    for (const [name, n, Float] of [["Float", 4, Float32Array], ["Double", 8, Float64Array]]) {
      const f = new Float(1);
      const bytes = new Uint8Array(f.buffer);
      const bigEndianMachine = new Uint8Array(new Uint16Array([1]).buffer)[0] === 0;
      const reverse = le === bigEndianMachine;
      defs[`read${name}${end}`] = function (offset = 0) {
        const o = at(this, offset, n);
        for (let k = 0; k < n; k++) bytes[reverse ? n - 1 - k : k] = this[o + k];
        return f[0];
      };
      defs[`write${name}${end}`] = function (value, offset = 0) {
        const o = at(this, offset, n);
        f[0] = +value;
        for (let k = 0; k < n; k++) this[o + k] = bytes[reverse ? n - 1 - k : k];
        return o + n;
      };
    }
  }
  for (const [name, fn] of Object.entries(defs)) {
    proto[name] = fn;
    if (name.includes("UInt")) proto[name.replace("UInt", "Uint")] = fn;
  }
}
