#include "outputformat.h"

#include "htmlreport.h"
#include "interbenchreport.h"
#include "report.h"

#include <array>

namespace latprobe {

std::span<const RunFormat> runFormats()
{
    static const std::array<RunFormat, 6> formats{{
        {.name = "text", .help = "text (72 columns, default)", .write = formatTextReport},
        {.name = "md", .help = "md", .write = formatMarkdownReport},
        {.name = "csv", .help = "csv", .write = formatCsvReport},
        {.name = "json", .help = "json", .write = formatJsonSummary},
        {.name = "html", .help = "html (one self-contained page)", .write = formatHtmlReport},
        {.name = "interbench",
         .help = "interbench (its own table layout, per consumer)",
         .write = formatInterbenchReport},
    }};
    return formats;
}

std::span<const ComparisonFormat> comparisonFormats()
{
    static const std::array<ComparisonFormat, 4> formats{{
        {.name = "text", .help = "text (72 columns, default)", .write = formatComparison},
        {.name = "md", .help = "md", .write = formatComparisonMarkdown},
        {.name = "csv", .help = "csv", .write = formatComparisonCsv},
        {.name = "json", .help = "json", .write = formatComparisonJson},
    }};
    return formats;
}

} // namespace latprobe
