#include "interbenchsizing.h"

#include <algorithm>
#include <fstream>
#include <unistd.h>

namespace latprobe {

MemInfo readMemInfo(const std::string &path)
{
    MemInfo mem;
    std::ifstream in(path);
    std::string key, unit;
    uint64_t kb = 0;
    while (in >> key >> kb >> unit) {
        if (key == "MemTotal:")
            mem.totalKb = kb;
        else if (key == "MemAvailable:")
            mem.availableKb = kb;
        else if (key == "SwapTotal:")
            mem.swapTotalKb = kb;
        else if (key == "SwapFree:")
            mem.swapFreeKb = kb;
    }
    return mem;
}

uint64_t interbenchFileMb(const MemInfo &mem)
{
    return std::max<uint64_t>(1, std::min<uint64_t>(mem.totalKb, 1000000) / 1024);
}

uint64_t interbenchMemloadMb(const MemInfo &mem)
{
    constexpr uint64_t kReserveKb = 64 * 1024, kCapMb = 2930;
    if (mem.swapTotalKb == 0 || mem.totalKb == 0)
        return 0;
    const uint64_t room = mem.totalKb + mem.swapTotalKb;
    uint64_t kb = mem.totalKb * 110 / 100;
    if (room < kReserveKb)
        return 0;
    kb = std::min(kb, room - kReserveKb);
    return std::min(kb / 1024, kCapMb);
}

std::string interbenchMemloadRefusal(const MemInfo &mem)
{
    if (mem.swapTotalKb == 0)
        return "interbench's memload needs swap: this machine has none; use memload:N:mb=SIZE";
    if (interbenchMemloadMb(mem) == 0)
        return "interbench's memload: RAM and swap are too small to size it; use "
               "memload:N:mb=SIZE";
    return {};
}

double onlineCpusValue(const LoadSpec &)
{
    return static_cast<double>(std::max(1L, sysconf(_SC_NPROCESSORS_ONLN)));
}

double interbenchFileMbValue(const LoadSpec &)
{
    return static_cast<double>(interbenchFileMb(readMemInfo()));
}

double interbenchMemloadMbValue(const LoadSpec &)
{
    return static_cast<double>(interbenchMemloadMb(readMemInfo()));
}

} // namespace latprobe
