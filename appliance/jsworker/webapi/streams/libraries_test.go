package streams

import "testing"

// TestLibraryPatterns runs the stream code of libraries Workers apps use,
// reduced to what touches the streams.
func TestLibraryPatterns(t *testing.T) {
	runCases(t, newIsolate(t), []jsCase{
		{"Hono's StreamingApi: a TransformStream re-read by a pulling ReadableStream", `
			class StreamingApi {
			  constructor(writable, readable) {
			    this.writer = writable.getWriter();
			    this.encoder = new TextEncoder();
			    this.aborted = false;
			    const reader = readable.getReader();
			    this.responseReadable = new ReadableStream({
			      async pull(controller) {
			        const { done, value } = await reader.read();
			        done ? controller.close() : controller.enqueue(value);
			      },
			      cancel: () => { this.aborted = true; },
			    });
			  }
			  async write(input) { if (typeof input === "string") input = this.encoder.encode(input); await this.writer.write(input); return this; }
			  async close() { await this.writer.close(); }
			}
			const { readable, writable } = new TransformStream();
			const api = new StreamingApi(writable, readable);
			(async () => {
			  for (let i = 0; i < 3; i++) await api.write("data: " + i + "\n\n");
			  await api.close();
			})();
			return await internals.readAllText(api.responseReadable);`,
			`"data: 0\n\ndata: 1\n\ndata: 2\n\n"`},
		{"Hono's StreamingApi: the client going away cancels the stream", `
			let aborted = false;
			const { readable, writable } = new TransformStream();
			const reader = readable.getReader();
			const body = new ReadableStream({
			  async pull(c) { const { done, value } = await reader.read(); done ? c.close() : c.enqueue(value); },
			  cancel() { aborted = true; },
			});
			const w = writable.getWriter();
			w.write(new Uint8Array([1]));
			const cr = internals.chunkReader(body);
			await cr.next();
			await cr.cancel(new Error("client disconnected"));
			return aborted;`,
			`true`},
		{"an SSE parser as a TransformStream subclass after TextDecoderStream (AI SDKs)", `
			class EventSourceParserStream extends TransformStream {
			  constructor() {
			    let buffer = "";
			    super({
			      transform(chunk, controller) {
			        buffer += chunk;
			        let i;
			        while ((i = buffer.indexOf("\n\n")) >= 0) {
			          const event = buffer.slice(0, i);
			          buffer = buffer.slice(i + 2);
			          controller.enqueue(event.replace(/^data: /, ""));
			        }
			      },
			    });
			  }
			}
			const enc = new TextEncoder().encode("data: {\"a\":1}\n\ndata: {\"b\":\"é\"}\n\n");
			const parts = [enc.subarray(0, 5), enc.subarray(5, 17), enc.subarray(17)];
			const events = ReadableStream.from(parts).pipeThrough(new TextDecoderStream()).pipeThrough(new EventSourceParserStream());
			const out = [];
			const it = events[Symbol.asyncIterator || Symbol.for("Symbol.asyncIterator")]();
			for (;;) { const { value, done } = await it.next(); if (done) break; out.push(JSON.parse(value)); }
			return [out, events instanceof ReadableStream];`,
			`[[{"a":1},{"b":"é"}],true]`},
		{"for await with break, as esbuild lowers it", `
			const __knownSymbol = (name, symbol) => (symbol = Symbol[name]) ? symbol : Symbol.for("Symbol." + name);
			let canceled = false;
			let n = 0;
			const rs = new ReadableStream({ pull(c) { c.enqueue(++n); }, cancel() { canceled = true; } });
			const it = rs[__knownSymbol("asyncIterator")]();
			const seen = [];
			try {
			  for (let step; !(step = await it.next()).done;) {
			    seen.push(step.value);
			    if (step.value === 2) break;
			  }
			} finally {
			  await it.return?.();
			}
			return [seen, canceled, rs.locked];`,
			`[[1,2],true,false]`},
		{"a response body made by a start function that enqueues later", `
			const body = new ReadableStream({
			  start(controller) {
			    let i = 0;
			    const id = setInterval(() => {
			      controller.enqueue(new TextEncoder().encode("tick " + i++ + "\n"));
			      if (i === 3) { clearInterval(id); controller.close(); }
			    }, 1);
			  },
			});
			return await internals.readAllText(body);`,
			`"tick 0\ntick 1\ntick 2\n"`},
	})
}
