package node_test

import "testing"

func TestProcess(t *testing.T) {
	iso := newIsolate(t)
	runCases(t, iso, []evalCase{
		{"fixed facts", `return [process.version.startsWith("v22."), process.versions.node, process.platform, process.arch, process.argv, process.pid, process.cwd(), process.release.name, process.execArgv, typeof process.features, process.browser]`,
			`[true,"22.14.0","linux","x64",[],1,"/","node",[],"object",null]`},
		{"env starts empty", `return Object.keys(process.env)`, `[]`},
		{"setProcessEnv takes strings and JSON values, not bindings", `internal.setProcessEnv({ A: "a", N: 5, J: { x: [1, true, null] }, KV: new Map(), F: () => 1, C: new (class Binding {})() });
			const env = { ...process.env }; internal.setProcessEnv({}); return [env, process.env.A]`,
			`[{"A":"a","J":"{\"x\":[1,true,null]}","N":"5"},null]`},
		{"env coerces to strings", `process.env.X = 42; process.env.Y = undefined; Object.defineProperty(process.env, "Z", { value: true, writable: true, enumerable: true, configurable: true });
			const r = [process.env.X, process.env.Y, process.env.Z, "X" in process.env]; delete process.env.X; delete process.env.Y; delete process.env.Z; return [r, "X" in process.env]`,
			`[["42","undefined","true",true],false]`},
		{"env through node:process", `internal.setProcessEnv({ K: "v" }); const v = __dwk_import("node:process").env.K; internal.setProcessEnv({}); return v`, `"v"`},
		{"nextTick is a microtask", `const out = []; Promise.resolve().then(() => out.push("p1")); process.nextTick((a, b) => out.push("tick " + a + b), 1, 2); Promise.resolve().then(() => out.push("p2")); out.push("sync");
			await new Promise(r => setTimeout(r, 1)); return out`, `["sync","p1","tick 12","p2"]`},
		{"hrtime", `const t = process.hrtime(); const d = process.hrtime(t); const b = process.hrtime.bigint(); return [t.length, d[0] >= 0, d[1] >= 0 && d[1] < 1e9, typeof b]`, `[2,true,true,"bigint"]`},
		{"memory and uptime", `return [typeof process.memoryUsage().heapUsed, typeof process.memoryUsage.rss(), process.uptime() >= 0]`, `["number","number",true]`},
		{"events", `let got; process.once("custom", v => got = v); process.emit("custom", 1); return [got, process.listenerCount("custom")]`, `[1,0]`},
		{"emitWarning", `const w = new Promise(r => process.once("warning", r)); process.emitWarning("careful", { type: "CustomWarning", code: "C1", detail: "more" }); const warning = await w;
			return [warning.name, warning.message, warning.code, warning.detail]`, `["CustomWarning","careful","C1","more"]`},
		{"stdout and stderr", `return [process.stdout.write("to the log\n"), process.stderr.fd, process.stdout.isTTY]`, `[true,2,false]`},
		{"getBuiltinModule", `return [process.getBuiltinModule("path") === __dwk_import("node:path"), process.getBuiltinModule("node:fs") !== undefined, process.getBuiltinModule("left-pad")]`, `[true,true,null]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"exit", `process.exit(0)`, "Error", "process.exit() is not supported in a worker"},
		{"chdir", `process.chdir("/tmp")`, "Error", "process.chdir() is not supported"},
		{"nextTick of a non-function", `process.nextTick(1)`, "TypeError", `The "callback" argument must be of type function`},
		{"symbol in env", `process.env[Symbol()] = "x"`, "TypeError", "Cannot convert a Symbol value to a string"},
	})
}

func TestAsyncHooks(t *testing.T) {
	iso := newIsolate(t)
	const importHooks = `const { AsyncLocalStorage, AsyncResource, executionAsyncId, createHook } = __dwk_import("node:async_hooks");`
	runCases(t, iso, []evalCase{
		{"store through await and timers", importHooks + `const als = new AsyncLocalStorage(); const seen = [];
			await Promise.all(["a", "b"].map(v => als.run({ id: v }, async () => {
				await new Promise(r => setTimeout(r, v === "a" ? 5 : 1));
				seen.push(v + "=" + als.getStore().id);
				await null;
				setTimeout(() => seen.push(v + " timer=" + als.getStore().id), 0);
				await new Promise(r => setTimeout(r, 2));
			})));
			return [seen.sort(), als.getStore()]`, `[["a timer=a","a=a","b timer=b","b=b"],null]`},
		{"nested runs and exit", importHooks + `const als = new AsyncLocalStorage(); return als.run(1, () => [als.getStore(), als.run(2, () => als.getStore()), als.exit(() => als.getStore()), als.getStore()])`, `[1,2,null,1]`},
		{"run returns and passes arguments", importHooks + `const als = new AsyncLocalStorage(); return als.run("s", (a, b) => a + b + als.getStore(), 1, 2)`, `"3s"`},
		{"two storages", importHooks + `const a = new AsyncLocalStorage(), b = new AsyncLocalStorage(); return a.run("x", () => b.run("y", () => [a.getStore(), b.getStore()]))`, `["x","y"]`},
		{"disable", importHooks + `const als = new AsyncLocalStorage(); return als.run(1, () => { als.disable(); return als.getStore(); })`, `undefined`},
		{"name", importHooks + `return new AsyncLocalStorage({ name: "n" }).name`, `"n"`},
		{"bind and snapshot", importHooks + `const als = new AsyncLocalStorage(); const bound = als.run("then", () => AsyncLocalStorage.bind(() => als.getStore())); const snap = als.run("snap", () => AsyncLocalStorage.snapshot());
			return [bound(), snap(() => als.getStore()), als.getStore()]`, `["then","snap",null]`},
		{"AsyncResource", importHooks + `const als = new AsyncLocalStorage(); const r = als.run("made", () => new AsyncResource("MyResource"));
			const fn = r.bind(function (x) { return [x, als.getStore(), this.name]; }, { name: "self" });
			return [r.runInAsyncScope((a) => a + als.getStore(), null, "in "), fn(1), typeof r.asyncId(), r.triggerAsyncId(), AsyncResource.bind(() => 1).asyncResource instanceof AsyncResource]`,
			`["in made",[1,"made","self"],"number",0,true]`},
		{"hooks do nothing", importHooks + `const h = createHook({ init() {} }); return [h.enable() === h, executionAsyncId()]`, `[true,0]`},
	})
	runErrorCases(t, iso, []errorCase{
		{"run without a function", importHooks + `new AsyncLocalStorage().run(1)`, "TypeError", `The "fn" argument must be of type function`},
		{"resource without a type", importHooks + `new AsyncResource()`, "TypeError", `The "type" argument must be of type string`},
	})
}
