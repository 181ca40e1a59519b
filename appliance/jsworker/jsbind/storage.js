// DurableObjectStorage over an object's own SQLite database: the
// key-value API (values structured-cloned), SQL, alarms, transactions.
// Calls run synchronously underneath (the database is local to the
// replica that holds the object); the async API returns settled promises.
const MAX_KEYS = 128;

function checkKeys(keys) {
  if (keys.length > MAX_KEYS) throw new RangeError(`A storage operation takes at most ${MAX_KEYS} keys.`);
  return keys.map(String);
}
function listArgs(o = {}) {
  if (o.start !== undefined && o.startAfter !== undefined) throw new TypeError("list() takes start or startAfter, not both.");
  return [o.prefix == null ? "" : String(o.prefix), o.start == null ? "" : String(o.start), o.startAfter == null ? "" : String(o.startAfter),
    o.end == null ? "" : String(o.end), !!o.reverse, o.limit === undefined ? 0 : Number(o.limit)];
}
const encode = (v) => internal.serialize(v);
const decode = (t) => internal.deserialize(t);

// kvOps are the key-value calls over a handle (storage or transaction).
function kvGet(h, key) {
  if (Array.isArray(key)) {
    const out = new Map();
    for (const [k, t] of bind.stGetMany(h, checkKeys(key))) out.set(k, decode(t));
    return out;
  }
  const t = bind.stGet(h, String(key));
  return t === null ? undefined : decode(t);
}
function kvPut(h, key, value) {
  if (key !== null && typeof key === "object" && !Array.isArray(key)) {
    const entries = Object.entries(key);
    if (entries.length > MAX_KEYS) throw new RangeError(`put() takes at most ${MAX_KEYS} entries.`);
    bind.stPutMany(h, entries.map(([k, v]) => [k, encode(v)]));
    return;
  }
  if (value === undefined) throw new TypeError("put() needs a value (undefined cannot be stored).");
  bind.stPut(h, String(key), encode(value));
}
function kvDelete(h, key) {
  if (Array.isArray(key)) return bind.stDeleteMany(h, checkKeys(key));
  return bind.stDelete(h, String(key));
}
function kvList(h, options) {
  const out = new Map();
  for (const [k, t] of bind.stList(h, ...listArgs(options))) out.set(k, decode(t));
  return out;
}

