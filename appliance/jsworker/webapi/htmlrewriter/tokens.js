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
// An element's state is a small array shared by the wrappers of its
// handlers and by its end tag later: the scanner's entries and the offset
// of the start tag's fields there (see natives.go's flatten), and the
// record of what handlers changed, made on the first change.
const S_ENTRIES = 0, S_AT = 1, S_CHANGES = 2;

function newElementState(e, f) {
  return [e, f, null];
}

// changesOf returns the element's change record, making it.
function changesOf(s) {
  let x = s[S_CHANGES];
  if (x === null) {
    const e = s[S_ENTRIES], f = s[S_AT];
    x = s[S_CHANGES] = {
      name: e[f + 1], // as it is written out
      renamed: false,
      attrs: null, // [name, value, raw or null] once changed
      attrsChanged: false,
      selfClosing: e[f + 3],
      start: null, // Mutations of the start tag
      end: null, // Mutations of the end tag
      endName: null,
      endHandler: null,
      removeContent: false,
    };
  }
  return x;
}

// attrsOf returns the element's attributes as [name, value, raw] arrays
// that handlers may change.
function attrsOf(s) {
  const x = changesOf(s);
  if (x.attrs === null) {
    const flat = s[S_ENTRIES][s[S_AT] + 2];
    x.attrs = [];
    for (let i = 0; i < flat.length; i += 3) x.attrs.push([flat[i], flat[i + 1], flat[i + 2]]);
  }
  return x.attrs;
}

// findAttr returns the index of the first attribute named name (ASCII
// case-insensitively) in a flat [name, value, raw…] list or a list of
// triples, or -1.
function findAttr(s, name) {
  name = String(name);
  const x = s[S_CHANGES];
  const list = x !== null && x.attrs !== null ? x.attrs : null;
  for (let pass = 0; pass < 2; pass++) {
    if (list !== null) {
      for (let i = 0; i < list.length; i++) if (list[i][0] === name) return i;
    } else {
      const flat = s[S_ENTRIES][s[S_AT] + 2];
      for (let i = 0; i < flat.length; i += 3) if (flat[i] === name) return i;
    }
    const lower = lowerASCII(name);
    if (lower === name) break;
    name = lower;
  }
  return -1;
}

function canHaveContent(s) {
  return s[S_ENTRIES][s[S_AT] + 4];
}

function startMutations(x) {
  return x.start || (x.start = new Mutations());
}
function endMutations(x) {
  return x.end || (x.end = new Mutations());
}
function removeContent(x) {
  startMutations(x).after = [];
  if (x.end !== null) x.end.before = [];
  x.removeContent = true;
}

