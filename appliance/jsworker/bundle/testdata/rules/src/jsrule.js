import { answer, hello } from "./answer.jsm";

export default { answer, hello };
