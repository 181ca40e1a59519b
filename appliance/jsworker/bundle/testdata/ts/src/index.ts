import { render } from "./view.tsx";
import { twice } from "./math.mts";
import { label } from "./legacy.cts";

enum Color {
  Red = "red",
  Blue = "blue",
}

interface Shape {
  color: Color;
}

const shape = { color: Color.Blue } satisfies Shape;

export default {
  run(): string {
    return [render("hi"), twice(21), label, shape.color].join(" ");
  },
};
