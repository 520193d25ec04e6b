#pragma once

#include <cstddef>
#include <string>
#include <vector>

namespace latprobe {

// A plain-text table for email: first column left-aligned, the rest right.
// A cell is as wide as its UTF-8 characters, one column each (an "∞").
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> header);
    void addRow(std::vector<std::string> cells);
    // Columns two spaces apart, or one when that keeps the table within
    // `width` (huge counts in a long run); wider still only if it must.
    std::string render(size_t width = kNoWidthLimit) const;
    static constexpr size_t kNoWidthLimit = static_cast<size_t>(-1);

private:
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace latprobe
