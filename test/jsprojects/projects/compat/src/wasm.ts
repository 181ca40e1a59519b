import math from "./math.wasm";

interface MathExports {
	memory: WebAssembly.Memory;
	add(a: number, b: number): number;
	addScaled(a: number, b: number): number;
	sumTo(n: number): number;
}

let instance: Promise<MathExports> | undefined;

/** exports instantiates the module once per isolate, with scale as its JavaScript import. */
function exports(): Promise<MathExports> {
	instance ??= WebAssembly.instantiate(math, { env: { scale: (x: number) => x * 10 } }).then((i) => i.exports as unknown as MathExports);
	return instance;
}

export async function wasmChecks(a: number, b: number, n: number) {
	const m = await exports();
	const at = m.sumTo(n);
	return {
		isModule: math instanceof WebAssembly.Module,
		exports: WebAssembly.Module.exports(math).map((e) => `${e.kind}:${e.name}`),
		add: m.add(a, b),
		addScaled: m.addScaled(a, b),
		sumTo: new Uint32Array(m.memory.buffer, at, 1)[0],
	};
}
