import fs from "node:fs";
import path from "node:path";

/** The project root (where package.json is), from src/ under tsx and from dist/src/ once built. */
export const PROJECT_ROOT = (() => {
  let dir = __dirname;
  while (!fs.existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("package.json not found above " + __dirname);
    dir = parent;
  }
  return dir;
})();
