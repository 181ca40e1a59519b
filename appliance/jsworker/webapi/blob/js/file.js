// File: a Blob with a name and a modification time.

// toLongLong is Web IDL's long long conversion (without its modulo,
// which no real time needs).
function toLongLong(v) {
  const n = Math.trunc(Number(v));
  return Number.isFinite(n) ? n : 0;
}

let isFile;
class File extends Blob {
  #name;
  #lastModified;
  constructor(fileBits, fileName, options = undefined) {
    if (fileBits === INTERNAL) {
      super(INTERNAL, fileName, arguments[2]);
      this.#name = arguments[3];
      this.#lastModified = arguments[4];
      return;
    }
    if (arguments.length < 2) {
      throw new TypeError(`Failed to construct 'File': 2 arguments required, but only ${arguments.length} present.`);
    }
    const o = blobOptions(options, true);
    super(INTERNAL, partsBytes(fileBits, o.native), o.type);
    this.#name = usv(str(fileName));
    this.#lastModified = o.lastModified === undefined ? Date.now() : toLongLong(o.lastModified);
  }
  static { isFile = (x) => x !== null && typeof x === "object" && #name in x; }
  get name() { return this.#name; }
  get lastModified() { return this.#lastModified; }
}
webidl(File);

// newFile makes a File over bytes (not a copy).
function newFile(bytes, type, name, lastModified) {
  return new File(INTERNAL, bytes, type, name, lastModified);
}
