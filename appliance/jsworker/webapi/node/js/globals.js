// The globals nodejs_compat defines: Buffer, process and global
// (setImmediate and clearImmediate come from the core). Buffer and
// process are made on first use.
function lazyGlobal(name, make) {
  Object.defineProperty(global, name, {
    configurable: true,
    enumerable: false,
    get() {
      const value = make();
      internal.defineGlobal(name, value);
      return value;
    },
    set(value) {
      internal.defineGlobal(name, value);
    },
  });
}
lazyGlobal("Buffer", () => shared("buffer").Buffer);
lazyGlobal("process", () => load("node:process"));
internal.defineGlobal("global", global);

// util.promisify(setTimeout) and util.promisify(setImmediate) give the
// timers/promises versions, as in Node.
const promisifyCustom = Symbol.for("nodejs.util.promisify.custom");
for (const name of ["setTimeout", "setImmediate"]) {
  const fn = global[name];
  if (typeof fn === "function" && Object.isExtensible(fn)) {
    Object.defineProperty(fn, promisifyCustom, { get: () => shared("timers").promises[name], configurable: true });
  }
}
