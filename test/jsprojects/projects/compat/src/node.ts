// Node.js modules as nodejs_compat provides them. Each check returns what
// it computed; the tests compare with Go's own answers.
import { AsyncLocalStorage } from "node:async_hooks";
import { Buffer } from "node:buffer";
import { createHash, createHmac, randomUUID, timingSafeEqual } from "node:crypto";
import { EventEmitter, once } from "node:events";
import path from "node:path";
import util from "node:util";

export async function nodeChecks(): Promise<Record<string, unknown>> {
	const buf = Buffer.from("héllo wörld", "utf8");
	const word = Buffer.alloc(4);
	word.writeUInt32BE(0xdeadbeef);

	const emitter = new EventEmitter();
	const heard: string[] = [];
	emitter.on("note", (a: string, b: string) => heard.push(`${a}+${b}`));
	emitter.once("note", () => heard.push("once"));
	emitter.emit("note", "x", "y");
	emitter.emit("note", "z", "w");
	setTimeout(() => emitter.emit("ready", 42), 5);
	const [ready] = await once(emitter, "ready");

	const sleep = util.promisify((ms: number, cb: (err: null, v: string) => void) => setTimeout(() => cb(null, `slept ${ms}`), ms));

	return {
		buffer: {
			base64: buf.toString("base64"),
			hex: Buffer.from([1, 2, 254, 255]).toString("hex"),
			byteLength: buf.byteLength,
			word: word.toString("hex"),
			readBack: word.readUInt32BE(0),
			concat: Buffer.concat([Buffer.from("ab"), Buffer.from("cd")]).toString(),
			isBuffer: Buffer.isBuffer(buf) && buf instanceof Uint8Array,
		},
		events: { heard, ready, listeners: emitter.listenerCount("note") },
		crypto: {
			sha256: createHash("sha256").update("abc").digest("hex"),
			sha1Chunks: createHash("sha1").update("a").update(Buffer.from("bc")).digest("base64"),
			hmac: createHmac("sha256", "key").update("The quick brown fox jumps over the lazy dog").digest("hex"),
			uuid: randomUUID(),
			equal: timingSafeEqual(Buffer.from("secret"), Buffer.from("secret")),
			unequal: timingSafeEqual(Buffer.from("secret"), Buffer.from("secreT")),
		},
		util: {
			format: util.format("%s=%d %j", "answer", 42, { ok: true }),
			inspect: util.inspect({ a: [1, { b: "two" }] }, { depth: 4 }),
			isDate: util.types.isDate(new Date()),
			promisified: await sleep(5),
		},
		path: {
			join: path.join("/srv/app", "../data", "./notes.txt"),
			extname: path.extname("archive.tar.gz"),
			basename: path.basename("/a/b/report.pdf", ".pdf"),
			relative: path.posix.relative("/a/b/c", "/a/d"),
			parse: path.parse("/home/u/file.txt"),
		},
		env: { greeting: process.env.GREETING ?? null, limitsType: typeof process.env.LIMITS },
	};
}

const requestContext = new AsyncLocalStorage<{ id: string; steps: string[] }>();

/** traced runs a request's work in its own context; the store must follow it across awaits and timers. */
export function traced(id: string): Promise<{ id: string; seen: string[] }> {
	return requestContext.run({ id, steps: [] }, async () => {
		const seen: string[] = [];
		const look = (where: string) => seen.push(`${where}:${requestContext.getStore()?.id ?? "none"}`);
		look("start");
		await new Promise((r) => setTimeout(r, 5 + Math.floor(Math.random() * 20)));
		look("timer");
		await Promise.resolve();
		look("microtask");
		await new Promise<void>((r) => queueMicrotask(r));
		look("queueMicrotask");
		const inner = await Promise.all([1, 2].map(async (n) => {
			await new Promise((r) => setTimeout(r, n * 3));
			return `inner${n}:${requestContext.getStore()?.id ?? "none"}`;
		}));
		seen.push(...inner);
		return { id, seen };
	});
}

/** outside reads the store where no run is active. */
export function outside(): string {
	return requestContext.getStore()?.id ?? "none";
}
