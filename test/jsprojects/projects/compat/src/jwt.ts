// JSON Web Tokens with WebCrypto: HS256 with a shared secret, ES256 with a
// key pair made per request whose public half travels as a JWK.

const enc = new TextEncoder();
const dec = new TextDecoder();

export function b64url(bytes: ArrayBuffer | Uint8Array): string {
	const b = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
	let s = "";
	for (const x of b) s += String.fromCharCode(x);
	return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function unb64url(s: string): Uint8Array {
	const bin = atob(s.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (s.length % 4)) % 4));
	return Uint8Array.from(bin, (c) => c.charCodeAt(0));
}

const hmacKey = (secret: string) =>
	crypto.subtle.importKey("raw", enc.encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign", "verify"]);

function signingInput(alg: string, claims: Record<string, unknown>): string {
	return `${b64url(enc.encode(JSON.stringify({ alg, typ: "JWT" })))}.${b64url(enc.encode(JSON.stringify(claims)))}`;
}

export async function signHS256(secret: string, claims: Record<string, unknown>): Promise<string> {
	const input = signingInput("HS256", claims);
	const sig = await crypto.subtle.sign("HMAC", await hmacKey(secret), enc.encode(input));
	return `${input}.${b64url(sig)}`;
}

/** verifyHS256 returns the claims of a token signed with secret, or null. */
export async function verifyHS256(secret: string, token: string): Promise<Record<string, unknown> | null> {
	const [h, p, s] = token.split(".");
	if (s === undefined) return null;
	const ok = await crypto.subtle.verify("HMAC", await hmacKey(secret), unb64url(s), enc.encode(`${h}.${p}`));
	return ok ? JSON.parse(dec.decode(unb64url(p))) : null;
}

export async function signES256(claims: Record<string, unknown>): Promise<{ token: string; jwk: JsonWebKey; verified: boolean; tamperedVerified: boolean }> {
	const pair = (await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])) as CryptoKeyPair;
	const input = signingInput("ES256", claims);
	const alg = { name: "ECDSA", hash: "SHA-256" };
	const sig = await crypto.subtle.sign(alg, pair.privateKey, enc.encode(input));
	const jwk = (await crypto.subtle.exportKey("jwk", pair.publicKey)) as JsonWebKey;
	// Verify through a key imported from the JWK, as a relying party would.
	const pub = await crypto.subtle.importKey("jwk", jwk, { name: "ECDSA", namedCurve: "P-256" }, false, ["verify"]);
	const verified = await crypto.subtle.verify(alg, pub, sig, enc.encode(input));
	const tamperedVerified = await crypto.subtle.verify(alg, pub, sig, enc.encode(input + "x"));
	return { token: `${input}.${b64url(sig)}`, jwk, verified, tamperedVerified };
}
