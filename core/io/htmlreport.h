#pragma once

#include "run.h"

#include <string>

namespace latprobe {

// The Markdown report's page (reportPage()) as one self-contained HTML5
// file: inline CSS, no script, nothing fetched; every string from the run
// escaped, since a scenario, load or variant name may hold <, & or ".
std::string formatHtmlReport(const Run &run);

} // namespace latprobe
