import type { ChatRoom } from "./room";

export interface Env {
	ROOMS: DurableObjectNamespace<ChatRoom>;
	ASSETS: Fetcher;
	HISTORY_LIMIT: string;
}
