// Queue: the producer side of Workers Queues. Bodies are encoded here, by
// content type, as the consumer glue (cloudflare.js, decodeBody) decodes
// them: "text" as UTF-8, "json" as JSON text, "bytes" as they are, and
// "v8", the default, as internal.serialize's structured-clone text.
{
  const q = host.bindings;
  const contentTypes = new Set(["text", "bytes", "json", "v8"]);

  // encode returns [encoded body (a string or bytes), content type].
  function encode(body, contentType) {
    if (body === undefined) throw new TypeError("Message body cannot be undefined");
    let type = "v8";
    if (contentType !== undefined) {
      type = String(contentType).toLowerCase();
      if (!contentTypes.has(type)) throw new TypeError(`Unsupported queue message content type: ${contentType}`);
    }
    switch (type) {
      case "text":
        if (typeof body !== "string") throw new TypeError(`Content Type "text" requires a value of type string, but received: ${typeof body}`);
        return [body, type];
      case "bytes":
        if (!(body instanceof ArrayBuffer) && !ArrayBuffer.isView(body)) {
          throw new TypeError(`Content Type "bytes" requires a value of type ArrayBufferView, but received: ${typeof body}`);
        }
        return [body, type];
      case "json": {
        const text = JSON.stringify(body);
        if (text === undefined) throw new TypeError(`Content Type "json" requires a value JSON can represent, but received: ${typeof body}`);
        return [text, type];
      }
      default:
        return [internal.serialize(body), type];
    }
  }

  class WorkerQueue {
    #q;
    constructor(queue) {
      if (queue === undefined) throw new TypeError("Illegal constructor");
      this.#q = queue;
    }
    async send(body, options) {
      const o = options == null ? {} : options;
      const [b, type] = encode(body, o.contentType);
      return q.qSend(this.#q, [[b, type, o.delaySeconds]], false);
    }
    async sendBatch(messages, options) {
      if (messages == null || typeof messages[Symbol.iterator] !== "function") {
        throw new TypeError("sendBatch() takes an iterable of messages ({body, contentType, delaySeconds}).");
      }
      const delay = options == null ? undefined : options.delaySeconds;
      const out = [];
      for (const m of messages) {
        if (m == null || typeof m !== "object") throw new TypeError("sendBatch() takes messages of the form {body, contentType, delaySeconds}.");
        const [b, type] = encode(m.body, m.contentType);
        out.push([b, type, m.delaySeconds === undefined ? delay : m.delaySeconds]);
      }
      return q.qSend(this.#q, out, true);
    }
    get [Symbol.toStringTag]() { return "WorkerQueue"; }
  }
  internal.queueProducer = (queue) => new WorkerQueue(queue);
}
