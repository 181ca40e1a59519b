import { base } from "./base.js";
import greeting from "./hello.txt";

export const answer = base + 2;
export const hello = greeting;
