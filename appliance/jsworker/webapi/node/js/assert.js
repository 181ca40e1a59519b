// node:assert and node:assert/strict.
sharedValues.assert = function makeAssert() {
  const { inspect } = shared("inspect");
  const comparisons = shared("comparisons");
  const show = (v) => inspect(v, { depth: 4 });

  class AssertionError extends Error {
    constructor(options) {
      validateObject(options, "options");
      const { message, actual, expected, operator } = options;
      super(message !== undefined ? String(message) : generated(actual, expected, operator));
      this.name = "AssertionError";
      this.code = "ERR_ASSERTION";
      this.generatedMessage = message === undefined;
      this.actual = actual;
      this.expected = expected;
      this.operator = operator;
      if (typeof Error.captureStackTrace === "function") Error.captureStackTrace(this, options.stackStartFn || options.stackStartFunction);
    }
    toString() { return `${this.name} [${this.code}]: ${this.message}`; }
  }
  const headers = {
    deepStrictEqual: "Expected values to be strictly deep-equal:",
    strictEqual: "Expected values to be strictly equal:",
    deepEqual: "Expected values to be loosely deep-equal:",
    notDeepStrictEqual: 'Expected "actual" not to be strictly deep-equal to:',
    notStrictEqual: 'Expected "actual" to be strictly unequal to:',
    notDeepEqual: 'Expected "actual" not to be loosely deep-equal to:',
    notIdentical: "Values identical but not reference-equal:",
  };
  function generated(actual, expected, operator) {
    if (operator in headers) {
      if (operator.startsWith("not")) return `${headers[operator]} ${show(expected)}`;
      return `${headers[operator]}\n\n${show(actual)}\n\nshould equal\n\n${show(expected)}`;
    }
    return `${show(actual)} ${operator} ${show(expected)}`;
  }
  function fail(obj) {
    if (obj.message instanceof Error) throw obj.message;
    throw new AssertionError(obj);
  }

  function ok(value, message) {
    if (arguments.length === 0) fail({ message: "No value argument passed to `assert.ok()`", actual: undefined, expected: true, operator: "==", stackStartFn: ok });
    if (!value) {
      fail({ message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert.ok(" + show(value) + ")\n" : message, actual: value, expected: true, operator: "==", stackStartFn: ok });
    }
  }
  const assert = function assert(value, message) {
    if (arguments.length === 0) fail({ message: "No value argument passed to `assert.ok()`", actual: undefined, expected: true, operator: "==", stackStartFn: assert });
    if (!value) fail({ message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert(" + show(value) + ")\n" : message, actual: value, expected: true, operator: "==", stackStartFn: assert });
  };
  const missingArgs = (name) => codedError(TypeError, "ERR_MISSING_ARGS", `The "${name}" argument must be specified`);
  const check = (pass, operator) => {
    const fn = function (actual, expected, message) {
      if (arguments.length < 2) throw missingArgs(arguments.length === 0 ? "actual" : "expected");
      if (!pass(actual, expected)) fail({ actual, expected, message, operator, stackStartFn: fn });
    };
    return fn;
  };
  // eslint-disable-next-line eqeqeq
  const looseEqual = (a, b) => a == b || (a !== a && b !== b);

  function matchesExpected(err, expected, fnName, message) {
    if (expected === undefined) return;
    if (typeof expected === "function") {
      if (expected.prototype !== undefined && err instanceof expected) return;
      if (Error.isPrototypeOf(expected) || expected === Error) {
        fail({ actual: err, expected, operator: fnName, message: message || `The error is expected to be an instance of "${expected.name}". Received "${err && err.constructor && err.constructor.name}"\n\nError message:\n\n${err && err.message}`, stackStartFn: matchesExpected });
      }
      const res = expected.call({}, err);
      if (res !== true) fail({ actual: err, expected, operator: fnName, message: message || `The ${expected.name ? `"${expected.name}" validation function` : "validation function"} is expected to return "true". Received ${show(res)}`, stackStartFn: matchesExpected });
      return;
    }
    if (expected instanceof RegExp) {
      if (expected.test(String(err))) return;
      fail({ actual: err, expected, operator: fnName, message: message || `The input did not match the regular expression ${expected}. Input:\n\n${show(String(err))}\n`, stackStartFn: matchesExpected });
    }
    if (typeof expected === "object" && expected !== null) {
      const keys = Object.keys(expected);
      if (expected instanceof Error) keys.push("name", "message");
      for (const key of keys) {
        const want = expected[key];
        const got = err == null ? undefined : err[key];
        if (want instanceof RegExp && typeof got === "string" ? want.test(got) : comparisons.isDeepStrictEqual(got, want)) continue;
        fail({ actual: err, expected, operator: fnName, message: message || `Expected values to be strictly deep-equal:\n+ actual - expected\n\n  ${key}: ${show(got)} !== ${show(want)}`, stackStartFn: matchesExpected });
      }
      return;
    }
    throw errInvalidArgType("expected", "of type function or an instance of Error, RegExp, or Object", expected);
  }
  const noException = Symbol("noException");
  function getActual(fn) {
    validateFunction(fn, "fn");
    try {
      fn();
    } catch (e) {
      return e;
    }
    return noException;
  }
  function splitArgs(expected, message) {
    if (typeof expected === "string") return [undefined, expected];
    return [expected, message];
  }
  function throws(fn, expectedArg, messageArg) {
    const [expected, message] = splitArgs(expectedArg, messageArg);
    const actual = getActual(fn);
    if (actual === noException) {
      const name = expected && expected.name ? ` (${expected.name})` : "";
      fail({ actual: undefined, expected, operator: "throws", message: `Missing expected exception${name}${message ? `: ${message}` : "."}`, stackStartFn: throws });
    }
    matchesExpected(actual, expected, "throws", message);
  }
  function doesNotThrow(fn, expectedArg, messageArg) {
    const [, message] = splitArgs(expectedArg, messageArg);
    const actual = getActual(fn);
    if (actual === noException) return;
    fail({ actual, expected: expectedArg, operator: "doesNotThrow", message: `Got unwanted exception${message ? `: ${message}` : "."}\nActual message: "${actual && actual.message}"`, stackStartFn: doesNotThrow });
  }
  async function waitFor(promiseFn) {
    const p = typeof promiseFn === "function" ? promiseFn() : promiseFn;
    if (!p || typeof p.then !== "function") {
      throw codedError(TypeError, "ERR_INVALID_RETURN_VALUE", "Expected instance of Promise to be returned from the \"promiseFn\" function but got " + (p === null ? "null" : typeof p) + ".");
    }
    try {
      await p;
    } catch (e) {
      return e;
    }
    return noException;
  }
  async function rejects(promiseFn, expectedArg, messageArg) {
    const [expected, message] = splitArgs(expectedArg, messageArg);
    const actual = await waitFor(promiseFn);
    if (actual === noException) {
      const name = expected && expected.name ? ` (${expected.name})` : "";
      fail({ actual: undefined, expected, operator: "rejects", message: `Missing expected rejection${name}${message ? `: ${message}` : "."}`, stackStartFn: rejects });
    }
    matchesExpected(actual, expected, "rejects", message);
  }
  async function doesNotReject(promiseFn, expectedArg, messageArg) {
    const [, message] = splitArgs(expectedArg, messageArg);
    const actual = await waitFor(promiseFn);
    if (actual === noException) return;
    fail({ actual, expected: expectedArg, operator: "doesNotReject", message: `Got unwanted rejection${message ? `: ${message}` : "."}\nActual message: "${actual && actual.message}"`, stackStartFn: doesNotReject });
  }
  function match(string, regexp, message) {
    if (!(regexp instanceof RegExp)) throw errInvalidArgType("regexp", "an instance of RegExp", regexp);
    if (typeof string !== "string" || !regexp.test(string)) {
      fail({ actual: string, expected: regexp, operator: "match", message: message || (typeof string !== "string"
        ? `The "string" argument must be of type string. Received type ${typeof string} (${show(string)})`
        : `The input did not match the regular expression ${regexp}. Input:\n\n${show(string)}\n`), stackStartFn: match });
    }
  }
  function doesNotMatch(string, regexp, message) {
    if (!(regexp instanceof RegExp)) throw errInvalidArgType("regexp", "an instance of RegExp", regexp);
    if (typeof string !== "string" || regexp.test(string)) {
      fail({ actual: string, expected: regexp, operator: "doesNotMatch", message: message || (typeof string !== "string"
        ? `The "string" argument must be of type string. Received type ${typeof string} (${show(string)})`
        : `The input was expected to not match the regular expression ${regexp}. Input:\n\n${show(string)}\n`), stackStartFn: doesNotMatch });
    }
  }
  function ifError(err) {
    if (err !== null && err !== undefined) {
      let message = "ifError got unwanted exception: ";
      message += typeof err === "object" && typeof err.message === "string" ? (err.message.length === 0 && err.constructor ? err.constructor.name : err.message) : show(err);
      const e = new AssertionError({ actual: err, expected: null, operator: "ifError", message, stackStartFn: ifError });
      e.origin = err;
      throw e;
    }
  }
  function failFn(message = "Failed") {
    if (message instanceof Error) throw message;
    const e = new AssertionError({ message, operator: "fail", stackStartFn: failFn });
    e.generatedMessage = arguments.length === 0;
    throw e;
  }

  const methods = {
    ok,
    fail: failFn,
    equal: check(looseEqual, "=="),
    notEqual: check((a, b) => !looseEqual(a, b), "!="),
    strictEqual: check(Object.is, "strictEqual"),
    notStrictEqual: check((a, b) => !Object.is(a, b), "notStrictEqual"),
    deepEqual: check(comparisons.isDeepEqual, "deepEqual"),
    notDeepEqual: check((a, b) => !comparisons.isDeepEqual(a, b), "notDeepEqual"),
    deepStrictEqual: check(comparisons.isDeepStrictEqual, "deepStrictEqual"),
    notDeepStrictEqual: check((a, b) => !comparisons.isDeepStrictEqual(a, b), "notDeepStrictEqual"),
    throws,
    doesNotThrow,
    rejects,
    doesNotReject,
    match,
    doesNotMatch,
    ifError,
    AssertionError,
  };
  Object.assign(assert, methods);

  function strict(value, message) {
    if (arguments.length === 0) fail({ message: "No value argument passed to `assert.ok()`", actual: undefined, expected: true, operator: "==", stackStartFn: strict });
    if (!value) fail({ message: message === undefined ? "The expression evaluated to a falsy value:\n\n  assert(" + show(value) + ")\n" : message, actual: value, expected: true, operator: "==", stackStartFn: strict });
  }
  Object.assign(strict, methods, {
    equal: methods.strictEqual,
    notEqual: methods.notStrictEqual,
    deepEqual: methods.deepStrictEqual,
    notDeepEqual: methods.notDeepStrictEqual,
  });
  assert.strict = strict;
  strict.strict = strict;
  return assert;
};
modules["node:assert"] = () => shared("assert");
modules["node:assert/strict"] = () => shared("assert").strict;
