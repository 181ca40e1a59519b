// Conformance cases for a libSQL server through the official @libsql/client,
// over http:// and ws://. ../node_test.go starts the server and passes:
//
//   LIBSQL_URL          user API base URL (http://host:port)
//   LIBSQL_AUTH_TOKEN   token for every client (optional)
//   LIBSQL_ADMIN_URL    admin API base URL (optional: namespace cases skip)
//   LIBSQL_ADMIN_KEY    admin key (optional)
//   LIBSQL_JWT_URL      a server that checks JWTs (optional: JWT cases skip)
//   LIBSQL_JWT_RW, LIBSQL_JWT_RO, LIBSQL_JWT_EXPIRED  tokens for it
//
// Run: node --test conformance.test.mjs
import { describe, test, before, after } from "node:test";
import assert from "node:assert/strict";
import dns from "node:dns";
import { createClient } from "@libsql/client";
import * as hrana from "@libsql/hrana-client";

// "<name>.localhost" resolves to the loopback address, as RFC 6761 asks and
// browsers do, but glibc does not. Patching dns.lookup reaches both fetch
// (HTTP) and the ws package (WebSocket), so namespaces can be addressed by
// Host exactly as on a real deployment.
const originalLookup = dns.lookup;
dns.lookup = function (host, options, callback) {
  if (typeof host === "string" && host.endsWith(".localhost")) {
    host = "localhost";
  }
  return originalLookup.call(this, host, options, callback);
};

const env = process.env;
const baseURL = must("LIBSQL_URL");
const authToken = env.LIBSQL_AUTH_TOKEN || undefined;
const port = new URL(baseURL).port;

function must(name) {
  const v = env[name];
  if (!v) throw new Error(`${name} is not set; run this through node_test.go`);
  return v;
}

function withScheme(url, scheme) {
  const u = new URL(url);
  u.protocol = scheme + ":";
  return u.toString().replace(/\/$/, "");
}

const unique = (prefix) => `${prefix}_${Date.now()}_${Math.floor(Math.random() * 1e6)}`;

const clients = [];
function open(url, extra = {}) {
  const c = createClient({ url, authToken, intMode: "bigint", ...extra });
  clients.push(c);
  return c;
}
after(() => clients.forEach((c) => c.close()));

async function count(client, table) {
  const rs = await client.execute(`SELECT count(*) AS n FROM ${table}`);
  return rs.rows[0].n;
}

async function admin(method, path, body) {
  const url = env.LIBSQL_ADMIN_URL;
  const headers = { "content-type": "application/json" };
  if (env.LIBSQL_ADMIN_KEY) headers.authorization = `Basic ${env.LIBSQL_ADMIN_KEY}`;
  const resp = await fetch(url + path, { method, headers, body });
  return { status: resp.status, text: await resp.text() };
}

