import { Buffer } from "buffer";

export default { Buffer };
