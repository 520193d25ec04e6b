#include "htmlreport.h"

#include "report.h"

namespace latprobe {

namespace {

// Plain and legible printed or on screen; numbers line up in their columns.
constexpr const char *kStyle = "body{font-family:sans-serif;max-width:60em;margin:1em auto;"
                               "padding:0 1em;color:#222}"
                               "table{border-collapse:collapse;margin:.5em 0}"
                               "th,td{border:1px solid #ccc;padding:.2em .5em}"
                               "th{background:#f0f0f0}td.n,th.n{text-align:right;"
                               "font-variant-numeric:tabular-nums}"
                               "p{white-space:pre-line}";

// `text` with &, <, >, " and ' as entities.
std::string htmlEscape(const std::string &text)
{
    std::string out;
    out.reserve(text.size());
    for (char ch : text)
        switch (ch) {
        case '&':
            out += "&amp;";
            break;
        case '<':
            out += "&lt;";
            break;
        case '>':
            out += "&gt;";
            break;
        case '"':
            out += "&quot;";
            break;
        case '\'':
            out += "&#39;";
            break;
        default:
            out += ch;
        }
    return out;
}

std::string htmlTable(const PageTable &t)
{
    auto cells = [&t](const std::vector<std::string> &row, const char *tag) {
        std::string out = "<tr>";
        for (size_t c = 0; c < row.size(); ++c)
            out += std::string("<") + tag +
                   (c < t.numeric.size() && t.numeric[c] ? " class=\"n\"" : "") + ">" +
                   htmlEscape(row[c]) + "</" + tag + ">";
        return out + "</tr>\n";
    };
    std::string out = "<table>\n<thead>" + cells(t.head, "th") + "</thead>\n<tbody>\n";
    for (const std::vector<std::string> &row : t.rows)
        out += cells(row, "td");
    return out + "</tbody>\n</table>\n";
}

} // namespace

std::string formatHtmlReport(const Run &run)
{
    const ReportPage page = reportPage(run);
    const std::string title = htmlEscape(page.title);
    std::string out = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n"
                      "<title>" +
                      title + "</title>\n<style>" + kStyle + "</style>\n</head>\n<body>\n<h1>" +
                      title + "</h1>\n<ul>\n";
    for (const std::string &fact : page.facts)
        out += "<li>" + htmlEscape(fact) + "</li>\n";
    out += "</ul>\n";
    for (const PageSection &section : page.sections) {
        out += "<h2>" + htmlEscape(section.heading) + "</h2>\n";
        for (const PageBlock &block : section.blocks) {
            if (!block.text.empty())
                out += "<p>" + htmlEscape(block.text) + "</p>\n";
            if (!block.table.head.empty())
                out += htmlTable(block.table);
        }
    }
    return out + "</body>\n</html>\n";
}

} // namespace latprobe
