#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <vector>

namespace latprobe {

// Bytes a run keeps but seldom reads — its finished phases' histograms and
// blocks, the full chunks of its miss log — in a temp file that has no name
// (O_TMPFILE, or unlinked at once), so it goes with the process however that
// ends, kill -9 included. An hour of a four-consumer scenario with a step a
// minute kept about 1 MB of them in the window's heap (issue 15's soak); on
// disk they cost the page cache, which the kernel may drop, and a read at
// each autosave.
//
// Thread-safe. A store that cannot be made (no writable temp folder) is
// nullptr from open(), and its users keep their bytes in memory instead.
class ColdStore
{
public:
    struct Ref
    {
        uint64_t offset = 0;
        uint64_t size = 0;
    };

    // In `dir`; when none is given, in $TMPDIR, else /var/tmp, else /tmp.
    static std::shared_ptr<ColdStore> open(const char *dir = nullptr);
    ~ColdStore();
    ColdStore(const ColdStore &) = delete;
    ColdStore &operator=(const ColdStore &) = delete;

    // nullopt when the write failed (a full disk): keep the bytes then.
    std::optional<Ref> put(const uint8_t *data, size_t size);
    std::optional<Ref> put(const std::vector<uint8_t> &bytes)
    {
        return put(bytes.data(), bytes.size());
    }
    // The bytes put at `ref`. A read of our own file that comes back short
    // is an I/O error of the disk: std::system_error.
    std::vector<uint8_t> get(Ref ref) const;
    void getInto(Ref ref, uint8_t *out) const;

    uint64_t bytes() const;

private:
    explicit ColdStore(int fd) : m_fd(fd) {}

    const int m_fd;
    mutable std::mutex m_mutex; // guards m_end; pread/pwrite need no lock
    uint64_t m_end = 0;
};

} // namespace latprobe
