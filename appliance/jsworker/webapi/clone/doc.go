// Package clone is the jsworker extension for HTML's structured clone:
// the global structuredClone(value, { transfer }), and a serialization of
// the same values to JSON text for what crosses isolates and processes
// (the arguments and results of Durable Object RPC between replicas,
// WebSocket attachments).
//
// # What is copied
//
// Primitives (a symbol is a DataCloneError); Boolean, Number, String and
// BigInt wrapper objects; Date; RegExp (source and flags; lastIndex is
// 0); ArrayBuffer (copied, or with transfer moved: the original is
// detached); typed arrays and DataView (over the copy of their buffer, so
// views that shared a buffer still do); Map and Set; Error (name if it is
// Error, EvalError, RangeError, ReferenceError, SyntaxError, TypeError or
// URIError, else "Error"; message when it is an own property; stack;
// cause); DOMException (name, message, stack); arrays (length, holes and
// other own enumerable properties); any other object as a plain object of
// its own enumerable string-keyed properties (a class instance loses its
// class, as in browsers). Shared references and cycles are kept.
// Functions, Promises, WeakMap, WeakSet, iterators, generators, symbol
// wrappers and the runtime's platform objects (EventTarget and its
// subclasses, Event, AbortController, TextEncoder, TextDecoder, URL,
// URLSearchParams, URLPattern) are a DataCloneError DOMException.
//
// # Hooks
//
// internal.cloneHooks is a list later packages push hooks onto to teach
// both paths a type of their own (Blob, File, object stubs):
//
//	{
//	  type: "Blob",                      // names the type in serialized text
//	  is(v) → boolean,                   // a brand check
//	  clone?(v, child) → copy,           // structuredClone
//	  serialize?(v, child) → payload,    // any JSON-able value
//	  deserialize?(payload, child) → v,
//	}
//
// child(x) clones, encodes or decodes a nested value; serialize and
// deserialize must call it for the same values in the same order, and
// the payload must be JSON-able apart from what child returned. Without
// clone, structuredClone uses serialize then deserialize; a hook with
// neither (internal.notCloneable(Class) makes one) is a DataCloneError.
// References from inside a hook's payload back to the hooked value itself
// are not supported.
//
// # The serialized format
//
// internal.serialize(value) → string and internal.deserialize(string) →
// value round-trip exactly what structuredClone copies. A value whose
// JSON says all of it (finite numbers other than -0, strings without lone
// surrogates, booleans, null, dense arrays and plain objects without keys
// starting with "$", each object reached once) is written as its
// JSON.stringify text, checked in Go; deserialize reads text in which
// `"$` never occurs with JSON.parse alone.
//
// Anything else is written as JSON in which objects with a "$" key are
// tags; the keys of ordinary objects that start with "$" get one more
// "$" in front ("$x" is written "$$x"). Every object (array, plain
// object, and each tag marked † below) is numbered in the order it is
// first met, depth first, starting at 0; a later occurrence is written as
// a reference to that number. The tags:
//
//	{"$":"u"}                               undefined
//	{"$":"n","v":"NaN"|"Infinity"|"-Infinity"|"-0"}
//	{"$":"b","v":"123"}                     BigInt, in decimal
//	{"$":"s","v":"a\uFFFDb","p":[1,55296]}  a string with lone surrogates: U+FFFD
//	                                        in their places, then [index, code unit]
//	{"$":"r","i":3}                         the object numbered 3
//	{"$":"a","l":5,"p":[key, value, ...]} † an array with holes or other properties
//	{"$":"o","p":[key, value, ...]}       † an object with a key that has a lone surrogate
//	{"$":"D","v":0}                       † Date (v null for an invalid date)
//	{"$":"R","s":"a+","f":"g"}            † RegExp
//	{"$":"W","v":value}                   † a Boolean, Number, String or BigInt object
//	{"$":"A","d":"AQID"}                  † ArrayBuffer, standard base64
//	{"$":"V","t":"Uint8Array"|"DataView"|…,"b":buffer,"o":byteOffset,"l":length}
//	                                      † a view: length in elements (bytes for
//	                                        DataView); b is the buffer's tag or reference
//	{"$":"M","e":[key, value, ...]}       † Map
//	{"$":"S","e":[value, ...]}            † Set
//	{"$":"E","n":"TypeError","m":"…","s":"…","c":cause}
//	                                      † Error; m, s and c only when present
//	{"$":"X","n":"AbortError","m":"…","s":"…"} † DOMException
//	{"$":"h","t":"Blob","v":payload}      † a hooked type
//
// The text is always well-formed Unicode (JSON.stringify escapes lone
// surrogates), so it survives conversion to a Go string.
//
// # Differences
//
// Lone surrogates survive in strings and keys; in error messages and
// stacks, DOMException fields and RegExp sources they become U+FFFD
// across serialize. Promises, WeakMaps, WeakSets, iterators and
// generators are recognized by their Symbol.toStringTag, so an ordinary
// object made with Object.create(Promise.prototype) is refused where
// browsers would copy it. Proxies are cloned as the objects they stand
// for, where V8 throws DataCloneError. AggregateError loses its errors and
// becomes an Error, as in V8.
package clone
