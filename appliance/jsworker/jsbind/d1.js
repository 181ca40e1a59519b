// D1Database, D1PreparedStatement and D1DatabaseSession over the host's
// D1 databases. Every query runs in Go (bind() converts the values once);
// results come back as columns and rows, shaped here as Cloudflare's
// d1-api.ts shapes them.
{
  const d1 = host.bindings;
  const FIRST_UNCONSTRAINED = "first-unconstrained";

  // d1Error is Cloudflare's error for a failed call: "<prefix>: <text>",
  // with the bare text as its cause.
  const d1Error = (e, prefix) => {
    const msg = e && typeof e === "object" && "message" in e ? e.message : String(e);
    return new Error(`${prefix}: ${msg}`, { cause: new Error(msg) });
  };
  const toObject = (cols, row) => Object.fromEntries(cols.map((c, k) => [c, row[k]]));
  const toResult = ([cols, rows, meta]) => ({ success: true, meta, results: rows.map((r) => toObject(cols, r)) });

  let paramsOf;

  class D1PreparedStatement {
    #target; #params;
    constructor(target, statement, values, params) {
      if (target === undefined) throw new TypeError("Illegal constructor");
      this.#target = target;
      this.#params = params === undefined ? null : params;
      this.statement = statement;
      this.params = values;
    }
    static { paramsOf = (s) => s.#params; }
    bind(...values) {
      let params;
      try {
        params = d1.d1Bind(...values);
      } catch (e) {
        throw d1Error(e, "D1_TYPE_ERROR");
      }
      return new D1PreparedStatement(this.#target, this.statement, values, params);
    }
    async first(colName) {
      const [[cols, rows]] = await run(this.#target, [this]);
      if (rows.length === 0) return null;
      const row = toObject(cols, rows[0]);
      if (colName === undefined) return row;
      if (row[colName] === undefined) {
        throw new Error(`D1_COLUMN_NOTFOUND: Column not found (${colName})`, { cause: new Error("Column not found") });
      }
      return row[colName];
    }
    async all() { return toResult((await run(this.#target, [this]))[0]); }
    // run is all: Cloudflare made them the same.
    async run() { return toResult((await run(this.#target, [this]))[0]); }
    async raw(options) {
      const [[cols, rows]] = await run(this.#target, [this]);
      return options && options.columnNames ? [cols, ...rows] : rows;
    }
    get [Symbol.toStringTag]() { return "D1PreparedStatement"; }
  }

  async function run(target, stmts) {
    for (const s of stmts) {
      if (!(s instanceof D1PreparedStatement)) throw new TypeError("batch() takes an array of D1PreparedStatement (from prepare()).");
    }
    try {
      return await d1.d1Run(target, stmts.map((s) => s.statement), stmts.map(paramsOf));
    } catch (e) {
      throw d1Error(e, "D1_ERROR");
    }
  }

  async function batch(target, statements) {
    if (!Array.isArray(statements)) throw new TypeError("batch() takes an array of D1PreparedStatement (from prepare()).");
    return (await run(target, statements)).map(toResult);
  }

  class D1DatabaseSession {
    #s;
    constructor(s) {
      if (s === undefined) throw new TypeError("Illegal constructor");
      this.#s = s;
    }
    prepare(query) { return new D1PreparedStatement(this.#s, String(query), []); }
    batch(statements) { return batch(this.#s, statements); }
    getBookmark() { return d1.d1Bookmark(this.#s); }
    get [Symbol.toStringTag]() { return "D1DatabaseSession"; }
  }

  class D1Database {
    #db;
    constructor(db) {
      if (db === undefined) throw new TypeError("Illegal constructor");
      this.#db = db;
    }
    prepare(query) { return new D1PreparedStatement(this.#db, String(query), []); }
    batch(statements) { return batch(this.#db, statements); }
    async exec(query) {
      try {
        const [count, duration] = await d1.d1Exec(this.#db, String(query));
        return { count, duration };
      } catch (e) {
        throw d1Error(e, "D1_EXEC_ERROR");
      }
    }
    withSession(constraintOrBookmark) {
      let c = constraintOrBookmark == null ? "" : String(constraintOrBookmark).trim();
      if (c === "") c = FIRST_UNCONSTRAINED;
      return new D1DatabaseSession(d1.d1Session(this.#db, c));
    }
    // dump is deprecated on Cloudflare and works only for its alpha
    // databases; dwk never had those.
    async dump() {
      throw new Error("D1_DUMP_ERROR: dump() is deprecated and dwk does not support it; copy the database with SQL instead (SELECT from each table)", { cause: new Error("dump() is not supported") });
    }
    get [Symbol.toStringTag]() { return "D1Database"; }
  }
  internal.d1Database = (db) => new D1Database(db);
}
