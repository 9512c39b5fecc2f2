// A command's result, written as JSON, printed as Markdown by the knightgym package
// (`python -m MODULE report FILE`), so that each table is rendered once, in Python, for
// the command and for Python's users alike. A build without the Python module prints
// the JSON itself, which holds every figure.
#pragma once

#include <string>

namespace knightgym::cli {

// Prints the report of the JSON file at `json_path`. Returns 0, or 1 (with a note that
// names the file) if Python failed.
int print_markdown_report(const std::string& module, const std::string& json_path);

// The same for a result that the user asked no file for: written to a temporary file
// for the report, then removed.
int print_markdown_report_of(const std::string& module, const std::string& json);

}  // namespace knightgym::cli