for (const scheme of ["http", "ws"]) {
  const url = withScheme(baseURL, scheme);

  describe(`@libsql/client over ${scheme}`, () => {
    let db;
    before(() => {
      db = open(url);
    });

    test("type round trips", async () => {
      const table = unique("types_" + scheme);
      await db.execute(`CREATE TABLE ${table} (id INTEGER PRIMARY KEY, v)`);
      const bytes = new Uint8Array(256).map((_, i) => i);
      const values = [
        [9223372036854775807n, "integer"],
        [-9223372036854775808n, "integer"],
        [0n, "integer"],
        [9007199254740993n, "integer"],
        [0.1, "real"],
        [-1e300, "real"],
        [1.5e-7, "real"],
        ["", "text"],
        ["héllo wörld ✓ 日本語 🎉", "text"],
        ["quote \" backslash \\ newline \n nul \u0000 end", "text"],
        [bytes, "blob"],
        [new Uint8Array(0), "blob"],
        [null, "null"],
      ];
      for (const [i, [v]] of values.entries()) {
        await db.execute({ sql: `INSERT INTO ${table} VALUES (?, ?)`, args: [BigInt(i), v] });
      }
      const rs = await db.execute(`SELECT id, v, typeof(v) AS t FROM ${table} ORDER BY id`);
      assert.equal(rs.rows.length, values.length);
      for (const row of rs.rows) {
        const [want, wantType] = values[Number(row.id)];
        assert.equal(row.t, wantType, `value ${row.id} stored as ${row.t}`);
        if (want instanceof Uint8Array) {
          assert.ok(row.v instanceof ArrayBuffer, `value ${row.id} is ${typeof row.v}`);
          assert.deepEqual(new Uint8Array(row.v), want);
        } else {
          assert.equal(row.v, want, `value ${row.id}`);
        }
      }
      assert.deepEqual(rs.columns, ["id", "v", "t"]);
    });

    test("interactive transaction across requests", async () => {
      const table = unique("tx_" + scheme);
      await db.execute(`CREATE TABLE ${table} (v INTEGER)`);
      const other = open(url);
      const tx = await db.transaction("write");
      for (let i = 0n; i < 3n; i++) {
        await tx.execute({ sql: `INSERT INTO ${table} VALUES (?)`, args: [i] });
      }
      assert.equal((await tx.execute(`SELECT count(*) AS n FROM ${table}`)).rows[0].n, 3n);
      assert.equal(await count(other, table), 0n, "uncommitted rows are visible elsewhere");
      await tx.commit();
      assert.equal(await count(other, table), 3n);

      const tx2 = await db.transaction("write");
      await tx2.execute(`INSERT INTO ${table} VALUES (99)`);
      await tx2.rollback();
      assert.equal(await count(other, table), 3n);
    });

    test("batch rolls back on error", async () => {
      const table = unique("batch_" + scheme);
      await db.execute(`CREATE TABLE ${table} (v INTEGER PRIMARY KEY)`);
      const ok = await db.batch([`INSERT INTO ${table} VALUES (1)`, `SELECT v FROM ${table}`], "write");
      assert.equal(ok.length, 2);
      assert.equal(ok[0].rowsAffected, 1);
      assert.equal(ok[0].lastInsertRowid, 1n);
      await assert.rejects(
        db.batch([`INSERT INTO ${table} VALUES (2)`, `INSERT INTO ${table} VALUES (1)`], "write"),
        (e) => e.code === "SQLITE_CONSTRAINT" && /UNIQUE constraint failed/.test(e.message),
      );
      assert.equal(await count(db, table), 1n);
    });

    test("errors reach the client", async () => {
      const table = unique("err_" + scheme);
      await db.execute(`CREATE TABLE ${table} (v INTEGER NOT NULL)`);
      await assert.rejects(db.execute("SELEC 1"), /syntax error/);
      await assert.rejects(db.execute("SELECT * FROM no_such_table_xyz"), /no such table/);
      await assert.rejects(db.execute(`INSERT INTO ${table} VALUES (NULL)`), (e) => e.code === "SQLITE_CONSTRAINT");
      await assert.rejects(db.execute({ sql: "SELECT ?, ?", args: [1n] }));
      assert.equal(await count(db, table), 0n);
    });

    test("many concurrent clients", async () => {
      const table = unique("conc_" + scheme);
      await db.execute(`CREATE TABLE ${table} (w INTEGER, i INTEGER)`);
      const workers = 20;
      const perWorker = 10;
      await Promise.all(
        Array.from({ length: workers }, async (_, w) => {
          const c = open(url);
          for (let i = 0; i < perWorker; i++) {
            await c.execute({ sql: `INSERT INTO ${table} VALUES (?, ?)`, args: [BigInt(w), BigInt(i)] });
          }
        }),
      );
      assert.equal(await count(db, table), BigInt(workers * perWorker));
    });
  });
}

test("libsql: URLs with ?tls=0", async () => {
  const u = new URL(baseURL);
  const c = open(`libsql://${u.host}?tls=0`);
  const rs = await c.execute("SELECT 40 + 2 AS v");
  assert.equal(rs.rows[0].v, 42n);
});

