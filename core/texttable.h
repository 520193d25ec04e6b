#pragma once

#include <string>
#include <vector>

namespace latprobe {

// A plain-ASCII table for email: first column left-aligned, the rest right.
class TextTable
{
public:
    explicit TextTable(std::vector<std::string> header);
    void addRow(std::vector<std::string> cells);
    std::string render() const;

private:
    std::vector<std::vector<std::string>> m_rows;
};

} // namespace latprobe
