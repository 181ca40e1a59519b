export class Cart {}
export default { fetch() { return new Response("shop"); } };
