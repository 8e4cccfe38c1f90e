/* ddzspec web table: the Puzzle and Learn tabs (shown when the server has their libraries). */
"use strict";

window.initExtras = function (app) {
  const f = app.meta.features || {};
  document.getElementById("puzzle-missing").classList.toggle("hidden", !!f.puzzle);
  document.getElementById("puzzle-ui").classList.toggle("hidden", !f.puzzle);
  document.getElementById("learn-rules-panel").classList.toggle("hidden", !f.learn);
};
