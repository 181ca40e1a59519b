import legacy from "old-lib";
import { chunk } from "lodash";
import { readFileSync } from "fs";

export default {
  run() {
    return {
      env: process.env.NODE_ENV,
      agent: navigator.userAgent,
      build: __BUILD__,
      legacy,
      lodash: chunk(),
      fs: readFileSync(),
    };
  },
};
