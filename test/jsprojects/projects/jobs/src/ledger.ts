// The ledger: one KV key per event, never overwritten (a random suffix),
// so that a duplicate delivery or a doubled tick shows as a second key.
//   attempt:<job>:<n>:<uuid>  a delivery of a job (n = msg.attempts), its encoding as value
//   acked:<job>:<uuid>        the job succeeded and was acked
//   dead:<job>:<uuid>         the dead-letter handler got the job
//   cron:<scheduledTime>:<uuid>  a cron tick, its expression as value

export async function record(kv: KVNamespace, key: string, value: string): Promise<void> {
	await kv.put(`${key}:${crypto.randomUUID()}`, value);
}

/** entries lists every key under prefix with its value, following cursors. */
export async function entries(kv: KVNamespace, prefix: string): Promise<Array<[string[], string]>> {
	const out: Array<[string[], string]> = [];
	let cursor: string | undefined;
	for (;;) {
		const page = await kv.list({ prefix, cursor });
		const values = await Promise.all(page.keys.map((k) => kv.get(k.name)));
		page.keys.forEach((k, i) => out.push([k.name.split(":"), values[i] ?? ""]));
		if (page.list_complete) return out;
		cursor = page.cursor;
	}
}

export interface Ledger {
	attempts: Record<string, number[]>;
	encodings: Record<string, string[]>;
	acked: Record<string, number>;
	dead: Record<string, number>;
}

export async function ledger(kv: KVNamespace): Promise<Ledger> {
	const l: Ledger = { attempts: {}, encodings: {}, acked: {}, dead: {} };
	for (const [[, job, n], as] of await entries(kv, "attempt:")) {
		(l.attempts[job] ??= []).push(Number(n));
		(l.encodings[job] ??= []).push(as);
	}
	for (const job of Object.keys(l.attempts)) l.attempts[job].sort((a, b) => a - b);
	for (const [[, job]] of await entries(kv, "acked:")) l.acked[job] = (l.acked[job] ?? 0) + 1;
	for (const [[, job]] of await entries(kv, "dead:")) l.dead[job] = (l.dead[job] ?? 0) + 1;
	return l;
}

export async function ticks(kv: KVNamespace): Promise<Array<{ time: number; cron: string }>> {
	return (await entries(kv, "cron:")).map(([[, t], cron]) => ({ time: Number(t), cron })).sort((a, b) => a.time - b.time);
}
