declare const GREETING: string;

addEventListener("fetch", (event: any) => {
  event.respondWith(handle(event.request));
});

async function handle(request: Request): Promise<Response> {
  return new Response(`${GREETING} from a service worker: ${request.method}`);
}
