// Iterator and the iterator helpers (ES2025, and Iterator.concat). They
// live on %IteratorPrototype%, which goja's array, map, set, string, regexp
// and generator iterators share, so [].values().map(...) works.
const IteratorPrototype = Object.getPrototypeOf(Object.getPrototypeOf([][Symbol.iterator]()));
const DONE = Symbol("done"); // a step's "no more values"

function isObject(v) {
  return v !== null && (typeof v === "object" || typeof v === "function");
}

// record is an Iterator Record: the iterator and the next method read once.
function record(iterator) {
  return { iterator, next: iterator.next };
}

// step returns the next value of rec, or DONE.
function step(rec) {
  const r = Reflect.apply(rec.next, rec.iterator, []);
  if (!isObject(r)) throw new TypeError("Iterator result " + String(r) + " is not an object");
  return r.done ? DONE : r.value;
}

// close is IteratorClose after a normal completion.
function close(iterator) {
  const ret = iterator.return;
  if (ret === undefined || ret === null) return;
  const r = Reflect.apply(ret, iterator, []);
  if (!isObject(r)) throw new TypeError("Iterator return() result is not an object");
}

// closeAndThrow is IteratorClose after a throw: err wins over any error
// of return().
function closeAndThrow(iterator, err) {
  try {
    const ret = iterator.return;
    if (ret !== undefined && ret !== null) Reflect.apply(ret, iterator, []);
  } catch (ignored) {
    // the first error wins
  }
  throw err;
}

function thisIterator(o, method) {
  if (!isObject(o)) throw new TypeError(`Iterator.prototype.${method} called on a non-object`);
  return o;
}

function callable(o, fn, method) {
  if (typeof fn !== "function") closeAndThrow(o, new TypeError(`Iterator.prototype.${method}: the argument must be a function`));
}

function limitOf(o, v, method) {
  let n;
  try {
    n = Number(v);
  } catch (e) {
    closeAndThrow(o, e);
  }
  if (n !== n) closeAndThrow(o, new RangeError(`Iterator.prototype.${method}: the limit must be a number`));
  n = n === Infinity || n === -Infinity ? n : Math.trunc(n);
  if (n < 0) closeAndThrow(o, new RangeError(`Iterator.prototype.${method}: the limit must not be negative`));
  return n;
}

// flattenable is GetIteratorFlattenable.
function flattenable(obj, iterateStrings) {
  if (!isObject(obj) && !(iterateStrings && typeof obj === "string")) {
    throw new TypeError("Iterator: " + String(obj) + " is not an iterator or iterable");
  }
  const method = obj[Symbol.iterator];
  const iterator = method === undefined || method === null ? obj : Reflect.apply(method, obj, []);
  if (!isObject(iterator)) throw new TypeError("Iterator: [Symbol.iterator]() did not return an object");
  return record(iterator);
}

