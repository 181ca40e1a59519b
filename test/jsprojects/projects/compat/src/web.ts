// Web APIs every worker has, with or without nodejs_compat.

export async function webChecks(): Promise<Record<string, unknown>> {
	const enc = new TextEncoder();
	const bytes = enc.encode("€uro ✓");
	const streamDec = new TextDecoder();
	const split = streamDec.decode(bytes.subarray(0, 2), { stream: true }) + streamDec.decode(bytes.subarray(2));
	let fatal = "no error";
	try {
		new TextDecoder("utf-8", { fatal: true, ignoreBOM: false }).decode(new Uint8Array([0xff, 0xfe]));
	} catch (e) {
		fatal = (e as Error).name;
	}

	const u = new URL("https://example.com/a/b/../c?x=1&y=two#frag");
	u.searchParams.append("z", "a b&c");
	u.searchParams.set("x", "9");
	const params = new URLSearchParams({ q: "dwk fleet", page: "2" });
	params.sort();

	const original: Record<string, unknown> = { when: new Date(Date.UTC(2024, 1, 29)), tags: new Map([["k", new Set([1, 2])]]), list: [1, "two", { three: 3 }] };
	original.self = original;
	const clone = structuredClone(original);
	let cloneError = "no error";
	try {
		structuredClone({ f() {} });
	} catch (e) {
		cloneError = (e as Error).name;
	}

	const timeout = await new Promise<string>((resolve) => {
		const signal = AbortSignal.timeout(20);
		signal.addEventListener("abort", () => resolve(`${(signal.reason as Error).name}`));
	});
	const controller = new AbortController();
	const aborted = new Promise<string>((resolve) => controller.signal.addEventListener("abort", () => resolve(String(controller.signal.reason))));
	controller.abort("stopped by caller");
	const any = AbortSignal.any([controller.signal, AbortSignal.timeout(10_000)]);

	return {
		encoding: { bytes: bytes.length, roundTrip: new TextDecoder().decode(bytes), split, fatal },
		url: { href: u.href, pathname: u.pathname, z: u.searchParams.get("z"), params: params.toString(), canParse: URL.canParse("not a url") },
		clone: {
			isDate: clone.when instanceof Date && clone.when !== original.when,
			time: (clone.when as Date).toISOString(),
			setInMap: (clone.tags as Map<string, Set<number>>).get("k") instanceof Set,
			cycle: clone.self === clone,
			list: clone.list,
			cloneError,
		},
		abort: { timeout, reason: await aborted, anyAborted: any.aborted },
	};
}

/** cookies answers with two Set-Cookie headers, which must stay two. */
export function cookies(): Response {
	const h = new Headers({ "content-type": "application/json" });
	h.append("set-cookie", "session=abc123; Path=/; HttpOnly; Secure; SameSite=Lax");
	h.append("set-cookie", "theme=dark; Path=/; Expires=Wed, 21 Oct 2037 07:28:00 GMT");
	return new Response(JSON.stringify({ getSetCookie: h.getSetCookie(), joined: h.get("set-cookie") }), { headers: h });
}
