// contest's mem_load / interbench's Memload: map `mb` MiB, touch every
// page, unmap, repeat. Counts MiB touched.
#include "workerkinds.h"

#include "../interbenchsizing.h"
#include "../loadspec.h"
#include "workerutil.h"

#include <cerrno>
#include <cstring>
#include <fmt/format.h>
#include <sys/mman.h>
#include <unistd.h>

namespace latprobe {

std::string precheckMemload(const LoadSpec &spec)
{
    const auto it = spec.params.find("mb");
    return it != spec.params.end() && it->second == kInterbenchSize
               ? interbenchMemloadRefusal(readMemInfo())
               : std::string();
}

int runMemload(WorkerContext &ctx)
{
    // Swap may have gone since the precheck: never size past it.
    if (std::string refusal = precheckMemload(ctx.spec); !refusal.empty()) {
        reportWorkerError(ctx, refusal);
        return 1;
    }
    const size_t mb = static_cast<size_t>(loadParam(ctx.spec, "mb"));
    const size_t bytes = mb << 20;
    const size_t page = static_cast<size_t>(sysconf(_SC_PAGESIZE));
    for (uint64_t pass = 1;; ++pass) {
        void *mem =
            mmap(nullptr, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
        if (mem == MAP_FAILED) {
            reportWorkerError(ctx, fmt::format("memload: cannot map {} MiB: {} (lower mb= or the "
                                               "count)",
                                               mb, std::strerror(errno)));
            return 1;
        }
        auto *p = static_cast<volatile unsigned char *>(mem);
        for (size_t mib = 0; mib < mb; ++mib) {
            const size_t end = (mib + 1) << 20;
            for (size_t off = mib << 20; off < end; off += page)
                p[off] = static_cast<unsigned char>(pass + off);
            addProgress(ctx.slot, 1);
        }
        munmap(mem, bytes);
    }
}

} // namespace latprobe
