// The hex fleet's stylesheet: every module of the game that draws imports this one, so
// the sheet applies before anything of the game is on the page (shell/sheets.js).

import { useSheet } from "../../shell/sheets.js";

await useSheet(new URL("./hexfleet.css", import.meta.url));
