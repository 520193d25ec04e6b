#include "label.h"

#include <functional>
#include <mutex>
#include <unordered_set>

namespace latprobe {

namespace {

// Looks a text up without making a std::string of it first.
struct TextHash
{
    using is_transparent = void;
    size_t operator()(std::string_view text) const { return std::hash<std::string_view>{}(text); }
};

} // namespace

const std::string Label::kEmpty;

Label::Label(std::string_view text)
{
    if (text.empty())
        return;
    static std::mutex mutex;
    // Node-based, so an element never moves and its address is the label;
    // never destroyed, so a label outlives every static that holds one,
    // and a thread still explaining at exit.
    static auto *texts = new std::unordered_set<std::string, TextHash, std::equal_to<>>;
    std::lock_guard lock(mutex);
    auto it = texts->find(text);
    if (it == texts->end())
        it = texts->emplace(text).first;
    m_text = &*it;
}

} // namespace latprobe
