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