// serializeStart writes a start tag anew, for one a handler changed.
function serializeStart(s) {
  const x = s[S_CHANGES];
  const attrs = x.attrs !== null ? x.attrs : attrsOf(s);
  let out = "<" + x.name;
  for (let i = 0; i < attrs.length; i++) {
    const a = attrs[i];
    out += " " + (a[2] !== null ? a[2] : a[0] + '="' + a[1].replace(/"/g, "&quot;") + '"');
  }
  if (x.selfClosing) return out + (attrs.length ? " />" : "/>");
  return out + ">";
}

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

  get tagName() {
    const s = elementState(this);
    const x = s[S_CHANGES];
    return x === null ? s[S_ENTRIES][s[S_AT]] : lowerASCII(x.name);
  }
  set tagName(v) {
    const s = elementState(this);
    v = String(v);
    if (v === "") throw parserError("Tag name can't be empty.");
    if (!/^[A-Za-z]/.test(v)) throw parserError("The first character of the tag name should be an ASCII alphabetical character.");
    const bad = /[ \n\r\t\f/>]/.exec(v);
    if (bad) throw parserError(`\`${bad[0]}\` character is forbidden in the tag name`);
    const x = changesOf(s);
    x.name = v;
    x.renamed = true;
    if (canHaveContent(s)) x.endName = v;
  }
  get attributes() {
    const s = elementState(this);
    const x = s[S_CHANGES];
    const out = [];
    if (x !== null && x.attrs !== null) {
      for (let i = 0; i < x.attrs.length; i++) out.push([x.attrs[i][0], x.attrs[i][1]]);
    } else {
      const flat = s[S_ENTRIES][s[S_AT] + 2];
      for (let i = 0; i < flat.length; i += 3) out.push([flat[i], flat[i + 1]]);
    }
    return out[Symbol.iterator]();
  }
  get namespaceURI() {
    const s = elementState(this);
    return NAMESPACES[s[S_ENTRIES][s[S_AT] + 5]];
  }
  get removed() {
    const x = elementState(this)[S_CHANGES];
    return x !== null && x.start !== null && x.start.removed;
  }
  get selfClosing() {
    const s = elementState(this);
    const x = s[S_CHANGES];
    return x === null ? s[S_ENTRIES][s[S_AT] + 3] : x.selfClosing;
  }
  get canHaveContent() { return canHaveContent(elementState(this)); }

  getAttribute(name) {
    const s = elementState(this);
    const i = findAttr(s, name);
    if (i < 0) return null;
    const x = s[S_CHANGES];
    return x !== null && x.attrs !== null ? x.attrs[i][1] : s[S_ENTRIES][s[S_AT] + 2][i + 1];
  }
  hasAttribute(name) {
    return findAttr(elementState(this), name) >= 0;
  }
  setAttribute(name, value) {
    const s = elementState(this);
    name = lowerASCII(String(name));
    if (name === "") throw parserError("Attribute name can't be empty.");
    const bad = /[ \n\r\t\f/>=]/.exec(name);
    if (bad) throw parserError(`\`${bad[0]}\` character is forbidden in the attribute name`);
    value = String(value);
    const attrs = attrsOf(s);
    const i = findAttr(s, name);
    if (i >= 0) {
      attrs[i][1] = value;
      attrs[i][2] = null;
    } else {
      attrs.push([name, value, null]);
    }
    s[S_CHANGES].attrsChanged = true;
    return this;
  }
  removeAttribute(name) {
    const s = elementState(this);
    name = lowerASCII(String(name));
    if (findAttr(s, name) < 0) return this;
    const x = changesOf(s);
    x.attrs = attrsOf(s).filter((a) => a[0] !== name);
    x.attrsChanged = true;
    return this;
  }

  before(c, options) {
    const x = changesOf(elementState(this));
    startMutations(x).before.push(content(c, options));
    return this;
  }
  after(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    const x = changesOf(s);
    (canHaveContent(s) ? endMutations(x) : startMutations(x)).after.unshift(html);
    return this;
  }
  prepend(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (canHaveContent(s)) {
      const x = changesOf(s);
      x.selfClosing = false;
      startMutations(x).after.unshift(html);
    }
    return this;
  }
  append(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (canHaveContent(s)) {
      const x = changesOf(s);
      x.selfClosing = false;
      endMutations(x).before.push(html);
    }
    return this;
  }
  setInnerContent(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    if (canHaveContent(s)) {
      const x = changesOf(s);
      x.selfClosing = false;
      removeContent(x);
      startMutations(x).after.unshift(html);
    }
    return this;
  }
  replace(c, options) {
    const s = elementState(this);
    const html = content(c, options);
    const x = changesOf(s);
    startMutations(x).replace(html);
    if (canHaveContent(s)) {
      removeContent(x);
      endMutations(x).removed = true;
    }
    return this;
  }
  remove() {
    const s = elementState(this);
    const x = changesOf(s);
    startMutations(x).removed = true;
    if (canHaveContent(s)) {
      removeContent(x);
      endMutations(x).removed = true;
    }
    return this;
  }
  removeAndKeepContent() {
    const s = elementState(this);
    const x = changesOf(s);
    startMutations(x).removed = true;
    if (canHaveContent(s)) endMutations(x).removed = true;
    return this;
  }
  onEndTag(handler) {
    const s = elementState(this);
    checkHandler(handler, "The end tag handler");
    if (!canHaveContent(s)) throw parserError(`${this.tagName} can't have content`);
    changesOf(s).endHandler = handler;
  }
  get [Symbol.toStringTag]() { return "Element"; }
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
