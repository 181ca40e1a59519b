// Syntax goja lacks in part: async generators, for await and regexp
// literals with named groups must be lowered; BigInt, private members and
// static blocks must pass through untouched.

async function* count(n) {
  for (let i = 0; i < n; i++) {
    await null;
    yield i;
  }
}

class Counter {
  #n = 0n;
  static #instances = 0;
  static {
    Counter.kind = "counter";
  }
  constructor() {
    Counter.#instances++;
  }
  add(v) {
    this.#n += BigInt(v);
    return this;
  }
  get value() {
    return this.#n;
  }
  #secret() {
    return "private method";
  }
  reveal() {
    return this.#secret();
  }
  static count() {
    return Counter.#instances;
  }
  static has(o) {
    return #n in o;
  }
}

const date = /(?<year>\d{4})-(?<month>\d{2})/;

// Never called: the literals must only parse.
export function otherFlags() {
  return [/\p{L}+/u, /a/d, /[\p{L}--[a-z]]/v];
}

export default {
  async run() {
    let total = 0;
    for await (const i of count(4)) total += i;
    const c = new Counter().add(40).add(2);
    const m = date.exec("since 2024-05");
    let unset;
    unset ??= "assigned";
    return {
      total,
      big: String(2n ** 64n),
      value: String(c.value),
      reveal: c.reveal(),
      kind: Counter.kind,
      instances: Counter.count(),
      has: Counter.has(c),
      year: m?.groups?.year,
      month: m.groups.month,
      missing: c.missing?.x ?? "none",
      unset,
    };
  },
};
