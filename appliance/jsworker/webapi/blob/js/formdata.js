// FormData: an ordered list of entries, each a name and a string or a
// File.

// formEntry makes the entry for append and set: a Blob becomes a File
// (named "blob", or filename), a File given a filename a new File of
// that name, anything else a string.
function formEntry(name, value, filename, argc, what) {
  if (argc < 2) throw new TypeError(`FormData.${what} needs a name and a value`);
  name = usv(str(name));
  if (isBlob(value)) {
    if (filename !== undefined) filename = usv(str(filename));
    if (isFile(value)) {
      if (filename === undefined) return [name, value];
      return [name, newFile(blobBytes(value), value.type, filename, value.lastModified)];
    }
    return [name, newFile(blobBytes(value), value.type, filename === undefined ? "blob" : filename, Date.now())];
  }
  if (argc > 2) throw new TypeError(`FormData.${what}: a value given with a filename must be a Blob or a File`);
  return [name, usv(str(value))];
}

function nameArg(args, what) {
  if (args.length < 1) throw new TypeError(`FormData.${what} needs a name`);
  return usv(str(args[0]));
}

let formList, setFormList;
class FormData {
  #list = [];
  constructor(form = undefined) {
    if (form !== undefined) throw new TypeError("FormData takes no form element here: construct it empty and append the entries");
  }
  static {
    formList = (f) => f.#list;
    setFormList = (f, list) => { f.#list = list; };
  }
  append(name, value, filename = undefined) {
    const list = this.#list;
    list.push(formEntry(name, value, filename, arguments.length, "append"));
  }
  delete(name) {
    const n = nameArg(arguments, "delete");
    this.#list = this.#list.filter((e) => e[0] !== n);
  }
  get(name) {
    const n = nameArg(arguments, "get");
    for (const e of this.#list) if (e[0] === n) return e[1];
    return null;
  }
  getAll(name) {
    const n = nameArg(arguments, "getAll");
    const out = [];
    for (const e of this.#list) if (e[0] === n) out.push(e[1]);
    return out;
  }
  has(name) {
    const n = nameArg(arguments, "has");
    return this.#list.some((e) => e[0] === n);
  }
  set(name, value, filename = undefined) {
    const entry = formEntry(name, value, filename, arguments.length, "set");
    const list = this.#list;
    const k = list.findIndex((e) => e[0] === entry[0]);
    if (k < 0) {
      list.push(entry);
      return;
    }
    list[k] = entry;
    this.#list = list.filter((e, i) => i <= k || e[0] !== entry[0]);
  }
  forEach(callback, thisArg = undefined) {
    if (typeof callback !== "function") throw new TypeError("FormData.forEach needs a function");
    for (let i = 0; i < this.#list.length; i++) {
      const e = this.#list[i];
      callback.call(thisArg, e[1], e[0], this);
    }
  }
  entries() { return new FormDataIterator(this, 2); }
  keys() { return new FormDataIterator(this, 0); }
  values() { return new FormDataIterator(this, 1); }
}
Object.defineProperty(FormData.prototype, Symbol.iterator, {
  value: FormData.prototype.entries, writable: true, configurable: true,
});
webidl(FormData);

// FormDataIterator is Web IDL's pair iterator: it walks the list as it
// is at each step.
class FormDataIterator {
  #fd;
  #kind; // 0 keys, 1 values, 2 entries
  #i = 0;
  constructor(fd, kind) {
    this.#fd = fd;
    this.#kind = kind;
  }
  next() {
    const list = formList(this.#fd);
    if (this.#i >= list.length) return { value: undefined, done: true };
    const e = list[this.#i++];
    const value = this.#kind === 0 ? e[0] : this.#kind === 1 ? e[1] : [e[0], e[1]];
    return { value, done: false };
  }
}
Object.setPrototypeOf(FormDataIterator.prototype, Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]())));
Object.defineProperty(FormDataIterator.prototype, Symbol.toStringTag, { value: "FormData Iterator", configurable: true });
