// ---- DOMException (WebIDL): an Error with a name from a fixed list and
// the legacy numeric code that goes with it.

const legacyCodes = Object.assign(Object.create(null), {
  IndexSizeError: [1, "INDEX_SIZE_ERR"],
  DOMStringSizeError: [2, "DOMSTRING_SIZE_ERR"],
  HierarchyRequestError: [3, "HIERARCHY_REQUEST_ERR"],
  WrongDocumentError: [4, "WRONG_DOCUMENT_ERR"],
  InvalidCharacterError: [5, "INVALID_CHARACTER_ERR"],
  NoDataAllowedError: [6, "NO_DATA_ALLOWED_ERR"],
  NoModificationAllowedError: [7, "NO_MODIFICATION_ALLOWED_ERR"],
  NotFoundError: [8, "NOT_FOUND_ERR"],
  NotSupportedError: [9, "NOT_SUPPORTED_ERR"],
  InUseAttributeError: [10, "INUSE_ATTRIBUTE_ERR"],
  InvalidStateError: [11, "INVALID_STATE_ERR"],
  SyntaxError: [12, "SYNTAX_ERR"],
  InvalidModificationError: [13, "INVALID_MODIFICATION_ERR"],
  NamespaceError: [14, "NAMESPACE_ERR"],
  InvalidAccessError: [15, "INVALID_ACCESS_ERR"],
  ValidationError: [16, "VALIDATION_ERR"],
  TypeMismatchError: [17, "TYPE_MISMATCH_ERR"],
  SecurityError: [18, "SECURITY_ERR"],
  NetworkError: [19, "NETWORK_ERR"],
  AbortError: [20, "ABORT_ERR"],
  URLMismatchError: [21, "URL_MISMATCH_ERR"],
  QuotaExceededError: [22, "QUOTA_EXCEEDED_ERR"],
  TimeoutError: [23, "TIMEOUT_ERR"],
  InvalidNodeTypeError: [24, "INVALID_NODE_TYPE_ERR"],
  DataCloneError: [25, "DATA_CLONE_ERR"],
});

let domExceptionState;

class DOMException extends Error {
  #name;
  #message;

  // new DOMException(message = "", name = "Error"); as in Node.js, the
  // second argument may also be an options object { name, cause }.
  constructor(message = "", options = "Error") {
    super();
    delete this.message;
    this.#message = String(message);
    if (options !== null && typeof options === "object") {
      this.#name = options.name === undefined ? "Error" : String(options.name);
      if ("cause" in options) {
        Object.defineProperty(this, "cause", { value: options.cause, writable: true, configurable: true, enumerable: false });
      }
    } else {
      this.#name = String(options);
    }
  }

  get name() { return this.#name; }
  get message() { return this.#message; }
  get code() {
    const c = legacyCodes[this.#name];
    return c === undefined ? 0 : c[0];
  }

  static {
    domExceptionState = (e) => e.#name;
  }
}

for (const name of Object.keys(legacyCodes)) {
  const [code, constant] = legacyCodes[name];
  const desc = { value: code, enumerable: true, writable: false, configurable: false };
  Object.defineProperty(DOMException, constant, desc);
  Object.defineProperty(DOMException.prototype, constant, desc);
}
Object.defineProperty(DOMException.prototype, Symbol.toStringTag, { value: "DOMException", configurable: true });

// isDOMException tells a real DOMException (made by this constructor or a
// subclass) from look-alikes.
function isDOMException(v) {
  if (v === null || typeof v !== "object") return false;
  try {
    domExceptionState(v);
    return true;
  } catch {
    return false;
  }
}

internal.defineGlobal("DOMException", DOMException);
internal.isDOMException = isDOMException;
