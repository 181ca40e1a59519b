// ---- reportError and the runtime's own reporting of exceptions that no
// code can catch (a throwing event listener, say).

const logError = console.error;
let reporting = false;

// reportException is HTML's "report an exception": when the global scope
// is an EventTarget (internal.initEventTarget(global)), an error event is
// dispatched on it first, and a listener that calls preventDefault keeps
// the exception out of the log.
function reportException(err) {
  if (!reporting && targets.has(global)) {
    reporting = true;
    try {
      const ev = new ErrorEvent("error", { cancelable: true, error: err, message: errorMessage(err) });
      if (!dispatchTrusted(global, ev)) return;
    } catch (e) {
      logError("Uncaught", e);
    } finally {
      reporting = false;
    }
  }
  logError("Uncaught", err);
}

function errorMessage(err) {
  try {
    if (err !== null && typeof err === "object" && "message" in err) return String(err.message);
    return String(err);
  } catch {
    return "";
  }
}

internal.defineGlobal("reportError", function reportError(e) {
  if (arguments.length === 0) throw new TypeError("Failed to execute 'reportError': 1 argument required, but only 0 present.");
  reportException(e);
});
internal.reportException = reportException;
