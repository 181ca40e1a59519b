import { Hono } from "hono";
import { z } from "zod";
import { routes } from "./generated.js";

const Message = z.object({ user: z.string().min(1), text: z.string().max(500) });
const app = new Hono();
app.get("/", (c) => c.text("ready"));
app.post("/messages", async (c) => c.json(Message.parse(await c.req.json())));
for (const [path, reply] of routes) app.get(path, (c) => c.text(reply()));
export default app;
