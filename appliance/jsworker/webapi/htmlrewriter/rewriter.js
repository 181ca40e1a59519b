// HTMLRewriter: handlers registered with on() and onDocument(), run over
// a Response's body by transform().
let registrationsOf;

// handlersOf reads the handler functions of a handlers object once, as
// workerd does when it converts the object.
function handlersOf(handlers, names, method) {
  if (handlers === null || (typeof handlers !== "object" && typeof handlers !== "function")) {
    throw new TypeError(`Failed to execute '${method}' on 'HTMLRewriter': the handlers must be an object.`);
  }
  const reg = { handlers, kinds: 0 };
  for (const [name, bit] of names) {
    const fn = handlers[name];
    if (fn === undefined) continue;
    if (typeof fn !== "function") {
      throw new TypeError(`Failed to execute '${method}' on 'HTMLRewriter': the ${name} handler must be a function.`);
    }
    reg[name] = fn;
    reg.kinds |= bit;
  }
  return reg;
}

class HTMLRewriter {
  #regs = [];

  on(selector, handlers) {
    selector = String(selector);
    natives.checkSelector(selector);
    const reg = handlersOf(handlers, [["element", K_ELEMENT], ["comments", K_COMMENTS], ["text", K_TEXT]], "on");
    reg.selector = selector;
    this.#regs.push(reg);
    return this;
  }

  onDocument(handlers) {
    const reg = handlersOf(handlers, [["doctype", K_DOCTYPE], ["comments", K_COMMENTS], ["text", K_TEXT], ["end", K_END]], "onDocument");
    reg.selector = null;
    this.#regs.push(reg);
    return this;
  }

  // transform returns a Response like response whose body is response's
  // body rewritten, as it is read.
  transform(response) {
    if (!global.Response || !(response instanceof global.Response)) {
      throw new TypeError("Failed to execute 'transform' on 'HTMLRewriter': parameter 1 is not of type 'Response'.");
    }
    if (!global.ReadableStream) throw new TypeError("HTMLRewriter.transform needs ReadableStream, which the streams extension defines.");
    if (response.bodyUsed) {
      throw new TypeError("This ReadableStream is disturbed (has already been read from), and cannot be used as a body.");
    }
    const input = response.body;
    if (input === null) return response;
    const reader = input.getReader();
    const job = new Job(this.#regs.slice());
    let done = false;
    const output = new ReadableStream({
      async pull(controller) {
        try {
          while (!done) {
            const r = await reader.read();
            let chunk = null;
            if (r.done) {
              done = true;
            } else {
              chunk = r.value;
              if (typeof chunk !== "string" && !(chunk instanceof ArrayBuffer) && !ArrayBuffer.isView(chunk)) {
                throw new TypeError("HTMLRewriter: the body's stream gave a chunk that is not bytes.");
              }
            }
            const out = job.scanner.join(await job.feed(chunk, done));
            if (out.byteLength > 0) {
              controller.enqueue(out);
              if (!done) return;
            }
          }
          controller.close();
        } catch (err) {
          done = true;
          reader.cancel(err).catch(() => {});
          throw err;
        }
      },
      cancel(reason) {
        done = true;
        return reader.cancel(reason);
      },
    }, { highWaterMark: 0 });
    const res = new global.Response(output, response);
    res.headers.delete("content-length");
    return res;
  }

  get [Symbol.toStringTag]() { return "HTMLRewriter"; }

  static {
    registrationsOf = (rw) => rw.#regs;
  }
}
internal.defineGlobal("HTMLRewriter", HTMLRewriter);

// internal.rewriteHTML(rewriter, input, options) rewrites input without
// streams and resolves to the output string. input is a string (fed
// whole, or in options.chunkSize-byte pieces of its UTF-8) or an array
// of chunks (strings or bytes).
internal.rewriteHTML = async function rewriteHTML(rewriter, input, options) {
  if (!(rewriter instanceof HTMLRewriter)) throw new TypeError("rewriteHTML needs an HTMLRewriter");
  let chunks;
  if (Array.isArray(input)) chunks = input;
  else if (options && options.chunkSize) chunks = natives.utf8Chunks(String(input), options.chunkSize);
  else chunks = [String(input)];
  const job = new Job(registrationsOf(rewriter).slice());
  const out = [];
  for (const c of chunks) out.push(job.scanner.joinText(await job.feed(c, false)));
  out.push(job.scanner.joinText(await job.feed(null, true)));
  return out.join("");
};