// IteratorHelper is what map, filter, take, drop, flatMap and concat
// return: next() runs a step function, return() closes what it reads.
class IteratorHelper {
  #step;
  #onReturn;
  #state = "start"; // start, suspended, running, done
  constructor(stepFn, onReturn) {
    this.#step = stepFn;
    this.#onReturn = onReturn;
  }
  next() {
    if (this.#state === "running") throw new TypeError("Iterator helper is already running");
    if (this.#state === "done") return { value: undefined, done: true };
    this.#state = "running";
    let v;
    try {
      v = this.#step();
    } catch (e) {
      this.#state = "done";
      throw e;
    }
    if (v === DONE) {
      this.#state = "done";
      return { value: undefined, done: true };
    }
    this.#state = "suspended";
    return { value: v, done: false };
  }
  return() {
    if (this.#state === "running") throw new TypeError("Iterator helper is already running");
    if (this.#state !== "done") {
      this.#state = "done";
      this.#onReturn();
    }
    return { value: undefined, done: true };
  }
}
Object.setPrototypeOf(IteratorHelper.prototype, IteratorPrototype);
Object.defineProperty(IteratorHelper.prototype, Symbol.toStringTag, { value: "Iterator Helper", configurable: true });
const helper = (stepFn, onReturn) => new IteratorHelper(stepFn, onReturn);

// WrapForValidIterator is what Iterator.from returns for an iterator that
// does not inherit from Iterator.prototype.
class WrapForValidIterator {
  #rec;
  constructor(rec) {
    this.#rec = rec;
  }
  next() {
    return Reflect.apply(this.#rec.next, this.#rec.iterator, []);
  }
  return() {
    const it = this.#rec.iterator;
    const ret = it.return;
    if (ret === undefined || ret === null) return { value: undefined, done: true };
    return Reflect.apply(ret, it, []);
  }
}
Object.setPrototypeOf(WrapForValidIterator.prototype, IteratorPrototype);

const helpers = {
  map(mapper) {
    const o = thisIterator(this, "map");
    callable(o, mapper, "map");
    const rec = record(o);
    let counter = 0;
    return helper(() => {
      const v = step(rec);
      if (v === DONE) return DONE;
      try {
        return mapper(v, counter++);
      } catch (e) {
        closeAndThrow(o, e);
      }
    }, () => close(o));
  },
  filter(predicate) {
    const o = thisIterator(this, "filter");
    callable(o, predicate, "filter");
    const rec = record(o);
    let counter = 0;
    return helper(() => {
      for (;;) {
        const v = step(rec);
        if (v === DONE) return DONE;
        let keep;
        try {
          keep = predicate(v, counter++);
        } catch (e) {
          closeAndThrow(o, e);
        }
        if (keep) return v;
      }
    }, () => close(o));
  },
  take(limit) {
    const o = thisIterator(this, "take");
    let remaining = limitOf(o, limit, "take");
    const rec = record(o);
    return helper(() => {
      if (remaining === 0) {
        close(o);
        return DONE;
      }
      if (remaining !== Infinity) remaining--;
      return step(rec);
    }, () => close(o));
  },
  drop(limit) {
    const o = thisIterator(this, "drop");
    let remaining = limitOf(o, limit, "drop");
    const rec = record(o);
    return helper(() => {
      while (remaining > 0) {
        if (remaining !== Infinity) remaining--;
        if (step(rec) === DONE) return DONE;
      }
      return step(rec);
    }, () => close(o));
  },
  flatMap(mapper) {
    const o = thisIterator(this, "flatMap");
    callable(o, mapper, "flatMap");
    const rec = record(o);
    let counter = 0;
    let inner = null;
    return helper(() => {
      for (;;) {
        if (inner !== null) {
          let v;
          try {
            v = step(inner);
          } catch (e) {
            closeAndThrow(o, e);
          }
          if (v !== DONE) return v;
          inner = null;
        }
        const v = step(rec);
        if (v === DONE) return DONE;
        try {
          inner = flattenable(mapper(v, counter++), false);
        } catch (e) {
          closeAndThrow(o, e);
        }
      }
    }, () => {
      if (inner !== null) {
        try {
          close(inner.iterator);
        } catch (e) {
          closeAndThrow(o, e);
        }
      }
      close(o);
    });
  },
  reduce(reducer, ...initial) {
    const o = thisIterator(this, "reduce");
    callable(o, reducer, "reduce");
    const rec = record(o);
    let acc, counter;
    if (initial.length === 0) {
      acc = step(rec);
      if (acc === DONE) throw new TypeError("Reduce of empty iterator with no initial value");
      counter = 1;
    } else {
      acc = initial[0];
      counter = 0;
    }
    for (;;) {
      const v = step(rec);
      if (v === DONE) return acc;
      try {
        acc = reducer(acc, v, counter++);
      } catch (e) {
        closeAndThrow(o, e);
      }
    }
  },
  toArray() {
    const o = thisIterator(this, "toArray");
    const rec = record(o);
    const out = [];
    for (let v = step(rec); v !== DONE; v = step(rec)) out.push(v);
    return out;
  },
  forEach(fn) {
    const o = thisIterator(this, "forEach");
    callable(o, fn, "forEach");
    const rec = record(o);
    let counter = 0;
    for (let v = step(rec); v !== DONE; v = step(rec)) {
      try {
        fn(v, counter++);
      } catch (e) {
        closeAndThrow(o, e);
      }
    }
    return undefined;
  },
  some(predicate) {
    return search(this, predicate, "some", (hit) => (hit ? { result: true } : null), false);
  },
  every(predicate) {
    return search(this, predicate, "every", (hit) => (hit ? null : { result: false }), true);
  },
  find(predicate) {
    return search(this, predicate, "find", (hit, v) => (hit ? { result: v } : null), undefined);
  },
};

// search runs predicate over the values until decide returns a result,
// closing the iterator then.
function search(self, predicate, method, decide, otherwise) {
  const o = thisIterator(self, method);
  callable(o, predicate, method);
  const rec = record(o);
  let counter = 0;
  for (let v = step(rec); v !== DONE; v = step(rec)) {
    let hit;
    try {
      hit = !!predicate(v, counter++);
    } catch (e) {
      closeAndThrow(o, e);
    }
    const d = decide(hit, v);
    if (d !== null) {
      close(o);
      return d.result;
    }
  }
  return otherwise;
}

// Iterator is abstract: only subclasses are constructed.
function Iterator() {
  if (new.target === undefined || new.target === Iterator) throw new TypeError("Iterator cannot be constructed directly; subclass it");
}

Object.defineProperty(Iterator, "from", {
  value: function from(o) {
    const rec = flattenable(o, true);
    if (rec.iterator instanceof Iterator) return rec.iterator;
    return new WrapForValidIterator(rec);
  },
  writable: true,
  configurable: true,
});

Object.defineProperty(Iterator, "concat", {
  value: function concat(...items) {
    const iterables = items.map((item) => {
      if (!isObject(item)) throw new TypeError("Iterator.concat: " + String(item) + " is not an iterable object");
      const method = item[Symbol.iterator];
      if (typeof method !== "function") throw new TypeError("Iterator.concat: an item has no [Symbol.iterator] method");
      return { item, method };
    });
    let k = 0;
    let inner = null;
    return helper(() => {
      for (;;) {
        if (inner === null) {
          if (k >= iterables.length) return DONE;
          const { item, method } = iterables[k++];
          const it = Reflect.apply(method, item, []);
          if (!isObject(it)) throw new TypeError("Iterator.concat: [Symbol.iterator]() did not return an object");
          inner = record(it);
        }
        const v = step(inner);
        if (v !== DONE) return v;
        inner = null;
      }
    }, () => {
      if (inner !== null) close(inner.iterator);
    });
  },
  writable: true,
  configurable: true,
});

for (const name of Object.keys(helpers)) {
  if (!(name in IteratorPrototype)) {
    Object.defineProperty(IteratorPrototype, name, { value: helpers[name], writable: true, configurable: true });
  }
}

// constructor and [Symbol.toStringTag] are accessors whose setters define
// an own property on anything but Iterator.prototype itself, as the spec
// has it (so assigning them on a subclass prototype works).
function ignoringSetter(key) {
  return function (v) {
    if (!isObject(this)) throw new TypeError("Iterator.prototype setter called on a non-object");
    if (this === IteratorPrototype) throw new TypeError("Cannot assign to Iterator.prototype's " + String(key));
    if (Object.getOwnPropertyDescriptor(this, key) === undefined) {
      Object.defineProperty(this, key, { value: v, writable: true, enumerable: true, configurable: true });
    } else {
      this[key] = v;
    }
  };
}
if (!Object.prototype.hasOwnProperty.call(IteratorPrototype, Symbol.toStringTag)) {
  Object.defineProperty(IteratorPrototype, Symbol.toStringTag, { get: () => "Iterator", set: ignoringSetter(Symbol.toStringTag), configurable: true });
}
if (!Object.prototype.hasOwnProperty.call(IteratorPrototype, "constructor")) {
  Object.defineProperty(IteratorPrototype, "constructor", { get: () => Iterator, set: ignoringSetter("constructor"), configurable: true });
}
Object.defineProperty(Iterator, "prototype", { value: IteratorPrototype, writable: false, enumerable: false, configurable: false });
if (typeof global.Iterator !== "function") internal.defineGlobal("Iterator", Iterator);
