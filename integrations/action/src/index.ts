// The action's entry point (bundled into dist/index.js, which action.yml names): run it.
import { run } from "./main.ts";

void run();
