// The content tokens handlers get: Element, EndTag, Text, Comment,
// Doctype and DocumentEnd. Each wraps a state object the rewriter keeps;
// a wrapper is valid only while its handler runs (and until the promise
// it returned settles), as in workerd.
const KEY = Symbol("htmlrewriter token");
const INVALID = "This content token is no longer valid. Content tokens are only valid during the execution of the relevant content handler.";
// The invalidate* functions end a wrapper's validity.
let invalidateElement, invalidateEndTag, invalidateText, invalidateComment, invalidateDoctype, invalidateDocumentEnd;
const NAMESPACES = ["http://www.w3.org/1999/xhtml", "http://www.w3.org/2000/svg", "http://www.w3.org/1998/Math/MathML"];

function lowerASCII(s) {
  return /[A-Z]/.test(s) ? s.replace(/[A-Z]+/g, (c) => c.toLowerCase()) : s;
}

function escapeText(s) {
  return /[&<>]/.test(s) ? s.replace(/[&<>]/g, (c) => (c === "&" ? "&amp;" : c === "<" ? "&lt;" : "&gt;")) : s;
}

// content turns what a mutation method got into the HTML to insert: the
// string itself with {html: true}, else the string escaped as text.
function content(c, options) {
  if ((global.ReadableStream && c instanceof global.ReadableStream) || (global.Response && c instanceof global.Response)) {
    throw new TypeError("Replacing HTML content using a ReadableStream or Response object is not implemented. You must provide a string.");
  }
  if (options !== undefined && options !== null && typeof options !== "object") {
    throw new TypeError("The content options must be an object such as { html: true }.");
  }
  const s = String(c);
  return options && options.html ? s : escapeText(s);
}

function parserError(message) {
  return new TypeError("Parser error: " + message);
}

// Mutations are what handlers did to a token: content before it, a
// replacement, content after it, and whether the token itself is gone.
// Later before() calls insert after earlier ones, later after() calls
// before them, as in lol-html.
class Mutations {
  constructor() {
    this.before = [];
    this.replacement = [];
    this.after = [];
    this.removed = false;
  }
  replace(html) {
    this.removed = true;
    this.replacement = [html];
  }
}

// checkHandler returns fn if it is a function, else throws.
function checkHandler(fn, what) {
  if (typeof fn !== "function") throw new TypeError(`${what} must be a function.`);
  return fn;
}

// ---- Element
let elementState;
class Element {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    elementState = (e) => {
      const s = e.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateElement = (e) => { e.#s = null; };
  }

  get tagName() { return lowerASCII(elementState(this).name); }
  set tagName(v) {
    const s = elementState(this);
    v = String(v);
    if (v === "") throw parserError("Tag name can't be empty.");
    if (!/^[A-Za-z]/.test(v)) throw parserError("The first character of the tag name should be an ASCII alphabetical character.");
    const bad = /[ \n\r\t\f/>]/.exec(v);
    if (bad) throw parserError(`\`${bad[0]}\` character is forbidden in the tag name`);
    s.name = v;
    s.renamed = true;
    if (s.canHave) s.endName = v;
  }
  get attributes() {
    const s = elementState(this);
    return s.attrs.map((a) => [a[0], a[1]])[Symbol.iterator]();
  }
  get namespaceURI() { return NAMESPACES[elementState(this).ns]; }
  get removed() { const m = elementState(this).start; return m !== null && m.removed; }
  get selfClosing() { return elementState(this).selfClosing; }
  get canHaveContent() { return elementState(this).canHave; }

  getAttribute(name) {
    const a = findAttr(elementState(this), name);
    return a === undefined ? null : a[1];
  }
  hasAttribute(name) {
    return findAttr(elementState(this), name) !== undefined;
  }
  setAttribute(name, value) {
    const s = elementState(this);
    name = lowerASCII(String(name));
    if (name === "") throw parserError("Attribute name can't be empty.");
    const bad = /[ \n\r\t\f/>=]/.exec(name);
    if (bad) throw parserError(`\`${bad[0]}\` character is forbidden in the attribute name`);
    value = String(value);
    const a = s.attrs.find((x) => x[0] === name);
    if (a !== undefined) {
      a[1] = value;
      a[2] = null;
    } else {
      s.attrs.push([name, value, null]);
    }
    s.attrsChanged = true;
    return this;
  }
  removeAttribute(name) {
    const s = elementState(this);
    name = lowerASCII(String(name));
    const kept = s.attrs.filter((x) => x[0] !== name);
    if (kept.length !== s.attrs.length) {
      s.attrs = kept;
      s.attrsChanged = true;
    }
    return this;
  }