// @libsql/client speaks Hrana 2; the lower-level @libsql/hrana-client can
// speak Hrana 3 over WebSocket, which adds cursors and get_autocommit.
test("Hrana 3 over WebSocket: cursors, autocommit, is_autocommit", async () => {
  const client = hrana.openWs(withScheme(baseURL, "ws"), authToken, 3);
  try {
    assert.equal(await client.getVersion(), 3);
    const stream = client.openStream();
    assert.equal(await stream.getAutocommit(), true);
    await stream.run("BEGIN");
    assert.equal(await stream.getAutocommit(), false);
    await stream.run("ROLLBACK");

    const batch = stream.batch(true); // executed through a cursor
    const rows = batch.step().query("SELECT 1 AS a UNION ALL SELECT 2 ORDER BY a");
    const failing = batch.step();
    const failed = failing.run("SELECT * FROM no_such_table");
    failed.catch(() => {}); // checked below
    const skipped = batch.step().condition(hrana.BatchCond.ok(failing)).run("SELECT 3");
    const ran = batch.step()
      .condition(hrana.BatchCond.and(batch, [hrana.BatchCond.error(failing), hrana.BatchCond.isAutocommit(batch)]))
      .queryValue("SELECT 4");
    await batch.execute();
    assert.deepEqual((await rows).rows.map((r) => r.a), [1, 2]);
    await assert.rejects(failed, /no such table/);
    assert.equal(await skipped, undefined);
    assert.equal((await ran).value, 4);
    stream.close();
  } finally {
    client.close();
  }
});

describe("namespaces", { skip: env.LIBSQL_ADMIN_URL ? false : "LIBSQL_ADMIN_URL not set" }, () => {
  test("create, address by Host and x-namespace, delete", async () => {
    const ns = unique("jsns");
    let r = await admin("POST", `/v1/namespaces/${ns}/create`, "{}");
    assert.equal(r.status, 200, r.text);
    r = await admin("POST", `/v1/namespaces/${ns}/create`, "{}");
    assert.equal(r.status, 400, r.text);

    const byHost = open(`http://${ns}.localhost:${port}`);
    const byWS = open(`ws://${ns}.localhost:${port}`);
    const byHeader = open(baseURL, {
      fetch: (input, init) => {
        const req = new Request(input, init);
        req.headers.set("x-namespace", ns);
        return fetch(req);
      },
    });
    const table = unique("in_ns");
    await byHost.execute(`CREATE TABLE ${table} (v TEXT)`);
    await byWS.execute(`INSERT INTO ${table} VALUES ('ws')`);
    await byHeader.execute(`INSERT INTO ${table} VALUES ('header')`);
    for (const c of [byHost, byWS, byHeader]) {
      assert.equal(await count(c, table), 2n);
    }
    await assert.rejects(open(baseURL).execute(`SELECT * FROM ${table}`), /no such table/);

    r = await admin("DELETE", `/v1/namespaces/${ns}`);
    assert.equal(r.status, 200, r.text);
    r = await admin("DELETE", `/v1/namespaces/${ns}`);
    assert.equal(r.status, 404, r.text);
    await assert.rejects(open(`http://${ns}.localhost:${port}`).execute("SELECT 1"));
  });
});

describe("JWT", { skip: env.LIBSQL_JWT_URL ? false : "LIBSQL_JWT_URL not set (needs control of the server's key)" }, () => {
  for (const scheme of ["http", "ws"]) {
    test(`allow and deny over ${scheme}`, async () => {
      const url = withScheme(env.LIBSQL_JWT_URL, scheme);
      const withToken = (t) => open(url, { authToken: t });
      const table = unique("jwt_" + scheme);
      const rw = withToken(env.LIBSQL_JWT_RW);
      await rw.execute(`CREATE TABLE ${table} (v INTEGER)`);
      await rw.execute(`INSERT INTO ${table} VALUES (1)`);

      const ro = withToken(env.LIBSQL_JWT_RO);
      assert.equal(await count(ro, table), 1n);
      await assert.rejects(ro.execute(`INSERT INTO ${table} VALUES (2)`));

      await assert.rejects(withToken(env.LIBSQL_JWT_EXPIRED).execute("SELECT 1"), /expired|unauthorized|authentication/i);
      await assert.rejects(withToken(undefined).execute("SELECT 1"), /unauthorized|authentication|jwt/i);
      assert.equal(await count(rw, table), 1n);
    });
  }
});
