package webcrypto

import "testing"

// TestNodeKeys imports every key Node.js exported, in every format it
// exported, and checks that dwk exports the same: the same spki, pkcs8 and
// raw bytes, and the same JWK (whose key_ops follow the usages).
func TestNodeKeys(t *testing.T) {
	got := evalString(t, newIsolate(t), `
		const sets = [];
		for (const f of F.rsa) {
			const oaep = f.name === "RSA-OAEP";
			sets.push({ alg: { name: f.name, hash: f.hash }, keys: f.keys, pub: oaep ? ["encrypt"] : ["verify"], priv: oaep ? ["decrypt"] : ["sign"] });
		}
		for (const f of F.ecdsa) sets.push({ alg: { name: "ECDSA", namedCurve: f.namedCurve }, keys: f.keys, pub: ["verify"], priv: ["sign"] });
		sets.push({ alg: { name: "Ed25519" }, keys: F.ed25519.keys, pub: ["verify"], priv: ["sign"] });
		for (const f of F.agreement) {
			const alg = f.namedCurve ? { name: f.name, namedCurve: f.namedCurve } : { name: f.name };
			sets.push({ alg, keys: f.a, pub: [], priv: ["deriveBits"] }, { alg, keys: f.b, pub: [], priv: ["deriveBits"] });
		}
		const sorted = (o) => JSON.stringify(Object.keys(o).sort().map((k) => [k, o[k]]));
		// Node.js writes "Ed25519" as an Ed25519 JWK's alg, workerd and dwk "EdDSA".
		const jwkOf = (j) => { const c = { ...j }; if (c.crv === "Ed25519") delete c.alg; return sorted(c); };
		const bad = [];
		for (const s of sets) {
			for (const [name, value] of Object.entries(s.keys)) {
				const [which, format] = name.split("_");
				const usages = which === "public" ? s.pub : s.priv;
				const what = s.alg.name + " " + (s.alg.namedCurve || "") + " " + name;
				let k;
				try {
					k = await crypto.subtle.importKey(format, format === "jwk" ? value : hex(value), s.alg, true, usages);
				} catch (e) {
					bad.push(what + ": import: " + e.name + ": " + e.message);
					continue;
				}
				if (k.type !== which) bad.push(what + ": imported a " + k.type + " key");
				for (const [other, want] of Object.entries(s.keys)) {
					const [w, f] = other.split("_");
					if (w !== which) continue;
					const out = await crypto.subtle.exportKey(f, k);
					const same = f === "jwk" ? jwkOf(out) === jwkOf({ ...want, key_ops: usages }) : toHex(out) === want;
					if (!same) bad.push(what + " exported as " + f + ": " + (f === "jwk" ? JSON.stringify(out) : toHex(out)) + "\n  want " + JSON.stringify(want));
				}
			}
		}
		return bad.join("\n") || "ok";`)
	if got != "ok" {
		t.Errorf("Node.js keys:\n%s", got)
	}
}
