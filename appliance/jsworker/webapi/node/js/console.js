// node:console — the global console, and a Console class whose instances
// log there too (the streams it is given are not written to).
modules["node:console"] = function makeConsole() {
  function Console() {
    if (!new.target) return new Console(...arguments);
    for (const [name, fn] of Object.entries(console)) {
      if (typeof fn === "function") this[name] = fn.bind(console);
    }
  }
  return Object.assign({}, console, { Console });
};
