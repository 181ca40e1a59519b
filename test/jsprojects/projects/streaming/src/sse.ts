// Server-sent events, one every interval milliseconds. Each event carries
// the time it was produced, so that a client can tell that the first
// arrived before the last was made.

const encoder = new TextEncoder();

function event(i: number, n: number): Uint8Array {
	return encoder.encode(`id: ${i}\nevent: tick\ndata: ${JSON.stringify({ i, of: n, producedAt: Date.now() })}\n\n`);
}

const headers = { "content-type": "text/event-stream", "cache-control": "no-store" };

/** pullEvents is a ReadableStream whose start schedules the events with setTimeout. */
export function pullEvents(n: number, interval: number): Response {
	let timer: ReturnType<typeof setTimeout> | undefined;
	const body = new ReadableStream<Uint8Array>({
		start(controller) {
			let i = 0;
			const tick = () => {
				controller.enqueue(event(i, n));
				i++;
				if (i < n) timer = setTimeout(tick, interval);
				else controller.close();
			};
			tick();
		},
		cancel() {
			if (timer !== undefined) clearTimeout(timer);
		},
	});
	return new Response(body, { headers });
}

/** writerEvents writes the events into a TransformStream from a loop that awaits a timer between them. */
export function writerEvents(n: number, interval: number, ctx: ExecutionContext): Response {
	const { readable, writable } = new TransformStream<Uint8Array, Uint8Array>();
	const writer = writable.getWriter();
	const produce = async () => {
		try {
			for (let i = 0; i < n; i++) {
				if (i > 0) await new Promise((r) => setTimeout(r, interval));
				await writer.write(event(i, n));
			}
			await writer.close();
		} catch (e) {
			await writer.abort(e);
		}
	};
	ctx.waitUntil(produce());
	return new Response(readable, { headers });
}
