#include "texttable.h"

#include <algorithm>

namespace latprobe {

namespace {

// Continuation bytes take no column of their own.
size_t tableColumns(const std::string &cell)
{
    return static_cast<size_t>(std::count_if(cell.begin(), cell.end(), [](char ch) {
        return (static_cast<unsigned char>(ch) & 0xC0) != 0x80;
    }));
}

} // namespace

TextTable::TextTable(std::vector<std::string> header)
{
    m_rows.push_back(std::move(header));
}

void TextTable::addRow(std::vector<std::string> cells)
{
    m_rows.push_back(std::move(cells));
}

std::string TextTable::render(size_t width) const
{
    std::vector<size_t> widths;
    for (const auto &row : m_rows) {
        widths.resize(std::max(widths.size(), row.size()), 0);
        for (size_t c = 0; c < row.size(); ++c)
            widths[c] = std::max(widths[c], tableColumns(row[c]));
    }
    size_t cells = 0;
    for (size_t w : widths)
        cells += w;
    const size_t gaps = widths.empty() ? 0 : widths.size() - 1;
    const std::string gap(cells + 2 * gaps <= width ? 2 : 1, ' ');
    std::string out;
    for (const auto &row : m_rows) {
        std::string line;
        for (size_t c = 0; c < row.size(); ++c) {
            const std::string pad(widths[c] - tableColumns(row[c]), ' ');
            if (c == 0)
                line += row[c] + pad;
            else
                line += gap + pad + row[c];
        }
        while (!line.empty() && line.back() == ' ')
            line.pop_back();
        out += line + "\n";
    }
    return out;
}

} // namespace latprobe
