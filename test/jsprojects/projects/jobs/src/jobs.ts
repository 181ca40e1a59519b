/**
 * A job tells the consumer how often to fail it before it succeeds:
 * "always" fails every delivery, so the job ends in the dead-letter queue.
 */
export interface Job {
	id: string;
	failures: number | "always";
}

/** Jobs go out as JSON objects, or as text "<id> <failures>". */
export type Encoding = "json" | "text";

export function encode(job: Job, as: Encoding): { body: unknown; contentType: QueueContentType } {
	return as === "json" ? { body: job, contentType: "json" } : { body: `${job.id} ${job.failures}`, contentType: "text" };
}

/** decode reads a delivered body back, naming the form it arrived in. */
export function decode(body: unknown): Job & { as: Encoding | "other" } {
	if (typeof body === "string") {
		const [id, f] = body.split(" ");
		return { id, failures: f === "always" ? "always" : Number(f), as: "text" };
	}
	if (body !== null && typeof body === "object" && "id" in body) {
		const j = body as Job;
		return { id: j.id, failures: j.failures, as: "json" };
	}
	return { id: "?", failures: 0, as: "other" };
}

export function isJob(v: unknown): v is Job & { as?: Encoding } {
	if (v === null || typeof v !== "object") return false;
	const j = v as Record<string, unknown>;
	return typeof j.id === "string" && /^[\w-]{1,64}$/.test(j.id) && (j.failures === "always" || (typeof j.failures === "number" && j.failures >= 0)) && (j.as === undefined || j.as === "json" || j.as === "text");
}
