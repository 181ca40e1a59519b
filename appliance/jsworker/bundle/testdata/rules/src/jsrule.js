import { answer } from "./answer.jsm";

export default { answer };
