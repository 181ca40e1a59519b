// ---- URLPattern (URL Pattern Standard), compiled and matched in Go.

function patternInput(input) {
  return input !== null && typeof input === "object" ? input : usv(input);
}

class URLPattern {
  #h;
  #info;

  // new URLPattern(input = {}, baseURL?, options?) or
  // new URLPattern(input, options).
  constructor(input = {}, baseURL = undefined, options = undefined) {
    if (baseURL !== null && typeof baseURL === "object") {
      options = baseURL;
      baseURL = undefined;
    }
    const ignoreCase = options !== undefined && options !== null && !!options.ignoreCase;
    this.#h = natives.newPattern(patternInput(input), baseURL === undefined ? undefined : usv(baseURL), ignoreCase);
    this.#info = natives.patternInfo(this.#h);
  }

  get protocol() { return this.#info[0]; }
  get username() { return this.#info[1]; }
  get password() { return this.#info[2]; }
  get hostname() { return this.#info[3]; }
  get port() { return this.#info[4]; }
  get pathname() { return this.#info[5]; }
  get search() { return this.#info[6]; }
  get hash() { return this.#info[7]; }
  get hasRegExpGroups() { return this.#info[8]; }

  test(input = {}, baseURL = undefined) {
    return natives.exec(this.#h, patternInput(input), baseURL === undefined ? undefined : usv(baseURL)) !== null;
  }

  exec(input = {}, baseURL = undefined) {
    const r = natives.exec(this.#h, patternInput(input), baseURL === undefined ? undefined : usv(baseURL));
    if (r === null) return null;
    return { inputs: baseURL === undefined ? [input] : [input, baseURL], ...r };
  }
}
Object.defineProperty(URLPattern.prototype, Symbol.toStringTag, { value: "URLPattern", configurable: true });

internal.defineGlobal("URLPattern", URLPattern);
