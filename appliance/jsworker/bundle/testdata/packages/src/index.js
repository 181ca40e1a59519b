import { which as cond } from "cond";
import { which as workerFirst } from "worker-first";
import { which as browserOnly } from "browser-only";
import { which as subpath } from "subpath";
import { which as feature } from "subpath/feature";
import { which as mainfields } from "mainfields";
import { which as moduleMain } from "module-main";
import { which as browserMap } from "browser-map";

export default { cond, workerFirst, browserOnly, subpath, feature, mainfields, moduleMain, browserMap };
