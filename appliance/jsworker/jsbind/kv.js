// KVNamespace: Workers KV over the host's namespace.
const bind = host.bindings;
const kvTypes = new Set(["text", "json", "arrayBuffer", "stream"]);

function kvType(arg) {
  let type = "text";
  if (typeof arg === "string") type = arg;
  else if (arg && typeof arg === "object" && arg.type !== undefined) type = arg.type;
  if (!kvTypes.has(type)) throw new TypeError(`Unknown response type. Possible types are "text", "arrayBuffer", "json", and "stream".`);
  return type;
}
function kvValue(bytes, type) {
  switch (type) {
    case "text": return internal.utf8Decode(bytes);
    case "json": return JSON.parse(internal.utf8Decode(bytes));
    case "arrayBuffer": return bytes.byteLength === bytes.buffer.byteLength ? bytes.buffer : bytes.slice().buffer;
    default: return new Response(bytes).body;
  }
}

class KVNamespace {
  #ns;
  constructor(ns) {
    if (ns === undefined) throw new TypeError("Illegal constructor");
    this.#ns = ns;
  }
  async get(key, options) {
    const type = kvType(options);
    if (Array.isArray(key)) {
      const out = new Map();
      for (const k of key) out.set(k, null);
      for (const [k, v] of await bind.kvGetMany(this.#ns, key.map(String))) out.set(k, kvValue(v, type));
      return out;
    }
    const r = await bind.kvGet(this.#ns, String(key), false);
    return r === null ? null : kvValue(r[0], type);
  }
  async getWithMetadata(key, options) {
    const type = kvType(options);
    if (Array.isArray(key)) {
      const out = new Map();
      for (const k of key) out.set(k, null);
      for (const [k, v, md] of await bind.kvGetMany(this.#ns, key.map(String))) {
        out.set(k, { value: kvValue(v, type), metadata: md === null ? null : JSON.parse(md) });
      }
      return out;
    }
    const r = await bind.kvGet(this.#ns, String(key), true);
    if (r === null) return { value: null, metadata: null, cacheStatus: null };
    return { value: kvValue(r[0], type), metadata: r[1] === null ? null : JSON.parse(r[1]), cacheStatus: null };
  }
  async put(key, value, options = {}) {
    if (internal.isReadableStream && internal.isReadableStream(value)) value = await internal.readAllBytes(value);
    let metadata;
    if (options.metadata !== undefined) metadata = JSON.stringify(options.metadata);
    return bind.kvPut(this.#ns, String(key), value, options.expiration, options.expirationTtl, metadata);
  }
  delete(key) { return bind.kvDelete(this.#ns, String(key)); }
  async list(options = {}) {
    const text = await bind.kvList(this.#ns, options.prefix == null ? "" : String(options.prefix), options.limit || 0, options.cursor == null ? "" : String(options.cursor));
    const r = JSON.parse(text);
    r.cacheStatus = null;
    if (r.list_complete) delete r.cursor;
    return r;
  }
  get [Symbol.toStringTag]() { return "KvNamespace"; }
}
internal.kvNamespace = (ns) => new KVNamespace(ns);
