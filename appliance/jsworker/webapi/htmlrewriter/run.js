// The rewriting of one document: the scanner's entries in (see
// natives.go's flatten), handler calls in order, each awaited when it
// returns a promise, and the output out as ops for the scanner's join:
// strings, and [start, end) offsets of input bytes no handler changed.
const natives = host.htmlrewriter;
const START = 1, END = 2, TEXT = 3, COMMENT = 4, DOCTYPE = 5;
const K_ELEMENT = 1, K_COMMENTS = 2, K_TEXT = 4, K_DOCTYPE = 8, K_END = 16;

function isThenable(r) {
  return r !== null && (typeof r === "object" || typeof r === "function") && typeof r.then === "function";
}

// callHandler calls fn with a token wrapper and ends the wrapper's
// validity when fn returns, or when the promise it returned settles (it
// returns that promise then, else undefined).
function callHandler(fn, thisArg, w, invalidate) {
  let r;
  try {
    r = fn.call(thisArg, w);
  } catch (err) {
    invalidate(w);
    throw err;
  }
  if (isThenable(r)) {
    return Promise.resolve(r).then(() => { invalidate(w); }, (err) => { invalidate(w); throw err; });
  }
  invalidate(w);
  return undefined;
}

class Job {
  constructor(regs) {
    this.regs = regs;
    this.scanner = natives.newScanner(regs.map((r) => r.selector), regs.map((r) => r.kinds));
    this.stack = []; // the ElementStates of open elements that had element handlers
    this.suppress = 0; // how many of them had their content removed
    this.ops = [];
    this.lastEnd = -1;
    this.pos = 0;
  }

  // range outputs input bytes [a, b) of the current window.
  range(a, b) {
    if (this.suppress > 0 || a >= b) return;
    if (this.lastEnd === a) {
      this.ops[this.ops.length - 1] = b;
    } else {
      this.ops.push(a, b);
    }
    this.lastEnd = b;
  }
  html(s) {
    if (this.suppress > 0 || s === "") return;
    this.ops.push(s);
    this.lastEnd = -1;
  }
  htmls(list) {
    for (let k = 0; k < list.length; k++) this.html(list[k]);
  }
  // token outputs a token: its mutations around self (a string) or, when
  // self is null, its bytes [start, end).
  token(m, start, end, self) {
    if (m !== null) this.htmls(m.before);
    if (m !== null && m.removed) this.htmls(m.replacement);
    else if (self !== null) this.html(self);
    else this.range(start, end);
    if (m !== null) this.htmls(m.after);
  }

  // feed rewrites a chunk (bytes, a string, or null with final) and
  // returns the ops of its output.
  async feed(chunk, final) {
    await this.run(this.scanner.feed(chunk, final));
    if (final) await this.end();
    const ops = this.ops;
    this.ops = [];
    this.lastEnd = -1;
    return ops;
  }

  async run(e) {
    const n = e.length;
    let i = 1;
    while (i < n) {
      const kind = e[i], start = e[i + 1], end = e[i + 2];
      const r0 = i + 4, f = r0 + e[i + 3];
      this.range(this.pos, start);
      this.pos = end;
      switch (kind) {
        case START: {
          const s = newElementState(e, f);
          if (this.suppress > 0) startMutations(changesOf(s)).removed = true;
          for (let k = r0; k < f; k++) {
            const reg = this.regs[e[k]];
            const p = callHandler(reg.element, reg.handlers, new Element(KEY, s), invalidateElement);
            if (p !== undefined) await p;
          }
          const x = s[S_CHANGES];
          if (x === null) this.range(start, end);
          else this.token(x.start, start, end, x.renamed || x.attrsChanged ? serializeStart(s) : null);
          if (e[f + 4]) {
            this.stack.push(s);
            if (x !== null && x.removeContent) this.suppress++;
          }
          i = f + 6;
          break;
        }
        case END: {
          // The end tag goes through what each element it closes set up,
          // innermost first, as lol-html does.
          const stack = this.stack;
          const base = stack.length - e[f + 1];
          let tok = null;
          for (let k = stack.length - 1; k >= base; k--) {
            const x = stack[k][S_CHANGES];
            if (x === null) continue;
            if (x.removeContent) this.suppress--;
            if (x.endName === null && x.end === null && x.endHandler === null) continue;
            if (tok === null) tok = { name: e[f], renamed: false, m: null };
            if (x.endName !== null) {
              tok.name = x.endName;
              tok.renamed = true;
            }
            if (x.end !== null) tok.m = x.end;
            if (x.endHandler !== null) {
              const p = callHandler(x.endHandler, undefined, new EndTag(KEY, tok), invalidateEndTag);
              if (p !== undefined) await p;
            }
          }
          stack.length = base;
          if (tok === null) this.range(start, end);
          else this.token(tok.m, start, end, tok.renamed ? "</" + tok.name + ">" : null);
          i = f + 2;
          break;
        }
        case TEXT: {
          const tok = { text: e[f], last: e[f + 1], m: null };
          for (let k = r0; k < f; k++) {
            const reg = this.regs[e[k]];
            const p = callHandler(reg.text, reg.handlers, new Text(KEY, tok), invalidateText);
            if (p !== undefined) await p;
          }
          this.token(tok.m, start, end, null);
          i = f + 2;
          break;
        }
        case COMMENT: {
          const tok = { text: e[f], changed: false, m: null };
          for (let k = r0; k < f; k++) {
            const reg = this.regs[e[k]];
            const p = callHandler(reg.comments, reg.handlers, new Comment(KEY, tok), invalidateComment);
            if (p !== undefined) await p;
          }
          this.token(tok.m, start, end, tok.changed ? "<!--" + tok.text + "-->" : null);
          i = f + 1;
          break;
        }
        case DOCTYPE: {
          const tok = { name: e[f], publicId: e[f + 1], systemId: e[f + 2] };
          for (let k = r0; k < f; k++) {
            const reg = this.regs[e[k]];
            const p = callHandler(reg.doctype, reg.handlers, new Doctype(KEY, tok), invalidateDoctype);
            if (p !== undefined) await p;
          }
          this.range(start, end);
          i = f + 3;
          break;
        }
        default:
          throw new TypeError("HTMLRewriter: unknown entry kind " + kind);
      }
    }
    this.range(this.pos, e[0]);
    this.pos = 0;
  }

  // end runs the document end handlers, the last registered first (as
  // lol-html does); what they append goes out even inside removed
  // content.
  async end() {
    const state = {
      append: (html) => {
        if (html === "") return;
        this.ops.push(html);
        this.lastEnd = -1;
      },
    };
    for (let k = this.regs.length - 1; k >= 0; k--) {
      const reg = this.regs[k];
      if (reg.end === undefined) continue;
      const p = callHandler(reg.end, reg.handlers, new DocumentEnd(KEY, state), invalidateDocumentEnd);
      if (p !== undefined) await p;
    }
  }
}
