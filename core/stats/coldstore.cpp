#include "coldstore.h"

#include <cerrno>
#include <cstdlib>
#include <fcntl.h>
#include <string>
#include <system_error>
#include <unistd.h>
#include <vector>

namespace latprobe {

namespace {

int openNameless(const std::string &dir)
{
#ifdef O_TMPFILE
    const int fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_CLOEXEC, 0600);
    if (fd >= 0)
        return fd;
#endif
    // A file system without O_TMPFILE: name it, and unlink the name at once.
    std::string path = dir + "/latprobe-cold-XXXXXX";
    const int named = mkostemp(path.data(), O_CLOEXEC);
    if (named >= 0)
        ::unlink(path.c_str());
    return named;
}

} // namespace

std::shared_ptr<ColdStore> ColdStore::open(const char *dir)
{
    std::vector<std::string> folders;
    if (dir && *dir) {
        folders.emplace_back(dir);
    } else {
        if (const char *tmp = std::getenv("TMPDIR"); tmp && *tmp)
            folders.emplace_back(tmp);
        // /var/tmp is on disk where /tmp may be a tmpfs (Debian 13's
        // default), whose pages would be RAM all the same.
        folders.emplace_back("/var/tmp");
        folders.emplace_back("/tmp");
    }
    for (const std::string &folder : folders)
        if (const int fd = openNameless(folder); fd >= 0)
            return std::shared_ptr<ColdStore>(new ColdStore(fd));
    return nullptr;
}

ColdStore::~ColdStore()
{
    ::close(m_fd);
}

std::optional<ColdStore::Ref> ColdStore::put(const uint8_t *data, size_t size)
{
    std::lock_guard lock(m_mutex);
    const Ref ref{m_end, size};
    size_t done = 0;
    while (done < size) {
        const ssize_t n =
            ::pwrite(m_fd, data + done, size - done, static_cast<off_t>(ref.offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return std::nullopt; // the next put() writes over what this one left
        done += static_cast<size_t>(n);
    }
    m_end += size;
    return ref;
}

void ColdStore::getInto(Ref ref, uint8_t *out) const
{
    size_t done = 0;
    while (done < ref.size) {
        const ssize_t n =
            ::pread(m_fd, out + done, ref.size - done, static_cast<off_t>(ref.offset + done));
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            throw std::system_error(n < 0 ? errno : EIO, std::generic_category(),
                                    "reading latprobe's own temp file back");
        done += static_cast<size_t>(n);
    }
}

std::vector<uint8_t> ColdStore::get(Ref ref) const
{
    std::vector<uint8_t> out(ref.size);
    getInto(ref, out.data());
    return out;
}

uint64_t ColdStore::bytes() const
{
    std::lock_guard lock(m_mutex);
    return m_end;
}

} // namespace latprobe