class SqlStorageCursor {
  #cols; #rows; #i = 0; #read; #written;
  constructor(cols, rows, read, written) { this.#cols = cols; this.#rows = rows; this.#read = read; this.#written = written; }
  get columnNames() { return this.#cols.slice(); }
  get rowsRead() { return this.#read; }
  get rowsWritten() { return this.#written; }
  #object(r) { const o = {}; for (let k = 0; k < this.#cols.length; k++) o[this.#cols[k]] = r[k]; return o; }
  next() {
    if (this.#i >= this.#rows.length) return { done: true, value: undefined };
    return { done: false, value: this.#object(this.#rows[this.#i++]) };
  }
  toArray() { const out = []; while (this.#i < this.#rows.length) out.push(this.#object(this.#rows[this.#i++])); return out; }
  one() {
    if (this.#rows.length - this.#i !== 1) {
      throw new Error(this.#rows.length - this.#i === 0 ? "Expected exactly one result from SQL query, but got no results." : "Expected exactly one result from SQL query, but got multiple results.");
    }
    return this.#object(this.#rows[this.#i++]);
  }
  raw() {
    const self = this, rows = this.#rows;
    const it = {
      next: () => (self.#i >= rows.length ? { done: true, value: undefined } : { done: false, value: rows[self.#i++] }),
      toArray: () => { const out = rows.slice(self.#i); self.#i = rows.length; return out; },
      [Symbol.iterator]() { return it; },
    };
    return it;
  }
  [Symbol.iterator]() { return this; }
}

class SqlStorage {
  #h;
  constructor(h) { this.#h = h; }
  exec(query, ...bindings) {
    const [cols, rows, read, written] = bind.stExec(this.#h, String(query), ...bindings);
    return new SqlStorageCursor(cols, rows, read, written);
  }
  get databaseSize() { return bind.stSize(this.#h); }
  prepare() { throw new Error("sql.prepare() is not supported; use sql.exec()"); }
  ingest() { throw new Error("sql.ingest() is not supported on dwk"); }
}

class SyncKvStorage {
  #h;
  constructor(h) { this.#h = h; }
  get(key) { return kvGet(this.#h, key); }
  put(key, value) { kvPut(this.#h, key, value); }
  delete(key) { return kvDelete(this.#h, key); }
  list(options) { return kvList(this.#h, options).entries(); }
}

function alarmTime(t) {
  const ms = t instanceof Date ? t.getTime() : Number(t);
  if (!Number.isFinite(ms)) throw new TypeError("setAlarm() needs a Date or a number of milliseconds since the epoch.");
  return ms;
}

// A transaction of the async API: its writes are kept aside and applied
// at once, in one SQLite transaction, when its callback settles;
// rollback() drops them.
class DurableObjectTransaction {
  #h; #writes = new Map(); #rolledBack = false;
  constructor(h) { this.#h = h; }
  #read(key) { return this.#writes.has(key) ? this.#writes.get(key) : kvGet(this.#h, key); }
  async get(key) {
    if (Array.isArray(key)) {
      const out = new Map();
      for (const k of checkKeys(key)) { const v = this.#read(k); if (v !== undefined) out.set(k, v); }
      return out;
    }
    return this.#read(String(key));
  }
  async put(key, value) {
    if (key !== null && typeof key === "object" && !Array.isArray(key)) {
      for (const [k, v] of Object.entries(key)) this.#writes.set(k, structuredClone(v));
      return;
    }
    if (value === undefined) throw new TypeError("put() needs a value (undefined cannot be stored).");
    this.#writes.set(String(key), structuredClone(value));
  }
  async delete(key) {
    const keys = Array.isArray(key) ? checkKeys(key) : [String(key)];
    let n = 0;
    for (const k of keys) { if (this.#read(k) !== undefined) n++; this.#writes.set(k, undefined); }
    return Array.isArray(key) ? n : n === 1;
  }
  async list(options) {
    const base = kvList(this.#h, Object.assign({}, options, { limit: undefined }));
    for (const [k, v] of this.#writes) { if (v === undefined) base.delete(k); else base.set(k, v); }
    const [prefix, start, startAfter, end, reverse, limit] = listArgs(options);
    let keys = Array.from(base.keys()).filter((k) => k.startsWith(prefix) && (!start || k >= start) && (!startAfter || k > startAfter) && (!end || k < end)).sort();
    if (reverse) keys.reverse();
    if (limit > 0) keys = keys.slice(0, limit);
    const out = new Map();
    for (const k of keys) out.set(k, base.get(k));
    return out;
  }
  rollback() { this.#rolledBack = true; this.#writes.clear(); }
  async getAlarm() { return bind.stGetAlarm(this.#h); }
  async setAlarm(t) { bind.stSetAlarm(this.#h, alarmTime(t)); }
  async deleteAlarm() { bind.stDeleteAlarm(this.#h); }
  commit() {
    if (this.#rolledBack || this.#writes.size === 0) return;
    const writes = this.#writes;
    bind.stTransactionSync(this.#h, () => {
      const puts = [], dels = [];
      for (const [k, v] of writes) { if (v === undefined) dels.push(k); else puts.push([k, encode(v)]); }
      for (let i = 0; i < puts.length; i += MAX_KEYS) bind.stPutMany(this.#h, puts.slice(i, i + MAX_KEYS));
      for (let i = 0; i < dels.length; i += MAX_KEYS) bind.stDeleteMany(this.#h, dels.slice(i, i + MAX_KEYS));
    });
  }
}

class DurableObjectStorage {
  #h; #sql; #kv;
  constructor(h) {
    if (h === undefined) throw new TypeError("Illegal constructor");
    this.#h = h;
  }
  async get(key, options) { return kvGet(this.#h, key); }
  async put(key, value, options) { kvPut(this.#h, key, value); }
  async delete(key, options) { return kvDelete(this.#h, key); }
  async list(options) { return kvList(this.#h, options); }
  async deleteAll(options) { bind.stDeleteAll(this.#h); }
  async transaction(closure) {
    const txn = new DurableObjectTransaction(this.#h);
    const out = await closure(txn);
    txn.commit();
    return out;
  }
  transactionSync(fn) { return bind.stTransactionSync(this.#h, fn); }
  async getAlarm(options) { return bind.stGetAlarm(this.#h); }
  async setAlarm(t, options) { bind.stSetAlarm(this.#h, alarmTime(t)); }
  async deleteAlarm(options) { bind.stDeleteAlarm(this.#h); }
  async sync() {}
  get sql() { return this.#sql || (this.#sql = new SqlStorage(this.#h)); }
  get kv() { return this.#kv || (this.#kv = new SyncKvStorage(this.#h)); }
  getCurrentBookmark() { return Promise.reject(new Error("point-in-time recovery is not supported on dwk")); }
  getBookmarkForTime() { return Promise.reject(new Error("point-in-time recovery is not supported on dwk")); }
  onNextSessionRestoreBookmark() { return Promise.reject(new Error("point-in-time recovery is not supported on dwk")); }
  get [Symbol.toStringTag]() { return "DurableObjectStorage"; }
}
internal.objectStorage = (h) => new DurableObjectStorage(h);
