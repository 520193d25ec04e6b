#include "textwrap.h"

#include <algorithm>
#include <sstream>

namespace latprobe {

std::string wrapText(const std::string &text, size_t width, const std::string &indent)
{
    // Leading spaces are kept, and the continuation lines keep them too.
    const size_t firstWord = text.find_first_not_of(' ');
    const std::string lead(firstWord == std::string::npos ? 0 : firstWord, ' ');
    const std::string next = lead + indent;
    const size_t room = std::max<size_t>(width, next.size() + 8);
    std::string out, line = lead;
    bool lineHasWord = false;
    auto flush = [&] {
        out += line + "\n";
        line = next;
        lineHasWord = false;
    };
    std::istringstream words(text);
    std::string word;
    while (words >> word) {
        if (lineHasWord && line.size() + 1 + word.size() > room)
            flush();
        while (line.size() + (lineHasWord ? 1 : 0) + word.size() > room) {
            // A word longer than a whole line: cut it.
            if (lineHasWord)
                flush();
            const size_t take = room - line.size();
            line += word.substr(0, take);
            word.erase(0, take);
            flush();
        }
        if (word.empty())
            continue;
        line += (lineHasWord ? " " : "") + word;
        lineHasWord = true;
    }
    if (lineHasWord || out.empty())
        out += line + "\n";
    return out;
}

std::string commandLine(const std::string &label, const std::string &command, size_t width,
                        const std::string &indent)
{
    if (label.size() + 1 + command.size() <= width)
        return label + " " + command + "\n";
    const size_t lead = std::min(label.find_first_not_of(' '), label.size());
    return label.substr(0, label.find_last_not_of(' ') + 1) + "\n" + std::string(lead, ' ') +
           indent + command + "\n";
}

} // namespace latprobe
