#pragma once

#include <cstddef>
#include <optional>
#include <string_view>

namespace latprobe {

// An enum's names as one table, a row a value, read in both directions: a
// switch to write a name and an if-chain to read it back drift apart (a
// value added to one and not the other reads as something else). A row
// may carry more columns than `value` and `name` (another vocabulary, the
// kernel's number); findRow() looks any of them up.
template <typename Enum> struct EnumName
{
    Enum value;
    const char *name;
};

// The first row whose `Column` equals `key`, or nullptr.
template <auto Column, typename Row, std::size_t N, typename Key>
constexpr const Row *findRow(const Row (&table)[N], const Key &key)
{
    for (const Row &row : table)
        if (row.*Column == key)
            return &row;
    return nullptr;
}

// `value`'s name, or `unknown` for a value the table lacks (an integer cast
// to the enum).
template <typename Row, std::size_t N, typename Enum>
constexpr const char *enumName(const Row (&table)[N], Enum value, const char *unknown = "?")
{
    const Row *row = findRow<&Row::value>(table, value);
    return row ? row->name : unknown;
}

// The value named `name` exactly, or nothing.
template <typename Row, std::size_t N>
constexpr auto enumFromName(const Row (&table)[N], std::string_view name)
    -> std::optional<decltype(Row::value)>
{
    const Row *row = findRow<&Row::name>(table, name);
    return row ? std::optional(row->value) : std::nullopt;
}

} // namespace latprobe
