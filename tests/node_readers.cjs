// Reads one exported file with citation-js (bibtex, ris, csl-json) or marked (markdown) and prints
// {"read": n, "warnings": [...], "errors": [...]} as JSON. Run by tests/format_readers.py.
const fs = require("fs");
const [format, path] = process.argv.slice(2);
const text = fs.readFileSync(path, "utf8");
const warnings = [];
const errors = [];
for (const level of ["warn", "error"]) {
  console[level] = (...args) => (level === "warn" ? warnings : errors).push(args.join(" "));
}
let read = 0;
try {
  if (format === "markdown") {
    const { marked } = require("marked");
    read = marked.lexer(text).filter((t) => t.type === "heading" && t.depth === 2).length;
  } else {
    const { Cite, logger } = require("@citation-js/core");
    require("@citation-js/plugin-bibtex");
    require("@citation-js/plugin-ris");
    require("@citation-js/plugin-csl");
    logger.level = "warn";
    logger._output = (level, scope, msg) => {
      if (["warn", "error"].includes(level)) (level === "warn" ? warnings : errors).push(`${scope} ${msg.join(" ")}`);
    };
    const forced = { bibtex: "@biblatex/text", ris: "@ris/file", "csl-json": "@csl/list+object" }[format];
    const cite = new Cite(format === "csl-json" ? JSON.parse(text) : text, { forceType: forced });
    read = cite.data.length;
    const rendered = cite.format("bibliography", { format: "text", template: "apa" });
    for (const item of cite.data) {
      if (!item.title) errors.push(`${item.id}: no title`);
    }
    if (rendered.split("\n").filter((l) => l.trim()).length < read) errors.push("fewer bibliography entries than items");
    fs.writeFileSync(path + ".citation-js.txt", rendered);
  }
} catch (e) {
  errors.push(String(e && e.stack ? e.stack.split("\n")[0] : e));
}
process.stdout.write(JSON.stringify({ read, warnings, errors }));
