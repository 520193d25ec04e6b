#include "wordsplit.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

namespace latprobe {

bool splitWords(const std::string &text, std::vector<std::string> &words, std::string &error)
{
    words.clear();
    std::string word;
    bool inWord = false;
    char quote = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (c == '\\' && quote == '"' && i + 1 < text.size())
                word += text[++i];
            else
                word += c;
        } else if (c == '\'' || c == '"') {
            quote = c;
            inWord = true;
        } else if (c == '\\' && i + 1 < text.size()) {
            word += text[++i];
            inWord = true;
        } else if (c == ' ' || c == '\t') {
            if (inWord)
                words.push_back(word);
            word.clear();
            inWord = false;
        } else {
            word += c;
            inWord = true;
        }
    }
    if (quote) {
        error = fmt::format("unterminated {} quote", quote);
        return false;
    }
    if (inWord)
        words.push_back(word);
    if (words.empty()) {
        error = "empty command";
        return false;
    }
    return true;
}

namespace {
// `word` as a shell reads it back: quoted when empty or holding a blank,
// a quote or a backslash.
std::string quoteWord(const std::string &word)
{
    if (!word.empty() && word.find_first_of(" \t'\"\\") == std::string::npos)
        return word;
    std::string out = "'";
    for (char c : word)
        out += c == '\'' ? std::string("'\\''") : std::string(1, c);
    return out + "'";
}
} // namespace

std::string joinWords(const std::vector<std::string> &words)
{
    std::vector<std::string> quoted;
    for (const std::string &w : words)
        quoted.push_back(quoteWord(w));
    return fmt::format("{}", fmt::join(quoted, " "));
}

} // namespace latprobe
