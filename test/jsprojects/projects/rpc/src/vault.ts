import { DurableObject } from "cloudflare:workers";

/** VaultError is what a refused operation throws; callers see its message. */
export class VaultError extends Error {
	constructor(message: string) {
		super(message);
		this.name = "VaultError";
	}
}

/** Sample is the structured value the round trip carries. */
export interface Sample {
	when: Date;
	tags: Map<string, number>;
	nested: { list: unknown[]; flags: Set<string>; note?: string };
}

/**
 * A Vault keeps balances and values in its storage's key-value API, and
 * rings an alarm it is asked to set.
 */
export class Vault extends DurableObject {
	/** describe inspects a structured value and answers with new ones. */
	async describe(s: Sample) {
		return {
			isDate: s.when instanceof Date,
			isMap: s.tags instanceof Map,
			isSet: s.nested.flags instanceof Set,
			total: [...s.tags.values()].reduce((a, b) => a + b, 0),
			later: new Date(s.when.getTime() + 86_400_000),
			inverted: new Map([...s.tags].map(([k, v]) => [v, k])),
			nested: { ...s.nested, flags: [...s.nested.flags].sort(), depth: depth(s.nested) },
		};
	}

	/** fail throws, so that the caller sees the error. */
	async fail(message: string): Promise<never> {
		throw new VaultError(message);
	}

	async put(entries: Record<string, unknown>): Promise<number> {
		await this.ctx.storage.put(entries);
		return Object.keys(entries).length;
	}

	async get(keys: string[]): Promise<Record<string, unknown>> {
		const got = await this.ctx.storage.get(keys);
		return Object.fromEntries(got);
	}

	async list(opts: DurableObjectListOptions): Promise<Array<[string, unknown]>> {
		return [...(await this.ctx.storage.list(opts))];
	}

	async remove(keys: string[]): Promise<number> {
		return this.ctx.storage.delete(keys);
	}

	/** stamp stores a Date, which storage keeps as a Date. */
	async stamp(key: string, at: Date): Promise<boolean> {
		await this.ctx.storage.put(key, at);
		const back = await this.ctx.storage.get<Date>(key);
		return back instanceof Date && back.getTime() === at.getTime();
	}

	/** transfer moves amount between two balances, all or nothing. */
	async transfer(from: string, to: string, amount: number): Promise<Record<string, number>> {
		return this.ctx.storage.transaction(async (txn) => {
			const a = (await txn.get<number>(from)) ?? 0;
			const b = (await txn.get<number>(to)) ?? 0;
			await txn.put(from, a - amount);
			await txn.put(to, b + amount);
			if (a < amount) {
				// Written first and thrown after: the throw must undo both puts.
				throw new VaultError(`insufficient funds: ${from} has ${a}, needs ${amount}`);
			}
			return { [from]: a - amount, [to]: b + amount };
		});
	}

	async arm(inMs: number): Promise<number | null> {
		await this.ctx.storage.setAlarm(Date.now() + inMs);
		return this.ctx.storage.getAlarm();
	}

	async alarmState(): Promise<{ scheduled: number | null; rang: number; last: unknown }> {
		const [scheduled, rang, last] = await Promise.all([
			this.ctx.storage.getAlarm(),
			this.ctx.storage.get<number>("alarm:rang"),
			this.ctx.storage.get("alarm:last"),
		]);
		return { scheduled, rang: rang ?? 0, last: last ?? null };
	}

	async alarm(info?: AlarmInvocationInfo): Promise<void> {
		const rang = (await this.ctx.storage.get<number>("alarm:rang")) ?? 0;
		await this.ctx.storage.put({ "alarm:rang": rang + 1, "alarm:last": { at: Date.now(), retryCount: info?.retryCount ?? 0 } });
	}

	async fetch(req: Request): Promise<Response> {
		const hits = ((await this.ctx.storage.get<number>("hits")) ?? 0) + 1;
		await this.ctx.storage.put("hits", hits);
		return Response.json({ id: this.ctx.id.toString(), name: this.ctx.id.name ?? null, hits, path: new URL(req.url).pathname });
	}
}

function depth(v: unknown): number {
	if (Array.isArray(v)) return 1 + Math.max(0, ...v.map(depth));
	if (v !== null && typeof v === "object" && !(v instanceof Set) && !(v instanceof Map) && !(v instanceof Date)) {
		return 1 + Math.max(0, ...Object.values(v).map(depth));
	}
	return 0;
}
