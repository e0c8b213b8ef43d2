#!/usr/bin/env python3
"""Doc-coverage gate over the symbol graphs that .ci/docs extracts.

    python3 .ci/docs-coverage.py MODULE GRAPHS_DIR CATALOG_DIR

Fails (exit 1) and lists, with file:line, every public symbol of MODULE that
has no doc comment, and every public top-level symbol (type, function, variable) that no Topics group of
the catalog places (``Name`` in one of its .md files). Prints the counts.

What counts as documented:
- A doc comment written on the symbol itself.
- A doc comment the symbol graph inherits from the protocol requirement the
  symbol implements (`==`, `hash(into:)`, `encode(to:)`, `description`,
  `makeAsyncIterator()`, an `Element` type alias, ...): DocC shows that
  comment on the symbol's page. These are counted and printed separately,
  so the number is visible, never silently excluded; set
  DOCS_COVERAGE_LIST_INHERITED=1 to list them one by one.

What never reaches this script: members the compiler synthesizes (a derived
`==`, `hash(into:)`, `init(from:)`, and default implementations inherited
from a protocol extension), which swift-symbolgraph-extract drops under
-skip-synthesized-members because no source line exists to carry a comment. Every other public symbol is checked,
including those in extension graphs (MODULE@OtherModule.symbols.json).
"""
import glob
import json
import os
import re
import sys


def main() -> int:
    module, graphs_dir, catalog_dir = sys.argv[1:4]
    own, inherited, missing, top_level = 0, 0, [], {}
    inherited_names = []
    for path in sorted(glob.glob(os.path.join(graphs_dir, "*.symbols.json"))):
        with open(path, encoding="utf-8") as file:
            graph = json.load(file)
        for symbol in graph["symbols"]:
            name = ".".join(symbol["pathComponents"])
            comment = symbol.get("docComment")
            has_text = comment and any(line.get("text", "").strip() for line in comment.get("lines", []))
            if not has_text:
                location = symbol.get("location", {})
                file_path = location.get("uri", "?").removeprefix("file://")
                line = location.get("position", {}).get("line", -1) + 1
                missing.append(f"{os.path.relpath(file_path)}:{line}: {symbol['kind']['identifier']} {name}")
            elif comment.get("module", module) != module:
                inherited += 1
                inherited_names.append(f"{name} (from {comment['module']})")
            else:
                own += 1
            # Declared by this module at top level (not a member of another
            # module's type, which lives in an extension graph).
            if len(symbol["pathComponents"]) == 1 and os.path.basename(path) == f"{module}.symbols.json":
                top_level[name] = symbol["kind"]["identifier"]

    catalog_text = ""
    for page in glob.glob(os.path.join(catalog_dir, "**", "*.md"), recursive=True):
        with open(page, encoding="utf-8") as file:
            catalog_text += file.read()
    curated = set(re.findall(r"^\s*-\s*``([^`]+)``", catalog_text, re.MULTILINE))
    unplaced = sorted(name for name in top_level if name not in curated)

    total = own + inherited + len(missing)
    print(f"{module}: {total} public symbols, {own} with their own doc comment, "
          f"{inherited} with their protocol requirement's, {len(missing)} undocumented; "
          f"{len(top_level)} top-level symbols, {len(unplaced)} not in a Topics group")
    for entry in missing:
        print(f"  undocumented: {entry}")
    if os.environ.get("DOCS_COVERAGE_LIST_INHERITED"):
        for name in inherited_names:
            print(f"  requirement's doc comment: {name}")
    for name in unplaced:
        print(f"  not in Topics: {top_level[name]} {name}")
    return 1 if missing or unplaced else 0


if __name__ == "__main__":
    sys.exit(main())
