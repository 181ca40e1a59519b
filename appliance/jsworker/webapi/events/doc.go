// Package events is the jsworker extension for the DOM's events and
// errors: DOMException, Event (and CustomEvent, ErrorEvent, MessageEvent,
// CloseEvent, PromiseRejectionEvent), EventTarget, AbortController,
// AbortSignal (abort, timeout, any) and reportError.
//
// # What other preludes use
//
// These names go on the prelude's internal object:
//
//   - internal.EventTarget: the EventTarget class, to subclass (WebSocket).
//   - internal.initEventTarget(obj): make an object not built by
//     EventTarget's constructor (the global scope) a target; copy
//     EventTarget.prototype's methods onto it to expose them. Once the
//     global is a target, reported exceptions fire "error" on it first.
//   - internal.dispatchEvent(target, event): dispatch as the runtime does
//     (event.isTrusted is true), whatever dispatchEvent the target has;
//     it returns !event.defaultPrevented.
//   - internal.defineEventHandler(proto, type): define the on<type>
//     attribute (onmessage, onclose) on a prototype.
//   - internal.listenerCount(target, type) and
//     internal.removeAllListeners(target, type?, keepHandlers?).
//   - internal.isEvent(v), internal.isDOMException(v),
//     internal.isAbortSignal(v): brand checks that look-alikes fail.
//   - internal.newAbortSignal(): a signal with no controller, aborted with
//     internal.abortSignal(signal, reason) (reason undefined means the
//     default AbortError DOMException).
//   - internal.onAbort(signal, fn): run fn(reason) when signal aborts,
//     before its abort event; returns a function that unregisters fn. It
//     does nothing for a signal already aborted: check signal.aborted
//     first.
//   - internal.reportException(err): report err as uncaught (an error
//     event on the global if it is a target, else console.error).
//
// # Differences
//
// The target of an event is never in a tree, so an event's path is its
// target alone: capture listeners run before the others, all with
// eventPhase AT_TARGET, and bubbles changes nothing.
//
// workerd rejects listeners added with capture: true or passive: true
// (TypeError); here they are accepted and behave as in browsers (passive
// listeners cannot cancel the event). workerd lets the exception of the
// first listener that throws end dispatchEvent and propagate; here, as
// the DOM Standard says, it is reported (reportError) and the remaining
// listeners run. workerd treats a listener's return value of true as a
// call to preventDefault; here only an on<type> handler returning false
// cancels, as in browsers.
//
// As in workerd, an aborted AbortSignal drops its abort listeners once
// the abort event has run, and the default abort reason is a DOMException
// AbortError "The operation was aborted" (TimeoutError "The operation was
// aborted due to timeout" for AbortSignal.timeout). AbortSignal.timeout
// takes an integral number of milliseconds (WebIDL's EnforceRange: a
// negative, NaN or infinite delay is a TypeError), which workerd does not
// check. A signal from AbortSignal.any is held by its sources until it
// aborts (there is no WeakRef in goja).
//
// DOMException's constructor also takes an options object { name, cause }
// as its second argument, as Node.js's does.
package events
