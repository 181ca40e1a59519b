import { decode, encode, isJob, type Encoding } from "./jobs";
import { ledger, record, ticks } from "./ledger";

interface Env {
	LEDGER: KVNamespace;
	JOBS: Queue;
}

const json = (v: unknown, status = 200) => Response.json(v, { status });

export default {
	async fetch(req, env) {
		const path = new URL(req.url).pathname;
		if (req.method === "POST" && path === "/jobs/send") {
			const j: unknown = await req.json();
			if (!isJob(j)) return json({ error: "a job is {id, failures, as?}" }, 400);
			const { body, contentType } = encode(j, j.as ?? "json");
			await env.JOBS.send(body, { contentType });
			return json({ sent: 1 }, 202);
		}
		if (req.method === "POST" && path === "/jobs/batch") {
			const { jobs } = await req.json<{ jobs: unknown[] }>();
			if (!Array.isArray(jobs) || !jobs.every(isJob)) return json({ error: "jobs is a list of {id, failures, as?}" }, 400);
			await env.JOBS.sendBatch(jobs.map((j) => encode(j, j.as ?? "json")));
			return json({ sent: jobs.length }, 202);
		}
		if (path === "/jobs/ledger") return json(await ledger(env.LEDGER));
		if (path === "/jobs/ticks") return json(await ticks(env.LEDGER));
		return json({ error: `no route for ${req.method} ${path}` }, 404);
	},

	async queue(batch, env) {
		if (batch.queue === "jobs-dlq") {
			for (const msg of batch.messages) {
				const job = decode(msg.body);
				await record(env.LEDGER, `dead:${job.id}`, String(msg.attempts));
				msg.ack();
			}
			return;
		}
		for (const msg of batch.messages) {
			const job = decode(msg.body);
			await record(env.LEDGER, `attempt:${job.id}:${msg.attempts}`, job.as satisfies Encoding | "other");
			if (job.failures === "always" || msg.attempts <= job.failures) {
				msg.retry();
				continue;
			}
			await record(env.LEDGER, `acked:${job.id}`, String(msg.attempts));
			msg.ack();
		}
	},

	async scheduled(controller, env, ctx) {
		ctx.waitUntil(record(env.LEDGER, `cron:${controller.scheduledTime}`, controller.cron));
	},
} satisfies ExportedHandler<Env, unknown>;
