#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace latprobe {

// A short text that many records repeat (a task's comm, a scheduling
// policy, a load group's name), kept once per process: the record holds a
// pointer, 8 bytes where a std::string took 32 and, past 15 characters
// ("SCHED_OTHER nice 0"), a heap block of its own. A run's 400 miss
// explanations hold thousands of them (issue 15: their shares were the
// largest site in heaptrack of a window soak at 30 minutes, 647 KB).
// Interned texts live as long as the
// process; there are few distinct ones. Not for a measuring thread: a
// new text takes a lock.
class Label
{
public:
    Label() = default;
    Label(std::string_view text); // NOLINT(google-explicit-constructor): a text is a label
    Label(const std::string &text) : Label(std::string_view(text)) {}
    Label(const char *text) : Label(std::string_view(text)) {}

    const std::string &str() const { return *m_text; }
    operator const std::string &() const { return *m_text; } // NOLINT: reads as its text
    const char *c_str() const { return m_text->c_str(); }
    bool empty() const { return m_text->empty(); }
    size_t size() const { return m_text->size(); }

    // The same text is the same pointer.
    friend bool operator==(const Label &a, const Label &b) { return a.m_text == b.m_text; }
    // One per text type: through a conversion, each would be ambiguous.
    friend bool operator==(const Label &a, std::string_view b) { return *a.m_text == b; }
    friend bool operator==(const Label &a, const std::string &b) { return *a.m_text == b; }
    friend bool operator==(const Label &a, const char *b) { return *a.m_text == b; }
    // By text, so that what is sorted by label sorts the same in every run.
    friend bool operator<(const Label &a, const Label &b) { return *a.m_text < *b.m_text; }

private:
    static const std::string kEmpty;
    const std::string *m_text = &kEmpty;
};

} // namespace latprobe