  before(c, options) {
    startMutations(elementState(this)).before.push(content(c, options));
    return this;
  }
  after(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    (s.canHave ? endMutations(s) : startMutations(s)).after.unshift(html);
    return this;
  }
  prepend(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (s.canHave) {
      s.selfClosing = false;
      startMutations(s).after.unshift(html);
    }
    return this;
  }
  append(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (s.canHave) {
      s.selfClosing = false;
      endMutations(s).before.push(html);
    }
    return this;
  }
  setInnerContent(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (s.canHave) {
      s.selfClosing = false;
      removeContent(s);
      startMutations(s).after.unshift(html);
    }
    return this;
  }
  replace(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    startMutations(s).replace(html);
    if (s.canHave) {
      removeContent(s);
      endMutations(s).removed = true;
    }
    return this;
  }
  remove() {
    const s = elementState(this);
    startMutations(s).removed = true;
    if (s.canHave) {
      removeContent(s);
      endMutations(s).removed = true;
    }
    return this;
  }
  removeAndKeepContent() {
    const s = elementState(this);
    startMutations(s).removed = true;
    if (s.canHave) endMutations(s).removed = true;
    return this;
  }
  onEndTag(handler) {
    const s = elementState(this);
    checkHandler(handler, "The end tag handler");
    if (!s.canHave) throw parserError(`${lowerASCII(s.name)} can't have content`);
    s.endHandler = handler;
  }
  get [Symbol.toStringTag]() { return "Element"; }
}

function findAttr(s, name) {
  name = lowerASCII(String(name));
  return s.attrs.find((x) => x[0] === name);
}
function startMutations(s) {
  return s.start || (s.start = new Mutations());
}
function endMutations(s) {
  return s.end || (s.end = new Mutations());
}
function removeContent(s) {
  startMutations(s).after = [];
  if (s.end !== null) s.end.before = [];
  s.removeContent = true;
}

// ElementState is a start tag's state, shared by the Element wrappers
// of its handlers and by its end tag later.
class ElementState {
  constructor(name, rawName, flat, selfClosing, canHave, ns) {
    this.name = rawName;
    this.lname = name;
    this.renamed = false;
    this.attrs = [];
    for (let i = 0; i < flat.length; i += 3) this.attrs.push([flat[i], flat[i + 1], flat[i + 2]]);
    this.attrsChanged = false;
    this.selfClosing = selfClosing;
    this.canHave = canHave;
    this.ns = ns;
    this.start = null;
    this.end = null;
    this.endName = null;
    this.endHandler = null;
    this.removeContent = false;
  }
  // serialize writes the start tag anew, for one a handler changed.
  serialize() {
    let out = "<" + this.name;
    for (const a of this.attrs) out += " " + (a[2] !== null ? a[2] : a[0] + '="' + a[1].replace(/"/g, "&quot;") + '"');
    if (this.selfClosing) return out + (this.attrs.length ? " />" : "/>");
    return out + ">";
  }
  get changed() { return this.renamed || this.attrsChanged; }
}

// ---- EndTag
let endTagState;
class EndTag {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    endTagState = (e) => {
      const s = e.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateEndTag = (e) => { e.#s = null; };
  }
  get name() { return lowerASCII(endTagState(this).name); }
  set name(v) {
    const s = endTagState(this);
    s.name = String(v);
    s.renamed = true;
  }
  before(c, options) {
    const s = endTagState(this);
    (s.m || (s.m = new Mutations())).before.push(content(c, options));
    return this;
  }
  after(c, options) {
    const s = endTagState(this);
    (s.m || (s.m = new Mutations())).after.unshift(content(c, options));
    return this;
  }
  remove() {
    const s = endTagState(this);
    (s.m || (s.m = new Mutations())).removed = true;
    return this;
  }
  get [Symbol.toStringTag]() { return "EndTag"; }
}

// ---- Text (a chunk of a text node)
let textState;
class Text {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    textState = (t) => {
      const s = t.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateText = (t) => { t.#s = null; };
  }
  get text() { return textState(this).text; }
  get lastInTextNode() { return textState(this).last; }
  get removed() { const m = textState(this).m; return m !== null && m.removed; }
  before(c, options) { mutationsOf(textState(this)).before.push(content(c, options)); return this; }
  after(c, options) { mutationsOf(textState(this)).after.unshift(content(c, options)); return this; }
  replace(c, options) { mutationsOf(textState(this)).replace(content(c, options)); return this; }
  remove() { mutationsOf(textState(this)).removed = true; return this; }
  get [Symbol.toStringTag]() { return "Text"; }
}

function mutationsOf(s) {
  return s.m || (s.m = new Mutations());
}

// ---- Comment
let commentState;
class Comment {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    commentState = (c) => {
      const s = c.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateComment = (c) => { c.#s = null; };
  }
  get text() { return commentState(this).text; }
  set text(v) {
    const s = commentState(this);
    v = String(v);
    if (v.includes("-->") || v.includes("--!>") || v.startsWith(">") || v.startsWith("->")) {
      throw parserError("Comment text shouldn't contain a comment-closing sequence.");
    }
    s.text = v;
    s.changed = true;
  }
  get removed() { const m = commentState(this).m; return m !== null && m.removed; }
  before(c, options) { mutationsOf(commentState(this)).before.push(content(c, options)); return this; }
  after(c, options) { mutationsOf(commentState(this)).after.unshift(content(c, options)); return this; }
  replace(c, options) { mutationsOf(commentState(this)).replace(content(c, options)); return this; }
  remove() { mutationsOf(commentState(this)).removed = true; return this; }
  get [Symbol.toStringTag]() { return "Comment"; }
}

// ---- Doctype
let doctypeState;
class Doctype {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    doctypeState = (d) => {
      const s = d.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateDoctype = (d) => { d.#s = null; };
  }
  get name() { return doctypeState(this).name; }
  get publicId() { return doctypeState(this).publicId; }
  get systemId() { return doctypeState(this).systemId; }
  get [Symbol.toStringTag]() { return "Doctype"; }
}

// ---- DocumentEnd
let documentEndState;
class DocumentEnd {
  #s;
  constructor(key, s) {
    if (key !== KEY) throw new TypeError("Illegal constructor");
    this.#s = s;
  }
  static {
    documentEndState = (d) => {
      const s = d.#s;
      if (s === null) throw new TypeError(INVALID);
      return s;
    };
    invalidateDocumentEnd = (d) => { d.#s = null; };
  }
  append(c, options) {
    documentEndState(this).append(content(c, options));
    return this;
  }
  get [Symbol.toStringTag]() { return "DocumentEnd"; }
}
