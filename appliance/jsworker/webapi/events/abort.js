// ---- AbortController and AbortSignal (DOM Standard §3.1, §3.2).

const signalKey = {}; // only the runtime constructs signals
let signalState;

class AbortSignal extends EventTarget {
  #aborted = false;
  #reason = undefined;
  // Run before the abort event, in order; set to null once run.
  #algorithms = new Set();
  // For AbortSignal.any: the signals this one follows (dependent) and
  // the signals that follow this one.
  #dependent = false;
  #sources = null;
  #dependents = null;

  constructor(key) {
    if (key !== signalKey) throw new TypeError("Illegal constructor: use new AbortController().signal, AbortSignal.abort(), AbortSignal.timeout() or AbortSignal.any()");
    super();
  }

  get aborted() { return this.#aborted; }
  get reason() { return this.#reason; }
  throwIfAborted() {
    if (this.#aborted) throw this.#reason;
  }

  static abort(reason) {
    const s = new AbortSignal(signalKey);
    s.#aborted = true;
    s.#reason = reason === undefined ? abortError() : reason;
    s.#algorithms = null;
    return s;
  }

  static timeout(milliseconds) {
    const ms = Number(milliseconds);
    if (!Number.isFinite(ms) || ms < 0 || ms > Number.MAX_SAFE_INTEGER) {
      throw new TypeError(`AbortSignal.timeout: the delay must be a non-negative integer of milliseconds, not ${String(milliseconds)}`);
    }
    const s = new AbortSignal(signalKey);
    setTimeout(() => signalAbort(s, new DOMException("The operation was aborted due to timeout", "TimeoutError")), Math.trunc(ms));
    return s;
  }

  static any(signals) {
    if (signals === null || signals === undefined || typeof signals[Symbol.iterator] !== "function") {
      throw new TypeError("AbortSignal.any needs an iterable of AbortSignals");
    }
    const list = [];
    for (const x of signals) {
      if (!isAbortSignal(x)) throw new TypeError("AbortSignal.any: every element must be an AbortSignal");
      list.push(x);
    }
    for (const x of list) {
      if (x.#aborted) return AbortSignal.abort(x.#reason);
    }
    const s = new AbortSignal(signalKey);
    s.#dependent = true;
    s.#sources = new Set();
    const follow = (src) => {
      s.#sources.add(src);
      if (src.#dependents === null) src.#dependents = new Set();
      src.#dependents.add(s);
    };
    for (const x of list) {
      if (!x.#dependent) follow(x);
      else for (const src of x.#sources) follow(src);
    }
    return s;
  }

  static {
    signalState = {
      is(v) {
        try {
          v.#aborted;
          return true;
        } catch {
          return false;
        }
      },
      // abort is the DOM's "signal abort".
      abort(signal, reason) {
        if (signal.#aborted) return;
        signal.#aborted = true;
        signal.#reason = reason === undefined ? abortError() : reason;
        const follow = [];
        if (signal.#dependents !== null) {
          for (const d of signal.#dependents) {
            if (d.#aborted) continue;
            d.#aborted = true;
            d.#reason = signal.#reason;
            follow.push(d);
          }
        }
        runAbortSteps(signal);
        for (const d of follow) runAbortSteps(d);
      },
      // steps runs the abort algorithms and fires abort; then the signal
      // lets go of everything (as workerd does, to free memory: nothing
      // more can happen to an aborted signal).
      steps(signal) {
        const algorithms = signal.#algorithms;
        signal.#algorithms = null;
        if (algorithms !== null) {
          for (const fn of algorithms) {
            try {
              fn(signal.#reason);
            } catch (err) {
              reportException(err);
            }
          }
        }
        dispatchTrusted(signal, new Event("abort"));
        removeAllListeners(signal, "abort", true);
        if (signal.#sources !== null) {
          for (const src of signal.#sources) if (src.#dependents !== null) src.#dependents.delete(signal);
          signal.#sources.clear();
        }
        signal.#dependents = null;
      },
      add(signal, fn) {
        if (signal.#aborted || signal.#algorithms === null) return () => {};
        const algorithms = signal.#algorithms;
        const entry = (reason) => fn(reason);
        algorithms.add(entry);
        return () => algorithms.delete(entry);
      },
    };
  }
}
Object.defineProperty(AbortSignal.prototype, Symbol.toStringTag, { value: "AbortSignal", configurable: true });
defineEventHandler(AbortSignal.prototype, "abort");

class AbortController {
  #signal = new AbortSignal(signalKey);
  get signal() { return this.#signal; }
  abort(reason) { signalAbort(this.#signal, reason); }
}
Object.defineProperty(AbortController.prototype, Symbol.toStringTag, { value: "AbortController", configurable: true });

function abortError() {
  return new DOMException("The operation was aborted", "AbortError");
}
function isAbortSignal(v) {
  return v !== null && typeof v === "object" && signalState.is(v);
}
function signalAbort(signal, reason) {
  signalState.abort(signal, reason);
}
function runAbortSteps(signal) {
  signalState.steps(signal);
}
// addAbortAlgorithm runs fn(reason) when signal aborts, before its abort
// event, and returns a function that takes fn back. It does nothing for a
// signal that has aborted already.
function addAbortAlgorithm(signal, fn) {
  return signalState.add(signal, fn);
}

internal.defineGlobal("AbortSignal", AbortSignal);
internal.defineGlobal("AbortController", AbortController);
internal.isAbortSignal = isAbortSignal;
internal.newAbortSignal = () => new AbortSignal(signalKey);
internal.abortSignal = signalAbort;
internal.onAbort = addAbortAlgorithm;
