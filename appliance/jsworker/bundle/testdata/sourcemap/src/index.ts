import { fail } from "./fail.ts";

interface Env {
  NAME: string;
}

type Handler = (env: Env) => string;

export default {
  run(env: Env): string {
    const handler: Handler = (e) => fail(e.NAME);
    return handler(env);
  },
};
